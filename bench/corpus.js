/** The real-world corpus as the benches read it: every robots.txt file, and the sites with their URL lists. */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir } from './harness.js';

/** The corpus: every robots.txt as bytes, and the sites with their URL lists. */
export function loadCorpus() {
  const dir = corpusDir();
  const robots = readdirSync(join(dir, 'robots'))
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, 'robots', name))) }));
  const index = readFileSync(join(dir, 'urls', 'INDEX.tsv'), 'utf8')
    .trim()
    .split('\n');
  const header = index[0].split('\t');
  const sites = index.slice(1).map((row) => {
    const cells = row.split('\t');
    const urls = readFileSync(join(dir, 'urls', cells[header.indexOf('urls_file')]), 'utf8')
      .split('\n')
      .filter(Boolean);
    const bytes = new Uint8Array(readFileSync(join(dir, 'robots', cells[header.indexOf('robots_file')])));
    return { urls, bytes, origin: new URL(urls[0]).origin };
  });
  return { robots, sites };
}

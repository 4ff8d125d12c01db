/**
 * The real world: every robots.txt of the shared corpus parses, and every URL of its URL lists gets a decision, with
 * `explain` agreeing with `isAllowed`. The corpus lives outside the repository (see helpers.corpusDir); in CI its
 * absence is an error.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { corpusDir } from './helpers.js';

const corpus = corpusDir();

describe.runIf(corpus !== null)('shared corpus', () => {
  const dir = corpus ?? '';

  it('parses every robots.txt file, as bytes and as text, with one record per line', () => {
    const files = readdirSync(join(dir, 'robots'));
    expect(files.length).toBeGreaterThanOrEqual(3709);
    let lines = 0;
    for (const name of files) {
      const bytes = readFileSync(join(dir, 'robots', name));
      const fromBytes = parseRobotsTxt(bytes);
      const fromText = parseRobotsTxt(bytes.toString('utf8'));
      expect(fromBytes.records.length, name).toBe(fromBytes.lineCount);
      expect(fromText.lineCount, name).toBe(fromBytes.lineCount);
      expect(fromText.groups.length, name).toBe(fromBytes.groups.length);
      // Every record's range slices back to its text.
      const text = bytes.toString('latin1');
      for (const r of fromBytes.records.slice(0, 50)) {
        if ([...r.text].every((c) => c.charCodeAt(0) < 0x80))
          expect(text.slice(r.range.start, r.range.end), name).toBe(r.text);
      }
      lines += fromBytes.lineCount;
    }
    expect(lines).toBeGreaterThan(200_000);
  });

  it('decides every URL of every URL list, and explain agrees with isAllowed', () => {
    const index = readFileSync(join(dir, 'urls', 'INDEX.tsv'), 'utf8')
      .trim()
      .split('\n');
    const header = index[0]!.split('\t');
    const urlsCol = header.indexOf('urls_file');
    const robotsCol = header.indexOf('robots_file');
    let decided = 0;
    const disagreements: string[] = [];
    for (const row of index.slice(1)) {
      const cells = row.split('\t');
      const robots = parseRobotsTxt(readFileSync(join(dir, 'robots', cells[robotsCol]!)));
      const urls = readFileSync(join(dir, 'urls', cells[urlsCol]!), 'utf8')
        .split('\n')
        .filter(Boolean);
      for (const url of urls) {
        for (const agent of ['Googlebot', 'Bingbot', '*']) {
          const allowed = robots.isAllowed(url, agent);
          const explained = robots.explain(url, agent);
          if (explained.allowed !== allowed || (explained.line === 0) !== (explained.rule === null)) {
            disagreements.push(`${cells[robotsCol]} ${agent} ${url}`);
          }
        }
        const parsed = new URL(url);
        if (robots.isAllowed(parsed, 'Googlebot') !== robots.isAllowed(parsed.href, 'Googlebot')) {
          disagreements.push(`URL object: ${cells[robotsCol]} ${url}`);
        }
        decided++;
      }
    }
    expect(disagreements).toEqual([]);
    expect(decided).toBeGreaterThan(80_000);
  });
});

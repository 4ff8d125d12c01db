/**
 * Bundle size: what an application that imports one export of the engine ships, minified and gzipped, bundled with
 * rolldown (the bundler behind the web UI's vite build), beside robots-parser bundled the same way.
 */

import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { rolldown } from 'rolldown';
import { fmt, goal, table } from './harness.js';

const require = createRequire(import.meta.url);
const ENTRY = '\0bench-entry';

/** Minified and gzipped size in bytes of a bundle of `source`, an ES module importing packages by name. */
async function bundleSize(source) {
  const bundle = await rolldown({
    input: ENTRY,
    logLevel: 'silent',
    platform: 'browser',
    plugins: [
      {
        name: 'bench-entry',
        resolveId: (id) => (id === ENTRY ? id : null),
        load: (id) => (id === ENTRY ? source : null),
      },
      {
        name: 'from-here',
        // Resolve bare package names from this folder (the entry is virtual, so it has no folder of its own).
        resolveId: (id, importer) => (importer === ENTRY && !id.startsWith('.') ? require.resolve(id) : null),
      },
    ],
  });
  const { output } = await bundle.generate({ format: 'esm', minify: true });
  await bundle.close();
  const code = output[0].code;
  return { min: code.length, gzip: gzipSync(code).length };
}

export async function runBundleBench() {
  const cases = [
    ['robotskit: parseRobotsTxt', "export { parseRobotsTxt } from 'robotskit';"],
    ['robotskit: parseRobotsTxt + CRAWLERS', "export { parseRobotsTxt, CRAWLERS } from 'robotskit';"],
    ['robots-parser', "export { default } from 'robots-parser';"],
  ];
  const rows = [];
  const sizes = [];
  for (const [name, source] of cases) {
    const size = await bundleSize(source);
    sizes.push(size);
    rows.push([name, fmt(size.min / 1000, 1), fmt(size.gzip / 1000, 1)]);
  }
  table('bundle size (rolldown, minified)', ['import', 'KB', 'KB gzip'], rows);
  const ours = sizes[0].gzip / 1000;
  goal('parseRobotsTxt alone, bundled (KB gzip)', ours, '<= 12 KB', ours <= 12, 'KB');
}

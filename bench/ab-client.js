/**
 * Two builds of the engine side by side on the crawl client's warm pass, in one process: `node bench/ab-client.js
 * <a> <b>`, each a copy of `packages/robotskit/dist` (its folder, its `index.js` or its `fetch/index.js`, the entry of
 * `createRobotsClient`) in a folder with a package.json saying `"type": "module"`. Each build gets a client whose cache
 * holds every corpus origin (robots.txt served from memory); then passes over the corpus URLs, in the goal's
 * interleaved order, alternate between the two, which comes first alternating too. Prints each build's median pass and
 * the median of the per-pair ratios (b over a), and fails if the two ever answer differently.
 *
 * Why: on a busy 2-core virtual machine the same build's warm pass took from 71 to 165 ms from one process to the next,
 * so separate runs cannot tell a 5% change; in one process, two copies of one build came out 0.990 to 1.054 apart over
 * eight runs. Run it with two copies of the same build first to see the noise of the day (one path given twice is one
 * module, loaded once: that measures nothing).
 */

import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { interleaved, loadSites } from './client.js';

const [pathA, pathB] = process.argv.slice(2);
if (pathA === undefined || pathB === undefined) {
  console.error('usage: node bench/ab-client.js <build a> <build b> [rounds, default 20]');
  process.exit(2);
}
const rounds = Number(process.argv[4] ?? 20);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error(`rounds must be a positive integer, not ${process.argv[4]}`);
  process.exit(2);
}

let sites;
try {
  sites = loadSites();
} catch (error) {
  // A corpus that is not there is a setup mistake: one line, not a stack trace.
  console.error(error.message);
  process.exit(2);
}
const bodies = new Map(sites.map((s) => [s.host, s.body]));
const urls = interleaved(sites);
// Every robots.txt from memory: the warm pass fetches nothing, and the cold one should not wait on sockets.
const memoryFetch = async (url) => {
  const body = bodies.get(new URL(url).hostname);
  return new Response(body ?? '', {
    status: body === undefined ? 404 : 200,
    headers: { 'content-type': 'text/plain' },
  });
};

/**
 * The modules a build path may name, in the order tried: the path itself, then the fetch entry beside a main index.js
 * (for a folder: its fetch entry).
 */
function candidates(path) {
  if (!path.endsWith('.js')) return [join(path, 'fetch', 'index.js')];
  if (basename(path) === 'index.js' && basename(dirname(path)) !== 'fetch')
    return [path, join(dirname(path), 'fetch', 'index.js')];
  return [path];
}

/** A client of the build at `path`; exits with a message (not a stack trace) when that is no build of the engine. */
async function clientOf(path) {
  for (const [i, file] of candidates(path).entries()) {
    let build;
    try {
      build = await import(pathToFileURL(file).href);
    } catch (error) {
      // A fallback that is not there is no error: the path named something else.
      if (i > 0) continue;
      console.error(`cannot load ${file}: ${error.message}`);
      process.exit(2);
    }
    if (typeof build.createRobotsClient === 'function') {
      return build.createRobotsClient({ userAgent: 'Googlebot', fetch: memoryFetch });
    }
  }
  console.error(
    `${path} exports no createRobotsClient: give a copy of packages/robotskit/dist (or its fetch/index.js)`,
  );
  process.exit(2);
}

/** One pass over every URL, one at a time: its time in ms and how many were allowed. */
async function pass(client) {
  let allowed = 0;
  const start = process.hrtime.bigint();
  for (const u of urls) if (await client.isAllowed(u)) allowed++;
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, allowed };
}

const median = (xs) => {
  const sorted = [...xs].sort((x, y) => x - y);
  return sorted[sorted.length >> 1];
};

const a = await clientOf(pathA);
const b = await clientOf(pathB);
// Both caches filled at once, URL by URL, so that neither build's entries all sit in memory after the other's: filled
// one after the other, the second client's passes ran 2-4% slower with the same build on both sides.
await Promise.all(urls.flatMap((u) => [a.isAllowed(u), b.isAllowed(u)]));
for (let i = 0; i < 3; i++) {
  await pass(a);
  await pass(b);
}
const times = { a: [], b: [] };
const ratios = [];
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
  const results = {};
  for (const name of order) results[name] = await pass(name === 'a' ? a : b);
  if (results.a.allowed !== results.b.allowed) {
    console.error(`the builds answer differently: ${results.a.allowed} against ${results.b.allowed} URLs allowed`);
    process.exit(1);
  }
  times.a.push(results.a.ms);
  times.b.push(results.b.ms);
  ratios.push(results.b.ms / results.a.ms);
}
console.log(`${urls.length} URLs over ${sites.length} sites, ${rounds} pairs of warm passes`);
console.log(`a: median ${median(times.a).toFixed(1)} ms  (${pathA})`);
console.log(`b: median ${median(times.b).toFixed(1)} ms  (${pathB})`);
console.log(`b / a, median of the pairs: ${median(ratios).toFixed(3)}`);

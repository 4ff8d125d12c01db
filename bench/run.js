/**
 * `npm run bench`: every benchmark, printed as tables. Ratios are robotskit against the peers named in the issues,
 * measured side by side in this one run.
 */

import { runBatchBench } from './batch.js';
import { runBundleBench } from './bundle.js';
import { runClientBench } from './client.js';
import { runCrawlersBench } from './crawlers.js';
import { runDecideBench } from './decide.js';
import { runDialectsBench } from './dialects.js';
import { runEngineBench } from './engine.js';
import { runFleetBench } from './fleet.js';
import { printGoals } from './harness.js';
import { runLintBench } from './lint.js';
import { runLogsBench } from './logs.js';
import { runPeersBench } from './peers.js';
import { runScaleBench } from './scale.js';
import { runFormatBench, runSemanticsBench, runUsageBench } from './semantics.js';
import { runServerBench } from './server.js';
import { runSitemapsBench } from './sitemaps.js';
import { runStoresBench } from './stores.js';
import { runTypingBench } from './typing.js';

const only = new Set(process.argv.slice(2));
const want = (name) => only.size === 0 || only.has(name);

console.log(`robotskit benchmarks: node ${process.version}, ${new Date().toISOString()}`);
if (want('engine')) await runEngineBench();
if (want('peers')) await runPeersBench();
if (want('bundle')) await runBundleBench();
if (want('dialects')) runDialectsBench();
if (want('crawlers')) runCrawlersBench();
if (want('client')) await runClientBench();
if (want('lint')) runLintBench();
if (want('server')) await runServerBench();
if (want('batch')) await runBatchBench();
if (want('sitemaps')) await runSitemapsBench();
if (want('decide')) await runDecideBench();
if (want('scale')) await runScaleBench();
if (want('stores')) await runStoresBench();
if (want('fleet')) await runFleetBench();
if (want('logs')) await runLogsBench();
// Only when named: it drives Chromium (the UI must be built).
if (only.has('typing')) await runTypingBench();
// Only when named: each of its three slowest comparisons runs into compareRobots' 10 s budget.
if (only.has('semantics')) {
  runSemanticsBench();
  runFormatBench();
  runUsageBench();
}
printGoals();

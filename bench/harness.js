/**
 * Side-by-side timing. This machine (and CI's) is shared and noisy: the same work can take twice as long for
 * seconds at a time. So a comparison runs its two contenders alternately, round after round, and reports the median
 * of the per-round ratios: both sides of one round see the same conditions.
 */

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The shared corpus: ROBOTSKIT_CORPUS, else ../shared/corpus next to the repository. */
export function corpusDir() {
  const candidates = [process.env.ROBOTSKIT_CORPUS, resolve(here, '../../shared/corpus')].filter(Boolean);
  const found = candidates.find((p) => existsSync(join(p, 'robots')));
  if (!found) throw new Error(`corpus not found (looked in ${candidates.join(', ')}); set ROBOTSKIT_CORPUS`);
  return found;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Milliseconds one call of `fn` takes. No forced garbage collection between runs: a full GC shrinks the young
 * generation and makes the next run of any allocating code ~30% slower, which is not how a parser runs in a crawler.
 * Alternating the order of the contenders round by round spreads each one's garbage evenly over both.
 */
export function timeOnce(fn) {
  const start = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Runs `ours` and `theirs` alternately for `rounds` rounds (after `warmup` rounds of each) and returns the median
 * time of each and the median of theirs/ours per round (how many times faster we are).
 */
export function compare(ours, theirs, { rounds = 15, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i++) {
    ours();
    theirs();
  }
  const a = [];
  const b = [];
  const ratios = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate who goes first, so neither always runs right after the other's garbage.
    const [ta, tb] = i % 2 === 0 ? [timeOnce(ours), timeOnce(theirs)] : [timeOnce(theirs), timeOnce(ours)].reverse();
    a.push(ta);
    b.push(tb);
    ratios.push(tb / ta);
  }
  return { ours: median(a), theirs: median(b), ratio: median(ratios) };
}

/** Median time of `fn` over `rounds` runs after `warmup`. */
export function measure(fn, { rounds = 15, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i++) fn();
  const times = [];
  for (let i = 0; i < rounds; i++) times.push(timeOnce(fn));
  return median(times);
}

/** {@link measure} for async work: the median time of `fn`, awaited, over `rounds` runs after `warmup`. */
export async function measureAsync(fn, { rounds = 15, warmup = 3 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const times = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return median(times);
}

/** Prints rows as an aligned table. */
export function table(title, header, rows) {
  const all = [header, ...rows].map((r) => r.map(String));
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(all[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of all.slice(1)) console.log(line(r));
}

/** Formats a number with a fixed number of decimals. */
export const fmt = (n, d = 1) => n.toFixed(d);

/** Goals of the issues, collected while the benchmarks run and printed together at the end. */
const goals = [];

/** Records a measured value beside its goal. `unit` empty means a ratio (printed as `2.50x`). */
export function goal(name, value, target, met, unit = '') {
  goals.push([name, unit === '' ? `${fmt(value, 2)}x` : `${fmt(value, 1)} ${unit}`, target, met ? 'met' : 'NOT MET']);
}

/**
 * robots-parser's speed on the corpus in this run (MB/s), once a benchmark has measured it: how fast this machine is
 * now, for the goals stated in ms or URLs/s (a ratio against a peer measured in the same run needs no such yardstick).
 */
let yardstick = null;

/** Records robots-parser's parse speed in this run (see {@link printGoals}). */
export function machineYardstick(robotsParserMBs) {
  yardstick ??= robotsParserMBs;
}

/** Prints every recorded goal, and how fast the machine was. */
export function printGoals() {
  if (goals.length > 0) table('goals (measured in this run)', ['goal', 'measured', 'target', ''], goals);
  if (yardstick !== null) {
    console.log(
      `machine speed: robots-parser parsed the corpus at ${fmt(yardstick)} MB/s in this run. Goals in ms or URLs/s ` +
        "scale with the machine: compare with robots-parser's row in the engine README's table (the machine the " +
        "README's numbers come from); ratios against a peer are measured side by side and need no such yardstick.",
    );
  }
}

/**
 * Starts a bench helper process (`bench/<script>` with `args`): it prints one JSON line when it listens and exits
 * when its standard input ends. Resolves with that line's value and a stop function that waits for the exit.
 */
export async function startHelperProcess(script, args) {
  const child = spawn(process.execPath, [join(here, script), ...args.map(String)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const value = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return {
    value,
    stop: () =>
      new Promise((resolve) => {
        child.on('exit', resolve);
        child.stdin.end();
      }),
  };
}

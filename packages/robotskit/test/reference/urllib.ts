/**
 * Runs Python's `urllib.robotparser` (through `urllib_robotparser.py`) on robots.txt files and returns its verdicts:
 * the executable reference of the legacy dialect.
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), 'urllib_robotparser.py');

/**
 * The deviations of the legacy dialect from urllib.robotparser (see src/match/legacy.ts). Each is a fix the
 * Python side can apply so that urllib reads the input as the legacy dialect does on that point.
 */
export const DEVIATIONS = [
  'bom',
  'whitespace-line',
  'line-breaks',
  'fragment',
  'empty-path',
  'rule-reparse',
  'encoded-slash',
  'agent-escapes',
  'limits',
] as const;

/** One of {@link DEVIATIONS}. */
export type Deviation = (typeof DEVIATIONS)[number];

/** A robots.txt and the questions to ask urllib about it, once per fix set. */
interface UrllibRequest {
  readonly robots: string | Uint8Array;
  /** `[userAgent, url]` pairs. */
  readonly checks: readonly (readonly [string, string])[];
  /** Fix sets to run; `[]` is urllib as it is. */
  readonly fixes: readonly (readonly Deviation[])[];
}

/** Whether python3 can be run here. */
export function hasPython(): boolean {
  const probe = spawnSync('python3', ['-c', 'import urllib.robotparser'], { encoding: 'utf8' });
  return probe.status === 0;
}

/** For each request, for each fix set, one verdict per check (true: allowed). Throws when Python fails. */
export function urllibVerdicts(requests: readonly UrllibRequest[]): boolean[][][] {
  const files = requests.map((r) => ({
    robots_b64: Buffer.from(typeof r.robots === 'string' ? new TextEncoder().encode(r.robots) : r.robots).toString(
      'base64',
    ),
    checks: r.checks,
    fixes: r.fixes,
  }));
  const run = spawnSync('python3', [script], {
    input: JSON.stringify({ files }),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (run.status !== 0) throw new Error(`urllib_robotparser.py failed: ${run.stderr || run.error?.message}`);
  return (JSON.parse(run.stdout) as { verdicts: boolean[][][] }).verdicts;
}

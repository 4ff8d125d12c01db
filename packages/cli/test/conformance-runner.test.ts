/**
 * Google's conformance suite driven through the command, as the upstream runner drives an implementation: the
 * robots.txt written to a temporary file, then `robotskit test <robots-file> <user-agent> <url>`, exit status 0 read as
 * allowed and 1 as disallowed.
 *
 * Starting 400 processes takes minutes on a busy machine, so the 400 cases run through the built command's `main`
 * (what `bin/robotskit.js` calls) in two child processes, each case with its own arguments, output and exit code; a
 * few cases also run through the real executable, one process each, to keep the process contract itself tested.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { type SpecCase, specCases } from '../../robotskit/test/helpers.js';
import { tempDir, tracked } from './cleanup.js';
import { BIN, spawn } from './helpers.js';

const MAIN = pathToFileURL(join(BIN, '../../dist/main.js')).href;

/** Reads `[argv, …]` as JSON on standard input, runs each through `main`, prints `[{ code, stderr }, …]`. */
const DRIVER = `
const { main } = await import(${JSON.stringify(MAIN)});
let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const argv of JSON.parse(input)) {
  let stderr = '';
  const io = {
    stdout: { write: () => true, isTTY: false },
    stderr: { write: (s) => { stderr += s; return true; }, isTTY: false },
    readStdin: async () => new Uint8Array(),
    env: {},
  };
  results.push({ code: await main(argv, io), stderr });
}
process.stdout.write(JSON.stringify(results));
`;

function drive(argvs: string[][]): Promise<{ code: number; stderr: string }[]> {
  return new Promise((resolve, reject) => {
    const child = tracked(
      execFile(
        process.execPath,
        ['--input-type=module', '-e', DRIVER],
        { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error) reject(new Error(`driver failed: ${stderr}`));
          else resolve(JSON.parse(stdout));
        },
      ),
    );
    child.stdin?.end(JSON.stringify(argvs));
  });
}

const verdict = (code: number, stderr: string) =>
  code === 0 ? 'allowed' : code === 1 ? 'disallowed' : `exit ${code}: ${stderr}`;

it('passes all 400 cases through `robotskit test`', async () => {
  const cases = specCases();
  expect(cases).toHaveLength(400);
  const dir = tempDir('spec');
  const argvOf = (c: SpecCase) => {
    const file = join(dir, `case-${c.id}.txt`);
    writeFileSync(file, Buffer.from(c.robots_b64, 'base64'));
    return ['test', file, c.user_agent, c.url];
  };
  const argvs = cases.map(argvOf);
  const half = Math.ceil(cases.length / 2);
  const results = (await Promise.all([drive(argvs.slice(0, half)), drive(argvs.slice(half))])).flat();
  expect(results).toHaveLength(cases.length);
  const failures = cases.flatMap((c, i) => {
    const got = verdict(results[i]!.code, results[i]!.stderr);
    return got === c.expected ? [] : [`#${c.id} ${c.suite}: expected ${c.expected}, got ${got}`];
  });
  expect(failures).toEqual([]);

  // The executable itself, one process per case as the upstream runner starts it: both verdicts.
  const sample = [cases.find((c) => c.expected === 'allowed')!, cases.find((c) => c.expected === 'disallowed')!];
  for (const c of sample) {
    const { code, stderr } = await spawn(argvOf(c));
    expect(verdict(code, stderr), `#${c.id}`).toBe(c.expected);
  }
}, 600_000);

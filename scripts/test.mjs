/**
 * `npm test`: the build, then the static checks (`npm run check`, `npm run typecheck`) and Vitest side by side.
 *
 * The checks need the processors (about two minutes of compiler and linter work on this 2-core machine) while most of
 * the test run waits on servers, processes, databases and browsers, so running them beside the tests instead of before
 * them takes that time off the whole run. Vitest prints as it goes; each check's output is kept and printed after the
 * tests, with whether it passed. Then the `alone` project (files that measure wait times) runs by itself. The run fails when any of the three fails; a check that fails does not stop the tests
 * (CI reports everything in one run). Ctrl-C or SIGTERM stops all three.
 */

import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const children = new Set();

/** Runs `command`; resolves with its exit code (and its output when `keep`, instead of printing it). */
function run(command, args, keep) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    children.add(child);
    const chunks = [];
    if (keep) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${command} could not start: ${error.message}\n`));
    });
    child.on('close', (code, signal) => {
      children.delete(child);
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exitCode = 1;
  });
}

const build = await run(npm, ['run', 'build'], false);
if (build.code !== 0) {
  console.error(`npm test: the build failed (exit ${build.code})`);
  process.exit(build.code);
}

const [check, typecheck, vitest] = await Promise.all([
  run(npm, ['run', 'check'], true),
  run(npm, ['run', 'typecheck'], true),
  run('npx', ['vitest', 'run', '--project', 'unit', '--project', 'integration'], false),
]);
// The files whose claim is a wait time, with the machine otherwise quiet (vitest.config.ts says why).
const alone = await run('npx', ['vitest', 'run', '--project', 'alone'], false);

let failed = false;
for (const [name, result] of [
  ['npm run check', check],
  ['npm run typecheck', typecheck],
]) {
  process.stdout.write(`\n${name} (run beside the tests):\n${result.output}`);
  if (result.code !== 0) {
    console.error(`npm test: ${name} failed (exit ${result.code})`);
    failed = true;
  } else console.log(`${name}: passed`);
}
if (vitest.code !== 0) {
  console.error(`npm test: the tests failed (exit ${vitest.code})`);
  failed = true;
}
if (alone.code !== 0) {
  console.error(`npm test: the tests run alone (the load-and-fault suite) failed (exit ${alone.code})`);
  failed = true;
}
process.exit(failed ? 1 : 0);

/**
 * Vitest global setup: every test run gets a temporary folder of its own (`TMPDIR`, inherited by the test workers and
 * by every process they start), and the run fails when a test leaves anything behind in it. A test that creates files
 * or folders removes them, also when it fails. The folder itself is removed at the end either way, so a failed run
 * leaves nothing on the machine either. Concurrent runs (two worktrees) do not see each other's files.
 *
 * Each test project runs the global setup (they extend the root config): the first one makes the folder and the
 * others use it, so paths stay short (Chromium's socket path must fit in 107 bytes) and there is one check.
 */

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MARK = 'ROBOTSKIT_TEST_TMPDIR';

export function setup(): (() => void) | undefined {
  if (process.env[MARK] !== undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'robotskit-test-run-'));
  process.env[MARK] = dir;
  process.env.TMPDIR = dir;
  return () => teardown(dir);
}

function teardown(dir: string): void {
  const left = readdirSync(dir);
  rmSync(dir, { recursive: true, force: true });
  if (left.length > 0) {
    // Vitest reports an error thrown here but still exits 0, so the exit code is set as well.
    process.exitCode = 1;
    throw new Error(
      `tests left ${left.length} temporary file(s) or folder(s) behind (removed now): ${left.sort().join(', ')}`,
    );
  }
}

/**
 * Vitest global setup: every test run gets a temporary folder of its own (`TMPDIR`, inherited by the test workers and
 * by every process they start), and the run fails when a test leaves anything behind in it. A test that creates files
 * or folders removes them, also when it fails. The folder itself is removed at the end either way, so a failed run
 * leaves nothing on the machine either. Concurrent runs (two worktrees) do not see each other's files.
 */

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let runDir: string | null = null;

export function setup(): void {
  runDir = mkdtempSync(join(tmpdir(), 'robotskit-test-run-'));
  process.env.TMPDIR = runDir;
}

export function teardown(): void {
  if (runDir === null) return;
  const dir = runDir;
  runDir = null;
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

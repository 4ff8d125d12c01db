/**
 * What a test file leaves behind, removed whether its tests pass or fail: temporary directories (at the end of the
 * file) and child processes still running (after each test). Importing this module registers the two hooks on the
 * importing test file.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';

const dirs: string[] = [];
const children = new Set<ChildProcess>();

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});

afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new directory under the system's temporary directory (`robotskit-<name>-…`), removed after the file's tests. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `robotskit-${name}-`));
  dirs.push(dir);
  return dir;
}

/** `child`, killed after the test that started it unless it has ended by then. */
export function tracked<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

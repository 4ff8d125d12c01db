/**
 * `robotskit format <file> [--check]`: the file in the engine's canonical layout (`formatRobots`), which decides every
 * URL as the original for every crawler; repeated rules are dropped only when the engine proves it changes nothing.
 * Prints the formatted text; with `--check` prints nothing but whether it would change (exit 1) or not (exit 0), for
 * CI. Exit 2 on usage and I/O errors.
 */

import { type Io, readInput } from '../io.js';

/** Options of `format`, as commander parsed them. */
export interface FormatOptions {
  readonly check?: boolean;
}

/** Runs `format`; returns the exit code. */
export async function runFormat(io: Io, file: string, options: FormatOptions): Promise<number> {
  // The engine loads when the command runs, so registering the command costs nothing at start-up.
  const { formatRobots } = await import('robotskit/semantics');
  const result = formatRobots(await readInput(io, file, 'robots.txt file'));
  const name = file === '-' ? 'standard input' : file;
  if (options.check) {
    if (!result.changed) return 0;
    const removed = result.removedLines.length;
    const note = removed === 0 ? '' : ` (${removed} repeated rule${removed === 1 ? '' : 's'} removed)`;
    io.stdout.write(`${name}: would be reformatted${note}\n`);
    return 1;
  }
  io.stdout.write(result.text);
  return 0;
}

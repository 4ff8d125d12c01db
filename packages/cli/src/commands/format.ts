/**
 * `robotskit format <file> [--check | --write] [--json]`: the file in the engine's canonical layout (`formatRobots`),
 * which decides every URL as the original for every crawler; repeated rules are dropped only when the engine proves it
 * changes nothing. The file is read and written as bytes, never decoded: every byte the layout does not rewrite comes
 * out as it went in (a Latin-1 `\xe9` stays `\xe9`). Prints the formatted bytes; with `--check` prints nothing but
 * whether it would change (exit 1) or not (exit 0), for CI; with `--write` rewrites the file in place when it changes
 * and says so. `--json` prints `{ file, proven, reason, changed, removedLines, text, base64 }` whichever mode (`text`
 * is the result when it is UTF-8, else null and `base64` holds the bytes). When the engine cannot prove the layout
 * means the same (a file over the parse limit, a comparison cut short by its bounds), it says so on standard error,
 * prints and writes nothing it cannot prove and exits 3. Exit 2 on usage and I/O errors.
 */

import { isUtf8 } from 'node:buffer';
import { writeFile } from 'node:fs/promises';
import { CliError, type Io, readInput } from '../io.js';

/** Options of `format`, as commander parsed them. */
export interface FormatOptions {
  readonly check?: boolean;
  readonly write?: boolean;
  readonly json?: boolean;
}

/** Runs `format`; returns the exit code. */
export async function runFormat(io: Io, file: string, options: FormatOptions): Promise<number> {
  if (options.check && options.write) throw new CliError('--check and --write ask for two things: give one');
  if (options.write && file === '-') throw new CliError('--write rewrites a file: standard input has none to rewrite');
  // The engine loads when the command runs, so registering the command costs nothing at start-up.
  const { formatRobots } = await import('robotskit/semantics');
  const result = formatRobots(await readInput(io, file, 'robots.txt file'));
  const name = file === '-' ? 'standard input' : file;
  const removed = result.removedLines.length;
  const note = removed === 0 ? '' : ` (${removed} repeated rule${removed === 1 ? '' : 's'} removed)`;
  if (options.json) {
    const utf8 = isUtf8(result.bytes);
    const doc = {
      file: name,
      proven: result.proven,
      reason: result.reason,
      changed: result.proven && result.changed,
      removedLines: result.proven ? result.removedLines : [],
      text: result.proven && utf8 ? result.text : null,
      base64: result.proven && !utf8 ? Buffer.from(result.bytes).toString('base64') : null,
    };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  }
  if (!result.proven) {
    io.stderr.write(
      `robotskit: ${name}: not formatted, nothing ${options.write ? 'written' : 'printed'}: ${result.reason}\n`,
    );
    return 3;
  }
  if (options.write && result.changed) {
    try {
      await writeFile(file, result.bytes);
    } catch (error) {
      throw new CliError(`cannot write '${file}': ${(error as Error).message}`, 2, { cause: error });
    }
  }
  if (options.json) {
    // printed above
  } else if (options.check) {
    if (result.changed) io.stdout.write(`${name}: would be reformatted${note}\n`);
  } else if (options.write) {
    if (result.changed) io.stdout.write(`${name}: reformatted${note}\n`);
  } else {
    io.stdout.write(result.bytes);
  }
  return options.check && result.changed ? 1 : 0;
}

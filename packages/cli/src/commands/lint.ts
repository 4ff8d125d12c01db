/**
 * `robotskit lint <file|url|->… [--json | --format text|json|sarif] [--severity error|warning|info] [--timeout <s>]
 * [--fix]`: every problem Google's parser (and other crawlers) would have with each robots.txt. Exit 0 when nothing is
 * at or above the severity threshold (default: error), 1 otherwise, 2 on usage or I/O errors. `--fix` writes the
 * engine's fixes (`applyFixes`) into each file, then reports what is left.
 */

import { writeFile } from 'node:fs/promises';
import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { applyFixes, atLeast, type Diagnostic, lint, type Severity } from 'robotskit/lint';
import { CliError, type Io, readInput } from '../io.js';
import type { LINT_FORMATS } from '../options/choices.js';
import { formatJson } from '../output/lint/json.js';
import { BytePositions } from '../output/lint/positions.js';
import { formatSarif } from '../output/lint/sarif.js';
import { formatText, summary } from '../output/lint/text.js';
import { painter, useColor } from '../output/paint.js';

/** Options of `lint`, as commander parsed them. */
export interface LintCommandOptions {
  readonly format: (typeof LINT_FORMATS)[number];
  readonly severity: Severity;
  /** Seconds, as typed. */
  readonly timeout: string;
  /** Write the fixes into the files, then report what is left. */
  readonly fix?: boolean;
}

/** Whether the argument names a URL rather than a file. */
function looksLikeUrl(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
}

/** A file path as a SARIF artifact URI: relative paths stay relative (with forward slashes), absolute ones become file URLs. */
export function artifactUri(path: string): string {
  if (isAbsolute(path)) return pathToFileURL(path).href;
  return path.split(sep).map(encodeURIComponent).join('/');
}

/** One linted file. */
interface Linted {
  /** How the output names it: the path, `<stdin>`, or the robots.txt URL that was fetched. */
  readonly name: string;
  /** The SARIF artifact URI. */
  readonly uri: string;
  readonly length: number;
  readonly diagnostics: readonly Diagnostic[];
  readonly positions: BytePositions;
}

/** Reads or fetches one target and lints it; notes (which file, redirects, cut) go to standard error. */
async function lintOne(io: Io, target: string, options: LintCommandOptions, version: string): Promise<Linted> {
  let bytes: Uint8Array;
  let name: string;
  let uri: string;
  let url: string | undefined;
  const notes: string[] = [];
  if (looksLikeUrl(target)) {
    // The network half (its HTTP clients) loads only for a URL: linting files stays quick to start (pre-commit hooks).
    const [{ parseTimeout }, { cliNetwork }, { fetchForLint }] = await Promise.all([
      import('../options/numbers.js'),
      import('../crawl/network.js'),
      import('../answers/lint.js'),
    ]);
    const timeoutMs = parseTimeout(options.timeout);
    const fetched = await fetchForLint(target, timeoutMs, version, cliNetwork(version));
    bytes = fetched.bytes;
    // Named as the robots.txt it is, not as the page it was asked for.
    name = fetched.name;
    uri = fetched.finalUrl;
    url = fetched.finalUrl;
    notes.push(...fetched.notes);
  } else {
    bytes = await readInput(io, target, 'robots.txt file');
    name = target === '-' ? '<stdin>' : target;
    uri = target === '-' ? 'stdin' : artifactUri(target);
  }
  const paintErr = painter(useColor(io, 'stderr'));
  for (const note of notes) io.stderr.write(`${paintErr('dim', `robotskit: note: ${note}`)}\n`);
  let diagnostics = lint(bytes, url === undefined ? {} : { url });
  if (options.fix === true) {
    const fixed = await fixFile(io, target, bytes, diagnostics);
    if (fixed !== bytes) {
      bytes = fixed;
      diagnostics = lint(bytes);
    }
  }
  return { name, uri, length: bytes.length, diagnostics, positions: new BytePositions(bytes) };
}

/**
 * Writes the fixes of `diagnostics` into `file` (each fix that does not overlap an earlier one, as the engine applies
 * them; lint again for the rest, as `--fix` does until nothing changes) and says how many on standard error. Returns
 * the new bytes, or `bytes` itself when there was nothing to fix.
 */
async function fixFile(
  io: Io,
  file: string,
  bytes: Uint8Array,
  diagnostics: readonly Diagnostic[],
): Promise<Uint8Array> {
  let current = bytes;
  let found = diagnostics;
  let rounds = 0;
  // A fix can make another one possible (or one skipped for overlapping): a few rounds, never more than the fixes.
  while (rounds < 10 && found.some((d) => d.fix !== undefined)) {
    const next = applyFixes(current, found);
    if (sameBytes(next, current)) break;
    current = next;
    found = lint(current);
    rounds++;
  }
  if (current === bytes) return bytes;
  try {
    await writeFile(file, current);
  } catch (error) {
    throw new CliError(`cannot write the fixes into '${file}': ${(error as Error).message}`, 2, { cause: error });
  }
  const fixed = diagnostics.filter((d) => d.fix !== undefined).length;
  io.stderr.write(`robotskit: ${file}: fixed ${fixed} problem${fixed === 1 ? '' : 's'}\n`);
  return current;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/**
 * Runs `lint` over each target in turn; returns the exit code. A target that cannot be read or fetched is said on
 * standard error and the others are still linted (exit 2 then). Several files print per file: text one report each
 * and a total, JSON (one file or many alike) an array of `{ file, diagnostics }`, SARIF one run with one artifact each.
 */
export async function runLint(
  io: Io,
  targets: readonly string[],
  options: LintCommandOptions,
  version: string,
): Promise<number> {
  if (targets.filter((t) => t === '-').length > 1) throw new CliError('standard input (-) can be linted only once');
  if (options.fix === true) {
    const notFile = targets.find((t) => t === '-' || looksLikeUrl(t));
    if (notFile !== undefined)
      throw new CliError(
        `--fix writes the fixes into files: ${notFile === '-' ? 'standard input' : `'${notFile}', a URL,`} cannot be fixed in place (save it to a file first)`,
      );
  }
  const files: Linted[] = [];
  let failed = false;
  for (const target of targets) {
    try {
      files.push(await lintOne(io, target, options, version));
    } catch (error) {
      // One unreadable file among several: say so and go on; alone, it is the command's error.
      if (!(error instanceof CliError) || targets.length === 1) throw error;
      io.stderr.write(`robotskit: ${error.message}\n`);
      failed = true;
    }
  }
  switch (options.format) {
    case 'json':
      io.stdout.write(
        formatJson(files.map((f) => ({ file: f.name, diagnostics: f.diagnostics, positions: f.positions }))),
      );
      break;
    case 'sarif':
      io.stdout.write(
        formatSarif(
          files.map((f) => ({ ...f, artifact: { uri: f.uri, length: f.length } })),
          version,
        ),
      );
      break;
    default: {
      const paint = painter(useColor(io));
      const reports = files.map((f) => formatText(f.diagnostics, f.positions, f.name, paint));
      if (targets.length > 1) {
        const total = `${files.length} of ${targets.length} files linted: ${summary(files.flatMap((f) => f.diagnostics))}`;
        reports.push(`${paint('bold', total)}\n`);
      }
      io.stdout.write(reports.join('\n'));
    }
  }
  if (failed) return 2;
  return files.some((f) => f.diagnostics.some((d) => atLeast(d.severity, options.severity))) ? 1 : 0;
}

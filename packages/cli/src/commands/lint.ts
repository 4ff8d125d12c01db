/**
 * `robotskit lint <file|url|->… [--json | --format text|json|sarif] [--severity error|warning|info] [--timeout <s>]`:
 * every problem Google's parser (and other crawlers) would have with each robots.txt. Exit 0 when nothing is at or
 * above the severity threshold (default: error), 1 otherwise, 2 on usage or I/O errors.
 */

import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_MAX_BYTES } from 'robotskit';
import { fetchRobotsTxt } from 'robotskit/fetch';
import { atLeast, type Diagnostic, lint, type Severity } from 'robotskit/lint';
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
    const [{ checkUrlArgument }, { parseTimeout }, { describeFetch }, { robotsRequest }, { retrievalOptions }] =
      await Promise.all([
        import('../options/url.js'),
        import('../options/numbers.js'),
        import('../output/fetch.js'),
        import('../transport/fetch.js'),
        import('../transport/retrieval.js'),
      ]);
    const timeoutMs = parseTimeout(options.timeout);
    checkUrlArgument(target);
    if (!/^https?:/i.test(target))
      throw new CliError(`cannot fetch '${target}': only http and https URLs are supported`);
    // The engine's retrieval, keeping one byte more than Google parses so the linter can tell the file is too long.
    const fetched = await fetchRobotsTxt(target, {
      ...retrievalOptions(timeoutMs, version),
      fetch: robotsRequest,
      maxBytes: DEFAULT_MAX_BYTES + 1,
    });
    if (fetched.body === null) {
      // An HTTP status is an answer ("cannot lint" it); anything else means the fetch itself failed.
      const verb = fetched.error === null ? 'lint' : 'fetch';
      throw new CliError(`cannot ${verb} '${fetched.finalUrl}': ${describeFetch(fetched, timeoutMs)}`);
    }
    bytes = fetched.body;
    // Named as the robots.txt it is, not as the page it was asked for.
    name = fetched.robotsUrl;
    uri = fetched.finalUrl;
    url = fetched.finalUrl;
    if (new URL(target).href !== fetched.robotsUrl)
      notes.push(`linting ${fetched.robotsUrl}, the file that governs ${target}`);
    if (fetched.redirects.length > 0) notes.push(`redirected to ${fetched.finalUrl}`);
    if (bytes.length > DEFAULT_MAX_BYTES)
      notes.push(`stopped reading after ${DEFAULT_MAX_BYTES} bytes: Google ignores the rest`);
  } else {
    bytes = await readInput(io, target, 'robots.txt file');
    name = target === '-' ? '<stdin>' : target;
    uri = target === '-' ? 'stdin' : artifactUri(target);
  }
  const paintErr = painter(useColor(io, 'stderr'));
  for (const note of notes) io.stderr.write(`${paintErr('dim', `robotskit: note: ${note}`)}\n`);
  const diagnostics = lint(bytes, url === undefined ? {} : { url });
  return { name, uri, length: bytes.length, diagnostics, positions: new BytePositions(bytes) };
}

/**
 * Runs `lint` over each target in turn; returns the exit code. A target that cannot be read or fetched is said on
 * standard error and the others are still linted (exit 2 then). One file prints as before; several print per file:
 * text one report each and a total, JSON an array of `{ file, diagnostics }`, SARIF one run with one artifact each.
 */
export async function runLint(
  io: Io,
  targets: readonly string[],
  options: LintCommandOptions,
  version: string,
): Promise<number> {
  if (targets.filter((t) => t === '-').length > 1) throw new CliError('standard input (-) can be linted only once');
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
      if (targets.length === 1 && files.length === 1) {
        io.stdout.write(formatJson(files[0]!.diagnostics, files[0]!.positions));
      } else {
        const docs = files.map((f) => ({ file: f.name, ...JSON.parse(formatJson(f.diagnostics, f.positions)) }));
        io.stdout.write(`${JSON.stringify(docs, null, 2)}\n`);
      }
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

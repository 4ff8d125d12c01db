/**
 * `robotskit lint <file|url|-> [--format text|json|sarif] [--severity error|warning|info] [--timeout <seconds>]`:
 * every problem Google's parser (and other crawlers) would have with a robots.txt. Exit 0 when nothing is at or
 * above the severity threshold (default: error), 1 otherwise, 2 on usage or I/O errors.
 */

import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { atLeast, DEFAULT_MAX_BYTES, type Diagnostic, fetchRobotsTxt, lint, type Severity } from 'robotskit';
import { painter, useColor } from '../format.js';
import { CliError, type Io, readInput } from '../io.js';
import { formatJson } from '../lint/json.js';
import { BytePositions } from '../lint/positions.js';
import { formatSarif } from '../lint/sarif.js';
import { formatText } from '../lint/text.js';
import { checkUrlArgument, describeFetch, parseTimeout, retrievalOptions, robotsFetch } from '../net.js';

/** The output formats. */
export const LINT_FORMATS = ['text', 'json', 'sarif'] as const;
/** The severities, most serious first. */
export const SEVERITIES = ['error', 'warning', 'info'] as const;

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

/** Runs `lint`; returns the exit code. */
export async function runLint(io: Io, target: string, options: LintCommandOptions, version: string): Promise<number> {
  let bytes: Uint8Array;
  let name: string;
  let uri: string;
  let url: string | undefined;
  const notes: string[] = [];
  if (looksLikeUrl(target)) {
    const timeoutMs = parseTimeout(options.timeout);
    checkUrlArgument(target);
    if (!/^https?:/i.test(target))
      throw new CliError(`cannot fetch '${target}': only http and https URLs are supported`);
    // The engine's retrieval, keeping one byte more than Google parses so the linter can tell the file is too long.
    const fetched = await fetchRobotsTxt(target, {
      ...retrievalOptions(timeoutMs, version),
      fetch: robotsFetch,
      maxBytes: DEFAULT_MAX_BYTES + 1,
    });
    if (fetched.body === null) {
      // An HTTP status is an answer ("cannot lint" it); anything else means the fetch itself failed.
      const verb = fetched.error === null ? 'lint' : 'fetch';
      throw new CliError(`cannot ${verb} '${fetched.finalUrl}': ${describeFetch(fetched, timeoutMs)}`);
    }
    bytes = fetched.body;
    name = target;
    uri = fetched.finalUrl;
    url = fetched.finalUrl;
    if (new URL(target).href !== fetched.robotsUrl)
      notes.push(`linting ${fetched.robotsUrl}, the file that governs it`);
    if (fetched.redirects.length > 0) notes.push(`redirected to ${fetched.finalUrl}`);
    if (bytes.length > DEFAULT_MAX_BYTES)
      notes.push(`stopped reading after ${DEFAULT_MAX_BYTES} bytes: Google ignores the rest`);
  } else {
    bytes = await readInput(io, target, 'robots.txt file');
    name = target === '-' ? '<stdin>' : target;
    uri = target === '-' ? 'stdin' : artifactUri(target);
  }

  const diagnostics: Diagnostic[] = lint(bytes, url === undefined ? {} : { url });
  const positions = new BytePositions(bytes);
  const paintErr = painter(useColor(io, 'stderr'));
  for (const note of notes) io.stderr.write(`${paintErr('dim', `robotskit: note: ${note}`)}\n`);
  switch (options.format) {
    case 'json':
      io.stdout.write(formatJson(diagnostics, positions));
      break;
    case 'sarif':
      io.stdout.write(formatSarif(diagnostics, positions, { uri, length: bytes.length }, version));
      break;
    default:
      io.stdout.write(formatText(diagnostics, positions, name, painter(useColor(io))));
  }
  return diagnostics.some((d) => atLeast(d.severity, options.severity)) ? 1 : 0;
}

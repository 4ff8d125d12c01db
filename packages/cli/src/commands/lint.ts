/**
 * `robotskit lint <file|url|-> [--format text|json|sarif] [--severity error|warning|info] [--timeout <seconds>]`:
 * every problem Google's parser (and other crawlers) would have with a robots.txt. Exit 0 when nothing is at or
 * above the severity threshold (default: error), 1 otherwise, 2 on usage or I/O errors.
 */

import { isAbsolute, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { atLeast, type Diagnostic, lint, type Severity } from 'robotskit';
import { fetchRobotsTxt, robotsUrl } from '../fetch-robots.js';
import { painter, useColor } from '../format.js';
import { CliError, type Io, readInput } from '../io.js';
import { formatJson } from '../lint/json.js';
import { BytePositions } from '../lint/positions.js';
import { formatSarif } from '../lint/sarif.js';
import { formatText } from '../lint/text.js';

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

function parseTimeout(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new CliError(`--timeout must be a positive number of seconds, not '${text}'`);
  return Math.round(seconds * 1000);
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
    const fetched = await fetchRobotsTxt(robotsUrl(target), { timeoutMs });
    bytes = fetched.bytes;
    name = target;
    uri = fetched.url;
    url = fetched.url;
    if (fetched.url !== robotsUrl(target).href) notes.push(`redirected to ${fetched.url}`);
    if (fetched.truncated) notes.push(`stopped reading after ${bytes.length - 1} bytes: Google ignores the rest`);
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

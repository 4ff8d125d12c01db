/**
 * `lint`'s answers, as `lint --json` prints them and the MCP tool `lint` returns them: a robots.txt fetched for a URL
 * (the engine's retrieval, keeping one byte more than Google parses so the linter can tell the file is too long), and
 * the JSON of linted files.
 */

import { DEFAULT_MAX_BYTES } from 'robotskit';
import { fetchRobotsTxt } from 'robotskit/fetch';
import { lint } from 'robotskit/lint';
import type { Network } from '../crawl/network.js';
import { CliError } from '../io.js';
import { checkUrlArgument } from '../options/url.js';
import { describeFetch } from '../output/fetch.js';
import { formatJson } from '../output/lint/json.js';
import { BytePositions } from '../output/lint/positions.js';
import { retrievalOptions } from '../transport/retrieval.js';

/** A robots.txt fetched to be linted. */
interface FetchedForLint {
  readonly bytes: Uint8Array;
  /** The robots.txt URL, as the output names it. */
  readonly name: string;
  /** Where it came from, after redirects. */
  readonly finalUrl: string;
  /** What to tell people (which file, redirects, the cut). */
  readonly notes: readonly string[];
}

/**
 * Fetches the robots.txt that governs `target` (an http or https URL).
 * @throws CliError when it is not such a URL, or no file came back (a status, a network failure).
 */
export async function fetchForLint(
  target: string,
  timeoutMs: number,
  version: string,
  network: Network,
): Promise<FetchedForLint> {
  checkUrlArgument(target);
  if (!/^https?:/i.test(target)) throw new CliError(`cannot fetch '${target}': only http and https URLs are supported`);
  const { ftp: _ftp, ...options } = retrievalOptions(timeoutMs, version);
  const fetched = await fetchRobotsTxt(target, {
    ...options,
    userAgent: network.userAgent,
    fetch: network.fetch,
    maxBytes: DEFAULT_MAX_BYTES + 1,
  });
  if (fetched.body === null) {
    // An HTTP status is an answer ("cannot lint" it); anything else means the fetch itself failed.
    const verb = fetched.error === null ? 'lint' : 'fetch';
    throw new CliError(`cannot ${verb} '${fetched.finalUrl}': ${describeFetch(fetched, timeoutMs)}`);
  }
  const notes: string[] = [];
  if (new URL(target).href !== fetched.robotsUrl)
    notes.push(`linting ${fetched.robotsUrl}, the file that governs ${target}`);
  if (fetched.redirects.length > 0) notes.push(`redirected to ${fetched.finalUrl}`);
  if (fetched.body.length > DEFAULT_MAX_BYTES)
    notes.push(`stopped reading after ${DEFAULT_MAX_BYTES} bytes: Google ignores the rest`);
  return { bytes: fetched.body, name: fetched.robotsUrl, finalUrl: fetched.finalUrl, notes };
}

/** One robots.txt linted, as `lint --json` prints it: `[ { file, diagnostics } ]` (of one file). */
export function lintJson(name: string, bytes: Uint8Array, url?: string): string {
  const diagnostics = lint(bytes, url === undefined ? {} : { url });
  return formatJson([{ file: name, diagnostics, positions: new BytePositions(bytes) }]);
}

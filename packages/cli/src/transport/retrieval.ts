/**
 * What robotskit sends when it fetches for a command: its own `User-Agent`, and the engine's retrieval options for a
 * `--timeout` (HTTP over the transport, `ftp://` over `ftp.ts`).
 */

import type { RetrievalOptions } from 'robotskit/fetch';
import { CLI_HOME } from '../about.js';
import { nodeFtp } from './ftp.js';

/** The `User-Agent` robotskit sends for its own requests (robots.txt and pages). */
export function cliUserAgent(version: string): string {
  return `robotskit/${version} (robots.txt checker; +${CLI_HOME})`;
}

/**
 * Retrieval options for one `--timeout`: it bounds the whole exchange, and each wait within it. Each robots.txt is
 * fetched once per run, so its connection is closed rather than kept alive: over thousands of sites, idle kept-alive
 * sockets would pile up (one per site for seconds each) and run into the open-file limit.
 */
export function retrievalOptions(
  timeoutMs: number,
  version: string,
): Omit<RetrievalOptions, 'fetch' | 'clock' | 'signal'> & { readonly userAgent: string } {
  return {
    userAgent: cliUserAgent(version),
    headers: { connection: 'close' },
    timeouts: { headers: timeoutMs, idle: timeoutMs, total: timeoutMs },
    ftp: nodeFtp,
  };
}

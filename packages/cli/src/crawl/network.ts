/**
 * What the network commands and the MCP tools fetch with: the CLI's own transport (`node:http`, `ftp://` by
 * basic-ftp, robotskit's User-Agent), or, under `serve`, the report service's SSRF-guarded fetch with its FTP client
 * and the guard's checks for `audit`'s page GET. The answers (`../answers/`) take one of these, so the same code
 * answers on the command line and as a tool of the service.
 */

import type { LookupFunction } from 'node:net';
import type { AnyFetchLike, FtpGet } from 'robotskit/fetch';
import { robotsRequest } from '../transport/fetch.js';
import { nodeFtp } from '../transport/ftp.js';
import type { PageGuard } from '../transport/page.js';
import { cliUserAgent } from '../transport/retrieval.js';

/** The network the answers use. */
export interface Network {
  /** The engine's `fetch` for robots.txt (each redirect hop a call of its own). */
  readonly fetch: AnyFetchLike;
  /** `ftp://` robots.txt. */
  readonly ftp: FtpGet | undefined;
  /** robotskit's own `User-Agent`, for the robots.txt and pages it fetches as itself. */
  readonly userAgent: string;
  /** Checks made before and while a page is fetched (the SSRF guard under `serve`); none on the command line. */
  readonly pageGuard: PageGuard | undefined;
}

/** The command line's network: the CLI's transport, as robotskit `version`. */
export function cliNetwork(version: string): Network {
  return { fetch: robotsRequest, ftp: nodeFtp, userAgent: cliUserAgent(version), pageGuard: undefined };
}

/** What the report service hands over for `/mcp`: its guarded fetch as the engine's, its FTP client and its checks. */
export interface GuardedNetwork {
  readonly fetch: AnyFetchLike;
  readonly ftp?: FtpGet | undefined;
  readonly userAgent: string;
  /** The guard's name resolution: every address a name resolves to is checked before a connection is made. */
  readonly lookup: LookupFunction;
  /** Why a URL's address would be refused (its IP literal, or its name's addresses now), else null. */
  readonly refusalOf: (url: string) => Promise<Error | null>;
}

/** The service's guarded network as the answers use it. */
export function guardedNetwork(net: GuardedNetwork): Network {
  return {
    fetch: net.fetch,
    ftp: net.ftp,
    userAgent: net.userAgent,
    pageGuard: { lookup: net.lookup, refusalOf: net.refusalOf },
  };
}

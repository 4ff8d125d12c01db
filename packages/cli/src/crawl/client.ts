/**
 * The engine's crawl client as the network commands (`check`, `audit`, `batch`) and the MCP tools use it: robotskit's
 * User-Agent, the crawler `--ua` names, `--timeout`, and the network (the CLI's transport, or the service's guarded
 * fetch under `serve`). One fetch per origin, its answer cached, is the client's own doing.
 */

import { createRobotsClient, type RobotsClient, type RobotsClientOptions } from 'robotskit/fetch';
import type { UaCrawler } from '../options/ua.js';
import { retrievalOptions } from '../transport/retrieval.js';
import { cliNetwork, type Network } from './network.js';

/** What a command may set of the client besides the crawler, the timeout and the User-Agent. */
type CrawlClientExtras = Partial<
  Pick<RobotsClientOptions, 'fetch' | 'maxConcurrentFetches' | 'maxOrigins' | 'store' | 'onStoreError'>
> & {
  /** The network (default: the CLI's own transport); `fetch` above still overrides its fetch. */
  readonly network?: Network;
};

/** A crawl client deciding for `crawler`, each robots.txt retrieval bounded by `timeoutMs`. */
export function crawlClient(
  crawler: UaCrawler,
  timeoutMs: number,
  version: string,
  extras: CrawlClientExtras = {},
): RobotsClient {
  const { network = cliNetwork(version), ...rest } = extras;
  // The network's User-Agent and FTP client, never the CLI's under the service (its FTP client is not guarded).
  const { userAgent: _own, ftp: _cliFtp, ...retrieval } = retrievalOptions(timeoutMs, version);
  return createRobotsClient({
    userAgent: network.userAgent,
    crawler: crawler.input,
    retrieval: { ...retrieval, ...(network.ftp === undefined ? {} : { ftp: network.ftp }) },
    fetch: network.fetch,
    ...rest,
  });
}

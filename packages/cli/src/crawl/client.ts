/**
 * The engine's crawl client as the network commands (`check`, `audit`, `batch`) use it: robotskit's User-Agent, the
 * crawler `--ua` names, `--timeout`, and the CLI's transport. One fetch per origin, its answer cached, is the
 * client's own doing.
 */

import { createRobotsClient, type RobotsClient, type RobotsClientOptions } from 'robotskit/fetch';
import type { UaCrawler } from '../options/ua.js';
import { robotsRequest } from '../transport/fetch.js';
import { retrievalOptions } from '../transport/retrieval.js';

/** What a command may set of the client besides the crawler, the timeout and the User-Agent. */
type CrawlClientExtras = Partial<
  Pick<RobotsClientOptions, 'fetch' | 'maxConcurrentFetches' | 'maxOrigins' | 'store' | 'onStoreError'>
>;

/** A crawl client deciding for `crawler`, each robots.txt retrieval bounded by `timeoutMs`. */
export function crawlClient(
  crawler: UaCrawler,
  timeoutMs: number,
  version: string,
  extras: CrawlClientExtras = {},
): RobotsClient {
  const { userAgent, ...retrieval } = retrievalOptions(timeoutMs, version);
  return createRobotsClient({ userAgent, crawler: crawler.input, retrieval, fetch: robotsRequest, ...extras });
}

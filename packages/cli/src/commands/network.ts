/**
 * Registers the commands that fetch: `check`, `batch` and `audit` (one line in `main.ts`).
 */

import type { Command } from 'commander';
import type { Io } from '../io.js';
import { type AuditOptions, runAudit } from './audit.js';
import { type BatchCommandOptions, runBatchCommand } from './batch.js';
import { type CheckOptions, runCheck } from './check.js';

/** Adds `check`, `batch` and `audit` to the program; each action stores its exit code in `result`. */
export function registerNetworkCommands(cmd: Command, io: Io, result: { code: number }, version: string): void {
  cmd
    .command('check')
    .description(
      'fetch the robots.txt that governs each URL and say whether the crawler may fetch it, and why (exit 0 all allowed, 1 one blocked, 2 error or robots.txt unreachable)',
    )
    .argument('<url...>', 'page URLs (any mix of sites)')
    .option('--ua <crawler>', 'a crawler of the catalogue (Googlebot-Image) or product token(s), comma-separated')
    .option('--json', 'print a JSON array, one object per URL')
    .option('--timeout <seconds>', 'give up on a robots.txt after this many seconds', '10')
    .action(async (urls: string[], options: CheckOptions) => {
      result.code = await runCheck(io, urls, options, version);
    });

  cmd
    .command('batch')
    .description(
      'check many URLs (one per line, any mix of sites): NDJSON out in input order, one robots.txt fetch per origin',
    )
    .argument('[file]', 'file of URLs, or - (the default) for standard input')
    .option('--ua <crawler>', 'a crawler of the catalogue (Googlebot-Image) or product token(s), comma-separated')
    .option('--concurrency <n>', 'robots.txt fetches at once over all sites (one per site at most)', '32')
    .option('--window <n>', 'URLs in flight or waiting to be written, at most (bounds memory)', '4096')
    .option('--per-origin <n>', 'URLs of one site in flight, at most', '512')
    .option('--from-line <n>', 'skip input lines before this one (to resume: the last index written + 1)', '1')
    .option('--timeout <seconds>', 'give up on a robots.txt after this many seconds', '10')
    .option(
      '--cache <url>',
      'share robots.txt with other processes through redis://host:port/db or postgres://… (needs robotskit-stores)',
    )
    .action(async (file: string | undefined, options: BatchCommandOptions) => {
      result.code = await runBatchCommand(io, file, options, version);
    });

  cmd
    .command('audit')
    .description(
      'robots.txt, X-Robots-Tag and robots meta tags together: can the page be crawled, indexed, its links followed, and why (exit 0 crawlable and indexable, 1 not, 2 error)',
    )
    .argument('<url>', 'the page (http or https)')
    .option('--ua <crawler>', 'a crawler of the catalogue (Googlebot-Image) or product token(s), comma-separated')
    .option('--json', 'print JSON')
    .option('--timeout <seconds>', 'give up on the robots.txt or the page after this many seconds', '10')
    .action(async (url: string, options: AuditOptions) => {
      result.code = await runAudit(io, url, options, version);
    });
}

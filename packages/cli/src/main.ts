/**
 * The `robotskit` command. Thin: argument parsing with commander, reading inputs, calling the engine, printing.
 * Exit codes: 0 allowed / clean, 1 disallowed / issues found, 2 usage or I/O error.
 */

import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { AuditOptions } from './commands/audit.js';
import type { BatchCommandOptions } from './commands/batch.js';
import type { CheckOptions } from './commands/check.js';
import type { DiffOptions } from './commands/diff.js';
import type { FormatOptions } from './commands/format.js';
import type { GenerateOptions } from './commands/generate.js';
import type { LintCommandOptions } from './commands/lint.js';
import type { ServeCliOptions } from './commands/serve.js';
import type { SitemapsCommandOptions } from './commands/sitemaps.js';
import type { WorkerCliOptions } from './commands/worker.js';
import { CliError, type Io, processIo } from './io.js';
import { BATCH_ORDERS, DEFAULT_CRAWLER, LINT_FORMATS, SEVERITIES, SITEMAP_SCOPES, UA_HELP } from './options/choices.js';

// Each command's module (and through it the engine, undici, the sitemap reader or the server) is imported when that
// command runs, so `--help` and one command load only what they use.
const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

/** `lint --json` is `--format json`; with another `--format` it is a contradiction, said so. */
function lintFormat(options: LintCommandOptions & { json?: boolean }): LintCommandOptions {
  const { json, ...rest } = options;
  if (json !== true) return rest;
  if (rest.format !== 'text' && rest.format !== 'json') {
    throw new CliError(`--json and --format ${rest.format} ask for two formats: give one`);
  }
  return { ...rest, format: 'json' };
}

/** Builds the program; each action stores its exit code in `result`. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the command table, one declaration per command and option, read top to bottom like the --help it makes
function program(io: Io, result: { code: number }): Command {
  const cmd = new Command('robotskit')
    .description('robots.txt exactly as Google reads it: test, explain, lint and check URLs')
    .version(version, '-V, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // commander's own errors (unknown option, missing argument…) start with `error: `; ours with `robotskit: `.
      outputError: (s, write) => write(`robotskit: ${s.replace(/^error: /, '')}`),
    });

  cmd
    .command('test')
    .description(
      'decide one URL for one crawler (exit 0 allowed, 1 disallowed, 2 error), like Google\u2019s runner; ' +
        'it says why only on a terminal (piped, the exit status is the answer) or with --json',
    )
    .argument('<robots-file>', 'robots.txt file, or - for standard input')
    .argument('<user-agent>', 'the crawler\u2019s product token, e.g. Googlebot')
    .argument('<url>', 'the URL to check, percent-encoded')
    .option('--json', 'print the verdict as JSON (as explain --json), also when piped')
    .action(async (file: string, ua: string, url: string, options: { json?: boolean }) => {
      const { runTest } = await import('./commands/test.js');
      result.code = await runTest(io, file, ua, url, options);
    });

  cmd
    .command('explain')
    .description('explain the verdict for a URL: which groups applied and which line decided')
    .argument('<robots-file>', 'robots.txt file, or - for standard input')
    .argument('<url>', 'the URL to check, percent-encoded')
    .option('--ua <crawler>', UA_HELP, DEFAULT_CRAWLER)
    .option('--json', 'print JSON')
    .action(async (file: string, url: string, options: { ua: string; json?: boolean }) => {
      const { runExplain } = await import('./commands/explain.js');
      result.code = await runExplain(io, file, url, options);
    });

  cmd
    .command('lint')
    .description(
      'report what Google\u2019s parser cannot use, what it reads differently than meant, and useful facts, per file (exit 0 clean, 1 problems at or above --severity, 2 error)',
    )
    .argument(
      '<robots...>',
      'robots.txt files, http(s) URLs (of the file or any page of the site), or - for standard input',
    )
    .addOption(new Option('--format <format>', 'output format').choices(LINT_FORMATS).default('text'))
    .option('--json', 'print JSON (short for --format json)')
    .addOption(
      new Option('--severity <level>', 'lowest severity that makes the exit status 1')
        .choices(SEVERITIES)
        .default('error'),
    )
    .option('--timeout <seconds>', 'for a URL: give up after this many seconds', '10')
    .action(async (targets: string[], options: LintCommandOptions & { json?: boolean }) => {
      const { runLint } = await import('./commands/lint.js');
      result.code = await runLint(io, targets, lintFormat(options), version);
    });

  cmd
    .command('check')
    .description(
      'fetch the robots.txt that governs each URL and say whether the crawler may fetch it, and why (exit 0 all allowed, 1 one blocked, an unreachable robots.txt included as Google blocks its site, 2 usage error)',
    )
    .argument('<url...>', 'page URLs (any mix of sites)')
    .option('--ua <crawler>', UA_HELP, DEFAULT_CRAWLER)
    .option('--json', 'print a JSON array, one object per URL')
    .option('--timeout <seconds>', 'give up on a robots.txt after this many seconds', '10')
    .action(async (urls: string[], options: CheckOptions) => {
      const { runCheck } = await import('./commands/check.js');
      result.code = await runCheck(io, urls, options, version);
    });

  cmd
    .command('batch')
    .description(
      'check many URLs (one per line, any mix of sites): NDJSON out in input order (or as completed), one robots.txt fetch per origin',
    )
    .argument('[file]', 'file of URLs, or - (the default) for standard input')
    .option('--ua <crawler>', UA_HELP, DEFAULT_CRAWLER)
    .option('--json', 'accepted for uniformity: the output is always NDJSON')
    .option('--concurrency <n>', 'robots.txt fetches at once over all sites (one per site at most)', '32')
    .option('--window <n>', 'URLs in flight or waiting to be written, at most (bounds memory)', '4096')
    .option('--per-origin <n>', 'URLs of one site in flight, at most', '512')
    .addOption(
      new Option(
        '--order <order>',
        'input: records in input order; completion: each as soon as it is complete (a slow site holds back only its own)',
      )
        .choices(BATCH_ORDERS)
        .default('input'),
    )
    .option(
      '--from-line <n>',
      'skip input lines before this one (to resume: the line the interruption message gives)',
      '1',
    )
    .option('--timeout <seconds>', 'give up on a robots.txt after this many seconds', '10')
    .option(
      '--cache <url>',
      'share robots.txt with other processes through redis://host:port/db or postgres://… (needs robotskit-stores)',
    )
    .action(async (file: string | undefined, options: BatchCommandOptions) => {
      const { runBatchCommand } = await import('./commands/batch.js');
      result.code = await runBatchCommand(io, file, options, version);
    });

  cmd
    .command('audit')
    .description(
      'robots.txt, X-Robots-Tag and robots meta tags together: can the page be crawled, indexed, its links followed, and why (exit 0 crawlable and indexable, 1 not, 2 error)',
    )
    .argument('<url>', 'the page (http or https)')
    .option('--ua <crawler>', UA_HELP, DEFAULT_CRAWLER)
    .option('--json', 'print JSON')
    .option('--timeout <seconds>', 'give up on the robots.txt or the page after this many seconds', '10')
    .action(async (url: string, options: AuditOptions) => {
      const { runAudit } = await import('./commands/audit.js');
      result.code = await runAudit(io, url, options, version);
    });

  cmd
    .command('diff')
    .description(
      'what an edit changes in meaning: for each crawler, the exact paths decided differently, with examples and the deciding lines (exit 0 no change in meaning, 1 changed, 2 error)',
    )
    .argument('<old>', 'the robots.txt before, or - for standard input')
    .argument('<new>', 'the robots.txt after, or - for standard input')
    .option('--ua <crawlers>', 'crawlers of the catalogue or product tokens, comma-separated; * for any other crawler')
    .option('--json', 'print JSON')
    .action(async (oldFile: string, newFile: string, options: DiffOptions) => {
      const { runDiff } = await import('./commands/diff.js');
      result.code = await runDiff(io, oldFile, newFile, options);
    });

  cmd
    .command('format')
    .description(
      'print the robots.txt in a canonical layout that decides every URL as before (--check: exit 1 when it would change, 0 when not, 2 error)',
    )
    .argument('<robots-file>', 'robots.txt file, or - for standard input')
    .option('--check', 'only say whether formatting would change the file')
    .action(async (file: string, options: FormatOptions) => {
      const { runFormat } = await import('./commands/format.js');
      result.code = await runFormat(io, file, options);
    });

  cmd
    .command('generate')
    .description(
      'write a robots.txt from a policy (JSON or YAML: groups of crawlers or categories with allow/disallow paths, sitemaps), verified against it (--check: exit 1 when a robots.txt decides otherwise, 0 when not, 2 error)',
    )
    .argument('<policy-file>', 'policy file (.json, else YAML), or - for standard input')
    .option('--check <robots-file>', 'only say whether this robots.txt decides every URL as the policy says')
    .action(async (file: string, options: GenerateOptions) => {
      const { runGenerate } = await import('./commands/generate.js');
      result.code = await runGenerate(io, file, options);
    });

  cmd
    .command('sitemaps')
    .description(
      'the sitemaps a site\u2019s robots.txt lists, as a tree with URL counts and problems; --urls streams their page URLs (exit 0 clean, 1 problems found, 2 error)',
    )
    .argument('<url>', 'any URL of the site (its robots.txt is read), or with --sitemap a sitemap itself')
    .option('--urls', 'print the page URLs, one per line (NDJSON with --json), problems on standard error')
    .option('--limit <n>', 'stop after this many page URLs')
    .option('--json', 'print JSON: one document of reports, or NDJSON entries with --urls')
    .option('--sitemap', '<url> is a sitemap or sitemap index, not a site')
    .option('--max-sitemaps <n>', 'read at most this many sitemap files (default 1000)')
    .addOption(
      new Option('--scope <scope>', 'which URLs a sitemap may list (sitemaps.org location rules, its origin, any)')
        .choices(SITEMAP_SCOPES)
        .default('protocol'),
    )
    .option('--timeout <seconds>', 'give up on a file (the robots.txt too) after this many seconds (default 120)')
    .option('--max-time <seconds>', 'stop the whole walk after this many seconds (default 300)')
    .action(async (url: string, options: SitemapsCommandOptions) => {
      const { runSitemaps } = await import('./commands/sitemaps.js');
      result.code = await runSitemaps(io, url, options);
    });

  cmd
    .command('serve')
    .description('run the report service: JSON API, storage and fetch workers (SQLite in ./data/ by default)')
    .option('--port <port>', 'TCP port', '8787')
    .option('--host <host>', 'address to listen on (other than loopback needs --token)', '127.0.0.1')
    .option('--db <sqlite-file>', 'SQLite database file (default data/robotskit.sqlite)')
    .option('--database-url <url>', 'PostgreSQL instead: postgres://user:password@host:5432/db (or DATABASE_URL)')
    .option('--token <secret>', 'require Authorization: Bearer <secret> for changes (or ROBOTSKIT_TOKEN)')
    .option('--workers <n>', 'fetch workers in this process (0: API only)', '1')
    .option('--retention-days <days>', 'history kept, at least 30 days', '30')
    .option('--allow-private-addresses', 'let fetches reach loopback and private networks (off: SSRF protection)')
    .option(
      '--allowed-hosts <names>',
      'host names the service answers to besides IP addresses and localhost, comma-separated (*.example.com, * for any)',
    )
    .option(
      '--cache <url>',
      "share POST /api/decide's robots.txt with other services: redis://host:port/db or postgres://… (robotskit-stores)",
    )
    .action(async (options: ServeCliOptions) => {
      const { runServe } = await import('./commands/serve.js');
      result.code = await runServe(io, options);
    });

  cmd
    .command('worker')
    .description('run fetch workers only; any number of them share one PostgreSQL database')
    .option('--database-url <url>', 'PostgreSQL: postgres://user:password@host:5432/db (or DATABASE_URL); this or --db')
    .option('--db <sqlite-file>', 'the SQLite file serve uses instead (same machine only)')
    .option('--workers <n>', 'workers in this process', '1')
    .option('--retention-days <days>', 'history kept, at least 30 days', '30')
    .option('--allow-private-addresses', 'let fetches reach loopback and private networks (off: SSRF protection)')
    .action(async (options: WorkerCliOptions) => {
      const { runWorker } = await import('./commands/worker.js');
      result.code = await runWorker(io, options);
    });

  return cmd;
}

/** Runs the command line `argv` (without node and script); returns the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const result = { code: 0 };
  const cmd = program(io, result);
  if (argv.length === 0) {
    io.stdout.write(cmd.helpInformation());
    return 0;
  }
  try {
    await cmd.parseAsync([...argv], { from: 'user' });
    return result.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are not errors; commander has already printed them.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return 0;
      if (error.code === 'commander.help') return 0;
      return 2;
    }
    if (error instanceof CliError) {
      io.stderr.write(`robotskit: ${error.message}\n`);
      return error.exitCode;
    }
    // A bug, not a user mistake: say so plainly, with the details, and exit 2.
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(`robotskit: internal error (please report it): ${detail}\n`);
    return 2;
  }
}

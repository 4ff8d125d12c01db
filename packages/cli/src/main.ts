/**
 * The `robotskit` command. Thin: argument parsing with commander, reading inputs, calling the engine, printing.
 * Exit codes: 0 allowed / clean, 1 disallowed / issues found, 2 usage or I/O error.
 */

import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { registerDiffCommand } from './commands/diff.js';
import { runExplain } from './commands/explain.js';
import { registerFormatCommand } from './commands/format.js';
import { LINT_FORMATS, type LintCommandOptions, runLint, SEVERITIES } from './commands/lint.js';
import { registerNetworkCommands } from './commands/network.js';
import { runServe, runWorker, type ServeCliOptions, type WorkerCliOptions } from './commands/serve.js';
import { runSitemaps, SITEMAP_SCOPES, type SitemapsCommandOptions } from './commands/sitemaps.js';
import { runTest } from './commands/test.js';
import { CliError, type Io, processIo } from './io.js';

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string })
  .version;

/** Builds the program; each action stores its exit code in `result`. */
function program(io: Io, result: { code: number }): Command {
  const cmd = new Command('robotskit')
    .description('robots.txt exactly as Google reads it: test, explain, lint and check URLs')
    .version(version, '-V, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
    });

  cmd
    .command('test')
    .description('decide one URL for one crawler (exit 0 allowed, 1 disallowed, 2 error), like Google\u2019s runner')
    .argument('<robots-file>', 'robots.txt file, or - for standard input')
    .argument('<user-agent>', 'the crawler\u2019s product token, e.g. Googlebot')
    .argument('<url>', 'the URL to check, percent-encoded')
    .action(async (file: string, ua: string, url: string) => {
      result.code = await runTest(io, file, ua, url);
    });

  cmd
    .command('explain')
    .description('explain the verdict for a URL: which groups applied and which line decided')
    .argument('<robots-file>', 'robots.txt file, or - for standard input')
    .argument('<url>', 'the URL to check, percent-encoded')
    .requiredOption('--ua <tokens>', 'crawler product token(s), comma-separated (their groups are pooled)')
    .option('--json', 'print JSON')
    .action(async (file: string, url: string, options: { ua: string; json?: boolean }) => {
      result.code = await runExplain(io, file, url, options);
    });

  cmd
    .command('lint')
    .description(
      'report what Google\u2019s parser cannot use, what it reads differently than meant, and useful facts (exit 0 clean, 1 problems at or above --severity, 2 error)',
    )
    .argument('<robots>', 'robots.txt file, http(s) URL, or - for standard input')
    .addOption(new Option('--format <format>', 'output format').choices(LINT_FORMATS).default('text'))
    .addOption(
      new Option('--severity <level>', 'lowest severity that makes the exit status 1')
        .choices(SEVERITIES)
        .default('error'),
    )
    .option('--timeout <seconds>', 'for a URL: give up after this many seconds', '10')
    .action(async (target: string, options: LintCommandOptions) => {
      result.code = await runLint(io, target, options, version);
    });

  registerNetworkCommands(cmd, io, result, version);
  registerDiffCommand(cmd, io, result);
  registerFormatCommand(cmd, io, result);

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
    .action(async (url: string, options: SitemapsCommandOptions) => {
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
    .action(async (options: ServeCliOptions) => {
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

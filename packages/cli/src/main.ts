/**
 * The `robotskit` command. Thin: argument parsing with commander, reading inputs, calling the engine, printing.
 * Exit codes: 0 allowed / clean, 1 disallowed / issues found, 2 usage or I/O error (each command's help says its own);
 * bare `robotskit` prints the help on standard error and exits 2, as a command line missing its command is a usage
 * error (a script that forgot its arguments must not read as success).
 */

import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { AuditOptions } from './commands/audit.js';
import type { BatchCommandOptions } from './commands/batch.js';
import type { CheckOptions } from './commands/check.js';
import type { CrawlersOptions, CrawlersUpdateOptions } from './commands/crawlers.js';
import type { DiffOptions } from './commands/diff.js';
import type { FormatOptions } from './commands/format.js';
import type { GenerateOptions } from './commands/generate.js';
import type { LintCommandOptions } from './commands/lint.js';
import type { LogsOptions } from './commands/logs.js';
import type { McpOptions } from './commands/mcp.js';
import type { ServeCliOptions } from './commands/serve.js';
import type { SitemapsCommandOptions } from './commands/sitemaps.js';
import type { WorkerCliOptions } from './commands/worker.js';
import { CliError, type Io, processIo } from './io.js';
import {
  BATCH_ORDERS,
  DEFAULT_CRAWLER,
  LINT_FORMATS,
  LOG_FORMATS,
  SEVERITIES,
  SITEMAP_SCOPES,
  UA_HELP,
} from './options/choices.js';

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

/** The `Exit status:` section every command's help ends with. */
function exits(command: Command, lines: readonly string[]): Command {
  return command.addHelpText('after', `\nExit status:\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
}

/** What `--quiet` says, for every command that has it. */
const QUIET_HELP =
  'print nothing on standard output: the exit status is the answer (errors still go to standard error)';

/** The Io of a command run with `--quiet`: standard output dropped. */
function quietIo(io: Io, options: { quiet?: boolean }): Io {
  if (options.quiet !== true) return io;
  return { ...io, stdout: { write: () => true, isTTY: false } };
}

/** Collects a repeatable option's values. */
function collect(value: string, previous: readonly string[]): string[] {
  return [...previous, value];
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
  exits(cmd, [
    '0  allowed / clean / no change',
    '1  disallowed / problems found / changed',
    '2  usage or I/O error (also bare robotskit, without a command)',
    "each command's --help says what its own statuses mean",
  ]);

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
    .option('-q, --quiet', QUIET_HELP)
    .action(async (file: string, ua: string, url: string, options: { json?: boolean; quiet?: boolean }) => {
      const { runTest } = await import('./commands/test.js');
      result.code = await runTest(quietIo(io, options), file, ua, url, options);
    });
  exits(cmd.commands.at(-1)!, ['0  allowed', '1  disallowed', '2  usage or I/O error (not a URL, no such file)']);

  cmd
    .command('explain')
    .description('explain the verdict for a URL: which groups applied and which line decided')
    .argument('<robots-file>', 'robots.txt file, or - for standard input')
    .argument('[url]', 'the URL to check, percent-encoded')
    .option('--ua <crawler>', UA_HELP, DEFAULT_CRAWLER)
    .option('--json', 'print JSON')
    .option('-q, --quiet', QUIET_HELP)
    .action(async (file: string, url: string | undefined, options: { ua: string; json?: boolean; quiet?: boolean }) => {
      const { runExplain } = await import('./commands/explain.js');
      result.code = await runExplain(quietIo(io, options), file, url, options);
    });
  exits(cmd.commands.at(-1)!, ['0  allowed', '1  disallowed', '2  usage or I/O error (not a URL, no such file)']);

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
    .option('--fix', 'write the fixes the report shows into the files, then report what is left')
    .option('-q, --quiet', QUIET_HELP)
    .action(async (targets: string[], options: LintCommandOptions & { json?: boolean; quiet?: boolean }) => {
      const { runLint } = await import('./commands/lint.js');
      result.code = await runLint(quietIo(io, options), targets, lintFormat(options), version);
    });
  exits(cmd.commands.at(-1)!, [
    '0  nothing at or above --severity (default: error)',
    '1  problems at or above --severity',
    '2  usage or I/O error (a file or URL that could not be read)',
  ]);

  cmd
    .command('check')
    .description(
      'fetch the robots.txt that governs each URL and say whether the crawler may fetch it, and why (exit 0 all allowed, 1 one blocked, an unreachable robots.txt included as Google blocks its site, 2 usage error)',
    )
    .argument('<url...>', 'page URLs (any mix of sites)')
    .option('--ua <crawler>', UA_HELP, DEFAULT_CRAWLER)
    .option('--json', 'print a JSON array, one object per URL')
    .option('--timeout <seconds>', 'give up on a robots.txt after this many seconds', '10')
    .option('-q, --quiet', QUIET_HELP)
    .action(async (urls: string[], options: CheckOptions & { quiet?: boolean }) => {
      const { runCheck } = await import('./commands/check.js');
      result.code = await runCheck(quietIo(io, options), urls, options, version);
    });
  exits(cmd.commands.at(-1)!, [
    '0  every URL allowed',
    '1  at least one blocked (an unreachable robots.txt blocks its site, as Google does)',
    '2  usage error',
  ]);

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
    .option('-q, --quiet', 'no progress line and no summary on standard error (the records are the output)')
    .action(async (file: string | undefined, options: BatchCommandOptions) => {
      const { runBatchCommand } = await import('./commands/batch.js');
      result.code = await runBatchCommand(io, file, options, version);
    });
  exits(cmd.commands.at(-1)!, [
    '0  every line has its record (whatever the verdicts; lines that are not URLs get error records)',
    '2  usage or I/O error',
    '130  interrupted by Ctrl-C (143: SIGTERM); standard error says which --from-line resumes',
  ]);

  cmd
    .command('audit')
    .description(
      'robots.txt, X-Robots-Tag and robots meta tags together: can the page be crawled, indexed, its links followed, and why; and the AI usage preferences of robots.txt and the Content-Usage header, combined (exit 0 crawlable and indexable, 1 not, 2 error)',
    )
    .argument('<url>', 'the page (http or https)')
    .option('--ua <crawler>', UA_HELP, DEFAULT_CRAWLER)
    .option(
      '--as <crawlers>',
      'fetch robots.txt and the page as each of these crawlers (their real User-Agent), comma-separated, and report where the edge disagrees with the file: a refusal, a challenge, another or a cached older robots.txt (exit 1 when it does)',
    )
    .option('--json', 'print JSON')
    .option('--timeout <seconds>', 'give up on the robots.txt or the page after this many seconds', '10')
    .option('-q, --quiet', QUIET_HELP)
    .action(async (url: string, options: AuditOptions & { quiet?: boolean }, command: Command) => {
      const { runAudit } = await import('./commands/audit.js');
      const uaGiven = command.getOptionValueSource('ua') === 'cli';
      result.code = await runAudit(quietIo(io, options), url, { ...options, uaGiven }, version);
    });
  exits(cmd.commands.at(-1)!, [
    '0  crawlable and indexable (with --as: the edge agrees with robots.txt for every crawler)',
    '1  not (blocked, noindex, or the site unreachable; with --as: the edge refuses or challenges a crawler the file allows, or serves it another robots.txt)',
    '2  usage error',
  ]);

  cmd
    .command('diff')
    .description(
      'what an edit changes in meaning: for each crawler, the exact paths decided differently and the AI usage preferences changed, with examples and the deciding lines (exit 0 no change in meaning, proven; 1 changed; 2 error; 3 cut short by its bounds before finding a change or proving none)',
    )
    .argument('<old>', 'the robots.txt before, or - for standard input')
    .argument('<new>', 'the robots.txt after, or - for standard input')
    .option('--ua <crawlers>', 'crawlers of the catalogue or product tokens, comma-separated; * for any other crawler')
    .option('--json', 'print JSON')
    .option('--max-states <n>', 'states to explore per crawler before the comparison stops, cut short (default 200000)')
    .option('-q, --quiet', QUIET_HELP)
    .action(async (oldFile: string, newFile: string, options: DiffOptions & { quiet?: boolean }) => {
      const { runDiff } = await import('./commands/diff.js');
      result.code = await runDiff(quietIo(io, options), oldFile, newFile, options);
    });
  exits(cmd.commands.at(-1)!, [
    '0  no change in meaning (proven)',
    '1  changed (a path decided differently, or an AI usage preference)',
    '2  usage or I/O error',
    '3  cut short by its bounds before finding a change or proving none',
  ]);

  cmd
    .command('format')
    .description(
      'print the robots.txt in a canonical layout that decides every URL as before, byte for byte where it does not reformat (exit 0 done, --check: 1 when it would change, 0 when not; 2 error; 3 not proven to mean the same, nothing printed)',
    )
    .argument('<robots-file>', 'robots.txt file, or - for standard input')
    .option('--check', 'only say whether formatting would change the file')
    .option('--write', 'rewrite the file in place (not standard input)')
    .option('--json', 'print JSON: { file, proven, reason, changed, removedLines, text, base64 }')
    .option('-q, --quiet', QUIET_HELP)
    .action(async (file: string, options: FormatOptions & { quiet?: boolean }) => {
      const { runFormat } = await import('./commands/format.js');
      result.code = await runFormat(quietIo(io, options), file, options);
    });
  exits(cmd.commands.at(-1)!, [
    '0  printed or written (with --check: already formatted)',
    '1  with --check: formatting would change the file',
    '2  usage or I/O error',
    '3  not proven to mean the same: nothing printed or written',
  ]);

  cmd
    .command('generate')
    .description(
      'write a robots.txt from a policy (JSON or YAML: groups of crawlers or categories with allow/disallow paths, sitemaps), verified against it (--check: exit 1 when a robots.txt decides otherwise, 0 when not, 3 not proven either way, 2 error)',
    )
    .argument('<policy-file>', 'policy file (.json, else YAML), or - for standard input')
    .option('--check <robots-file>', 'only say whether this robots.txt decides every URL as the policy says')
    .option('--json', 'print JSON: { verified, text, check }')
    .option('-q, --quiet', QUIET_HELP)
    .action(async (file: string, options: GenerateOptions & { quiet?: boolean }) => {
      const { runGenerate } = await import('./commands/generate.js');
      result.code = await runGenerate(quietIo(io, options), file, options);
    });
  exits(cmd.commands.at(-1)!, [
    '0  written and verified (with --check: the file follows the policy)',
    '1  the output is wrong for the policy, nothing printed (with --check: the file decides otherwise)',
    '2  usage, I/O or policy error',
    '3  cut short by the comparison bounds before anything was proven, nothing printed',
  ]);

  const crawlers = cmd
    .command('crawlers')
    .description(
      'list the crawler catalogue: name, purpose, operator, robots.txt tokens and the source of the purpose (exit 0 listed, 2 error); crawlers update merges a newer ai.robots.txt list',
    )
    .option(
      '--purpose <purpose>',
      'only crawlers with this purpose (search-engine, ai-training, ai-search, ai-assistant, control-token, seo-tool, archiver, preview, scraping-tool, other)',
    )
    .option(
      '--json',
      'print JSON: { aiRobotsTxt, crawlers: [{ name, purpose, operator, tokens, source, date, blocking, … }] }',
    )
    .action(async (options: CrawlersOptions) => {
      const { runCrawlers } = await import('./commands/crawlers.js');
      result.code = await runCrawlers(io, options);
    });
  exits(crawlers, ['0  listed', '2  usage or I/O error (an unknown purpose, a damaged merged list)']);
  crawlers
    .command('update')
    .description(
      'merge a newer ai.robots.txt robots.json (a local file, no network) into the list this command, generate and crawlers read, and say what changed: crawlers added, removed, fields changed (exit 0 merged, 2 error)',
    )
    .requiredOption('--from <robots.json>', 'the ai.robots.txt robots.json file, or - for standard input')
    .option('--json', 'print JSON: { file, updated, crawlers, added, removed, changed, unknownFields }')
    .action(async (options: CrawlersUpdateOptions) => {
      const { runCrawlersUpdate } = await import('./commands/crawlers.js');
      // commander gives `--json` to `crawlers` itself (which has one too) wherever it is written.
      const parent = crawlers.opts<CrawlersOptions>();
      if (parent.purpose !== undefined) throw new CliError('--purpose filters the list: crawlers update takes none');
      const json = options.json === true || parent.json === true;
      result.code = await runCrawlersUpdate(io, { ...options, json });
    });
  exits(crawlers.commands.at(-1)!, [
    '0  merged (written to the user data file, see the README)',
    '2  usage or I/O error (missing file, not JSON, not the ai.robots.txt shape)',
  ]);

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
    .option('-q, --quiet', QUIET_HELP)
    .action(async (url: string, options: SitemapsCommandOptions & { quiet?: boolean }) => {
      const { runSitemaps } = await import('./commands/sitemaps.js');
      result.code = await runSitemaps(quietIo(io, options), url, options);
    });
  exits(cmd.commands.at(-1)!, ['0  clean', '1  problems found', '2  usage error']);

  cmd
    .command('mcp')
    .description(
      'an MCP server on standard input and output for agents: tools check (may this crawler fetch these URLs), explain, lint, diff and audit, answering as the commands\u2019 --json (serve offers the same at /mcp)',
    )
    .option('--timeout <seconds>', 'give up on a robots.txt or a page after this many seconds', '10')
    .action(async (options: McpOptions) => {
      const { runMcp } = await import('./commands/mcp.js');
      result.code = await runMcp(io, options, version);
    });
  exits(cmd.commands.at(-1)!, ['0  its input ended, or stopped by SIGINT or SIGTERM', '2  usage error']);

  cmd
    .command('logs')
    .description(
      'what crawlers did: access logs judged against the robots.txt in force at each request, per crawler, with every violation and whether each crawler is who it says (exit 0 no violation, 1 violations, 2 error)',
    )
    .argument(
      '<logs...>',
      'access logs (Combined/Common Log Format or JSON lines, gzip or not), or - for standard input; oldest first',
    )
    .option(
      '--robots <file-or-dir>',
      "the robots.txt, or a folder of dated versions named by when each came into force (2026-11-01T00:00:00Z.txt, 2026-11-01.txt), or a folder per host (a.example/robots.txt or a.example/<dated versions>) judging each request by its host's",
    )
    .option(
      '--service <url>',
      "judge by the robots.txt history a report service (robotskit serve) stored for --property (without it: the property of each request's host), outages as Google treats them",
    )
    .option('--property <id-or-url>', "the service's property: its id, its name (example.com), or a URL of its host")
    .option('--token <secret>', "the service's token (or ROBOTSKIT_TOKEN)")
    .option(
      '--timeout <seconds>',
      'give up on one HTTP request (--service, --ranges URL) after this many seconds',
      '30',
    )
    .addOption(
      new Option('--log-format <format>', 'how lines are written (auto: JSON when a line starts with {)')
        .choices(LOG_FORMATS)
        .default('auto'),
    )
    .addOption(
      new Option(
        '--host-field <where>',
        "Common/Combined lines carry the request's host (nginx $host, Apache %v) as their first or last field",
      ).choices(['first', 'last']),
    )
    .option(
      '--field <key=name>',
      'JSON lines: the field holding time, ip, method, target, status, userAgent, request or host (repeatable; names comma-separated, dots reach into objects)',
      collect,
      [],
    )
    .option(
      '--violations <file>',
      'write every violation as NDJSON to this file (- for standard output; the summary then goes to standard error)',
    )
    .option('--json', 'print the summary as JSON')
    .option('--verify', "verify crawlers' addresses by reverse DNS with the system's resolver")
    .option('--dns-server <host:port>', 'verify by reverse DNS asking this server (implies --verify)')
    .option('--dns-timeout <seconds>', 'give up on one DNS question after this many seconds', '2')
    .option('--dns-ttl <seconds>', 'keep a verification this long', '3600')
    .option(
      '--ranges <file>',
      "an operator's published address ranges, a file or an http(s) URL kept in the user cache (Google's JSON format or the JAFAR draft's: googlebot.json, gptbot.json…), or NAME=FILE|URL for a crawler of the catalogue (repeatable)",
      collect,
      [],
    )
    .option(
      '--max-addresses <n>',
      'addresses kept and verified per crawler (requests from further ones count as not checked)',
      '256',
    )
    .option('--offline', '--ranges URL: use only the cached copies, never the network')
    .option('-q, --quiet', 'no summary: the exit status (and --violations) is the answer')
    .action(async (files: string[], options: LogsOptions) => {
      const { runLogs } = await import('./commands/logs.js');
      result.code = await runLogs(io, files, options);
    });
  exits(cmd.commands.at(-1)!, [
    '0  no crawler fetched a URL the robots.txt in force disallowed',
    '1  violations found',
    '2  usage or I/O error (an unreadable file, a bad --robots folder or range file, a log with no readable line)',
  ]);

  cmd
    .command('serve')
    .description('run the report service: JSON API, storage and fetch workers (SQLite in ./data/ by default)')
    .option('--port <port>', 'TCP port (default: the PORT environment variable, else 8787)')
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
    .option('--log-dns-server <host:port>', "crawler activity: verify uploaded logs' crawlers asking this DNS server")
    .option(
      '--log-ranges <file>',
      "crawler activity: an operator's published address ranges, as logs --ranges takes them, read again for each upload (repeatable)",
      collect,
      [],
    )
    .action(async (options: ServeCliOptions) => {
      const { runServe } = await import('./commands/serve.js');
      result.code = await runServe(io, options, version);
    });
  exits(cmd.commands.at(-1)!, [
    '0  stopped by Ctrl-C (SIGINT) or SIGTERM',
    '2  usage error, or the service could not start (port in use, database unreachable)',
  ]);

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
  exits(cmd.commands.at(-1)!, [
    '0  stopped by Ctrl-C (SIGINT) or SIGTERM',
    '2  usage error, or the workers could not start (database unreachable)',
  ]);

  return cmd;
}

/** Runs the command line `argv` (without node and script); returns the exit code. */
export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  const result = { code: 0 };
  const cmd = program(io, result);
  if (argv.length === 0) {
    // No command is a usage error: the help goes where errors go, and the status says it.
    cmd.outputHelp({ error: true });
    return 2;
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

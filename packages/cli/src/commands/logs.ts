/**
 * `robotskit logs <file…|-> --robots FILE|DIR` (or `--service URL --property P`: the versions from a report service's
 * history, `../logs/service.ts`): access logs (Combined or Common Log Format, JSON lines; gzip by its
 * magic bytes) read as a stream, each request's crawler identified by the engine from its User-Agent and judged against
 * the robots.txt version in force at its time (`../logs/load-versions.ts` says how a folder's versions are named). A log
 * of several sites (`--robots DIR` with a folder per host, or `--service URL` without `--property`) is judged request by
 * request against its host's robots.txt (the host a line carries: `--host-field first|last` for Common/Combined lines,
 * the JSON `host` field); requests for a host with none known are counted and said, never judged. Prints a
 * summary per crawler (or `--json`), writes every violation as NDJSON with `--violations FILE` (`-`: standard output,
 * the summary then goes to standard error), verifies the crawlers' addresses with `--verify`, `--dns-server` or
 * `--ranges` (files, or URLs kept in the user cache: `../logs/range-cache.ts`; `--offline` reads only the cache). Exit 1 when a crawler fetched a disallowed URL, 0 when none did, 2 on bad input (an unreadable file, a
 * bad option, a log none of whose lines could be read).
 */

import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  DEFAULT_JSON_FIELDS,
  FIELD_KEYS,
  type JsonFields,
  LogAnalysis,
  type LogFormat,
  LogReader,
  type RobotsVersion,
  Verifier,
  type Violation,
} from 'robotskit/logs';
import { CliError, type Io } from '../io.js';
import { dnsResolver } from '../logs/dns.js';
import { logBlocks } from '../logs/input.js';
import { loadRanges } from '../logs/load-ranges.js';
import { type Judges, loadVersions } from '../logs/load-versions.js';
import { userCacheDir } from '../logs/range-cache.js';
import { type LogsReport, summaryText } from '../logs/report.js';
import { loadServiceSites, loadServiceVersions } from '../logs/service.js';
import { integerOption } from '../options/numbers.js';
import { painter, useColor } from '../output/paint.js';

/** Options of `logs`, as commander parsed them. */
export interface LogsOptions {
  readonly robots?: string;
  readonly service?: string;
  readonly token?: string;
  readonly property?: string;
  readonly timeout: string;
  readonly offline?: boolean;
  readonly logFormat: LogFormat;
  /** Where Common/Combined lines carry the request's host. */
  readonly hostField?: 'first' | 'last';
  readonly field: readonly string[];
  readonly violations?: string;
  readonly json?: boolean;
  readonly verify?: boolean;
  readonly dnsServer?: string;
  readonly dnsTimeout: string;
  readonly dnsTtl: string;
  readonly ranges: readonly string[];
  readonly maxAddresses: string;
  readonly quiet?: boolean;
}

/** `--field time=ts --field userAgent=agent` over the default names (a key given replaces its list). */
function jsonFields(specs: readonly string[]): JsonFields {
  const fields: Record<string, readonly string[]> = { ...DEFAULT_JSON_FIELDS };
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const key = spec.slice(0, eq);
    if (eq <= 0 || eq === spec.length - 1 || !(FIELD_KEYS as readonly string[]).includes(key)) {
      throw new CliError(`--field must be KEY=NAME with KEY one of ${FIELD_KEYS.join(', ')} (got '${spec}')`);
    }
    fields[key] = spec.slice(eq + 1).split(',');
  }
  return fields as unknown as JsonFields;
}

function seconds(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0)
    throw new CliError(`--${name} must be a positive number of seconds, not '${text}'`);
  return Math.round(n * 1000);
}

interface Sink {
  write(text: string): Promise<void>;
  close(): Promise<void>;
}

/** Where `--violations` goes: a file (written with backpressure), or standard output for `-`. */
function violationSink(io: Io, path: string | undefined): Sink | null {
  if (path === undefined) return null;
  if (path === '-') return { write: async (t) => void io.stdout.write(t), close: async () => {} };
  const stream: WriteStream = createWriteStream(path);
  let failure: CliError | null = null;
  stream.on('error', (error) => {
    failure ??= new CliError(`cannot write --violations '${path}': ${error.message}`, 2, { cause: error });
  });
  return {
    async write(text) {
      if (failure !== null) throw failure;
      // `once` takes its listeners off again, whichever event comes (one left per wait grew without bound).
      if (!stream.write(text)) await once(stream, 'drain').catch(() => {});
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (failure !== null || stream.destroyed)
          return reject(failure ?? new CliError(`cannot write --violations '${path}'`));
        stream.once('error', () => reject(failure));
        stream.end(() => resolve());
      }),
  };
}

/** The progress line on a terminal's standard error: lines, violations, and a bar when the logs' size is known. */
class Progress {
  private bytes = 0;
  private last = 0;
  private drawn = false;

  constructor(
    private readonly io: Io,
    private readonly enabled: boolean,
    private readonly total: number | null,
  ) {
    this.enabled = enabled && io.stderr.isTTY === true;
  }

  read(count: number): void {
    this.bytes += count;
  }

  show(lines: number, violations: number): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 200) return;
    this.last = now;
    let bar = '';
    if (this.total !== null && this.total > 0) {
      const share = Math.min(1, this.bytes / this.total);
      const filled = Math.round(share * 20);
      bar = `[${'#'.repeat(filled)}${'.'.repeat(20 - filled)}] ${Math.floor(share * 100)}% `;
    }
    this.io.stderr.write(`\r${bar}${lines} lines, ${violations} violation(s)\u001b[K`);
    this.drawn = true;
  }

  clear(): void {
    if (this.drawn) this.io.stderr.write('\r\u001b[K');
  }
}

/** Writes a violation the reader found, with its address's verification. */
async function writeViolation(
  sink: Sink,
  analysis: LogAnalysis,
  verifier: Verifier | null,
  violation: Violation,
): Promise<void> {
  const checked =
    verifier === null
      ? violation
      : {
          ...violation,
          verification: (await verifier.verify(analysis.identityOf(violation.crawler, violation.host), violation.ip))
            .status,
        };
  await sink.write(`${JSON.stringify(checked)}\n`);
}

/** The versions of `--robots`, of `--service` and `--property`, or each host's of `--service` alone. */
async function judgesOf(io: Io, options: LogsOptions, timeoutMs: number): Promise<Judges> {
  if (options.robots !== undefined && options.service !== undefined) {
    throw new CliError('give --robots or --service, not both');
  }
  if (options.service !== undefined) {
    const token = options.token ?? io.env.ROBOTSKIT_TOKEN;
    const source = { url: options.service, token: token || undefined, timeoutMs };
    if (options.property === undefined) {
      const { sites, unfetched } = await loadServiceSites(source);
      if (unfetched.length > 0 && options.quiet !== true) {
        io.stderr.write(
          `robotskit: the report service has not fetched the robots.txt of ${unfetched.join(', ')} yet: their requests are not judged\n`,
        );
      }
      return { sites };
    }
    return { versions: (await loadServiceVersions({ ...source, property: options.property })).versions };
  }
  if (options.property !== undefined) throw new CliError('--property needs --service (the report service to ask)');
  if (options.robots === undefined) {
    throw new CliError(
      'logs needs --robots FILE (one robots.txt), --robots DIR (dated versions, or a folder per host) or --service URL (with --property P for one site)',
    );
  }
  return loadVersions(options.robots);
}

/** Runs `logs`; returns the exit code. */
export async function runLogs(io: Io, files: readonly string[], options: LogsOptions): Promise<number> {
  if (options.robots === undefined && options.service === undefined && options.property === undefined) {
    throw new CliError(
      'logs needs --robots FILE (one robots.txt), --robots DIR (dated versions, or a folder per host) or --service URL (with --property P for one site)',
    );
  }
  if (files.filter((f) => f === '-').length > 1) throw new CliError('standard input (-) can be read only once');
  const fields = jsonFields(options.field);
  const maxAddresses = integerOption('max-addresses', options.maxAddresses, 1, 1_000_000);
  const timeout = seconds('dns-timeout', options.dnsTimeout);
  const ttl = seconds('dns-ttl', options.dnsTtl);
  const httpTimeout = seconds('timeout', options.timeout);
  let totalBytes: number | null = 0;
  for (const file of files) {
    if (file === '-') {
      totalBytes = null;
      continue;
    }
    const info = await stat(file).catch(() => null);
    if (info === null) throw new CliError(`cannot read the log '${file}': no such file`);
    if (info.isDirectory()) throw new CliError(`cannot read the log '${file}': it is a directory`);
    if (totalBytes !== null) totalBytes += info.size;
  }
  const judges = await judgesOf(io, options, httpTimeout);
  const ranges = await loadRanges(options.ranges, {
    dir: userCacheDir(io.env),
    offline: options.offline === true,
    timeoutMs: httpTimeout,
    warn: (message) => void io.stderr.write(`robotskit: ${message}\n`),
  });
  const useDns = options.verify === true || options.dnsServer !== undefined;
  const verifier =
    useDns || ranges.size > 0
      ? new Verifier({
          dns: useDns ? dnsResolver(options.dnsServer, timeout) : null,
          ranges,
          ttl,
          timeout,
          hints: { ranges: ': give them with --ranges', dns: ': give --verify or --dns-server' },
        })
      : null;
  const sink = violationSink(io, options.violations);
  const summaryOut = options.violations === '-' ? io.stderr : io.stdout;
  const analysis = new LogAnalysis({ ...judges, verifier, maxAddresses });
  const reader = new LogReader(analysis, options.logFormat, fields, sink !== null, options.hostField ?? 'none');
  const progress = new Progress(io, options.quiet !== true && options.json !== true, totalBytes);
  for (const file of files) {
    reader.startFile(file);
    for await (const block of logBlocks(io, file, (n) => progress.read(n))) {
      progress.show(reader.lines, reader.violations);
      // The block's lines are read in place, by positions (see logBlocks): no string per line.
      const found = reader.block(block);
      if (sink !== null) for (const violation of found) await writeViolation(sink, analysis, verifier, violation);
    }
  }
  progress.clear();
  await sink?.close();
  const { lines, malformed, violations, examples } = reader;
  if (analysis.requests === 0 && malformed > 0) {
    const first = examples[0]!;
    throw new CliError(
      `no line of the log could be read as ${options.logFormat === 'auto' ? 'a Common/Combined Log Format or JSON' : options.logFormat} line (${first.file}:${first.line}: ${first.reason}); see --log-format and --field`,
    );
  }
  const report: LogsReport = {
    files,
    versions: versionList(judges),
    unknownHosts: judges.sites === undefined ? [] : analysis.unknownHosts(),
    lines,
    requests: analysis.requests,
    otherRequests: analysis.otherRequests,
    malformed: { lines: malformed, examples },
    violations,
    crawlers: await analysis.rows(),
  };
  if (options.json === true) summaryOut.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (options.quiet !== true) {
    summaryOut.write(summaryText(report, painter(useColor(io, summaryOut === io.stderr ? 'stderr' : 'stdout'))));
  }
  if (judges.sites !== undefined && analysis.requests > 0 && options.quiet !== true) {
    const noHost = report.unknownHosts.find((u) => u.host === null)?.requests ?? 0;
    if (noHost === analysis.requests) {
      io.stderr.write(
        `robotskit: no line of the log names its host, so none was judged: give --host-field first|last for Common/Combined lines (the virtual host field), or --field host=NAME for JSON lines\n`,
      );
    }
  }
  return violations > 0 ? 1 : 0;
}

/** The versions judged by, each with its host (null: one robots.txt for the whole log). */
function versionList(judges: Judges): LogsReport['versions'] {
  const list = (host: string | null, versions: readonly RobotsVersion[]) =>
    versions.map((v) => ({
      host,
      label: v.label,
      since: Number.isFinite(v.since) ? new Date(v.since).toISOString() : null,
    }));
  if (judges.sites === undefined) return list(null, judges.versions);
  return [...judges.sites].flatMap(([host, versions]) => list(host, versions));
}

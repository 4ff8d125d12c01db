/**
 * The judging of a log, request by request, into per-crawler aggregates: each request's crawler from its User-Agent
 * (the engine's `identifyCrawler`, cached per string with the row it counted in last), judged by the engine
 * (`RobotsTxt.explain`, `crawlDelay`) against the robots.txt version in force at its time. Memory is flat in the log's
 * length: per crawler a few counters, the (version, line) pairs its violations hit and at most `maxAddresses`
 * addresses; the caches are bounded too (strings found by a fingerprint before a map: see `StringCache`). A target's
 * verdict is cached per version and the groups that govern the crawler there (shared by the crawlers the same groups
 * govern: most fall to a file's `*` group); a row's addresses are counted through `AddressTally`: each (crawler,
 * address) pair is one slot (a dotted IPv4 address found by its number, no string hashed) that marks the sites that
 * saw it and keeps its verification's answer, asked once when the slot is made; a request is counted under its
 * answer at once, or aside until the answer comes. A row's violations are counted per ((row, version) id, line) pair in
 * one table for all rows (`PairCounts`, which keeps the pairs in the order first seen: one walk at the end makes the
 * rows' lists). A row is found by the User-Agent's entry and the site's number (an array, no map).
 *
 * A log of several sites (`sites`: each host's versions): each request is judged by its own host's robots.txt (the
 * host the line carries, read by `logHost`), and the rows are per host and crawler. A request whose host has no
 * robots.txt known, or whose line names no host, is counted by host (`unknownHosts`) and never judged by another
 * host's file. A line that names no host but asks for a whole URL (a proxy-form target) is of that URL's host.
 */

import { type IdentifiedCrawler, identifyCrawler } from '../crawlers/identify.js';
import type { CrawlDelay } from '../model/types.js';
import type { RobotsTxt } from '../robots-txt/robots-txt.js';
import { PairCounts } from './address-set.js';
import { AddressTally, type CrawlerSlots, PENDING, STATUSES, UNCHECKED } from './address-tally.js';
import { type LogRequest, logHost } from './parse.js';
import type { VerificationStatus, Verifier } from './verify.js';
import { type RobotsVersion, VersionIndex } from './versions.js';

/** One disallowed request, as `--violations` writes it (NDJSON). */
export interface Violation {
  /** The request's host (a log of several sites); null when one robots.txt judges the whole log. */
  readonly host: string | null;
  readonly time: string;
  readonly crawler: string;
  readonly token: string;
  readonly ip: string;
  readonly method: string;
  readonly target: string;
  readonly status: number;
  /** The robots.txt version in force (its file name) and the line that disallowed the URL. */
  readonly version: string;
  readonly line: number;
  readonly rule: string;
  /** The requesting address checked (`unchecked` when verification is off). */
  readonly verification: VerificationStatus | 'unchecked';
  /** Where in the logs: the file (`-` for standard input) and its 1-based line. */
  readonly file: string;
  readonly logLine: number;
}

/** What one crawler did. */
export interface CrawlerRow {
  /** The host its requests were for (a log of several sites); null when one robots.txt judges the whole log. */
  readonly host: string | null;
  /** The catalogue name, or an unknown bot's product token. */
  readonly name: string;
  readonly known: boolean;
  readonly operator: string | null;
  readonly requests: number;
  /** Requests before the first robots.txt version (not judged). */
  readonly unjudged: number;
  readonly disallowed: number;
  /** Disallowed requests per version and deciding line, most first. */
  readonly violations: readonly { version: string; line: number; rule: string; requests: number }[];
  readonly robotsTxt: {
    readonly fetches: number;
    /** Whether its first request was for /robots.txt. */
    readonly fetchedFirst: boolean;
  };
  /** The crawl-delay of the last version that gave it one, and the requests that came sooner after the one before. */
  readonly crawlDelay: {
    readonly seconds: number;
    readonly line: number;
    readonly version: string;
    readonly honoured: boolean | null;
    readonly tooSoon: number;
  } | null;
  /** Seconds between requests on average; null with fewer than two. */
  readonly meanIntervalSeconds: number | null;
  readonly firstSeen: string;
  readonly lastSeen: string;
  /** Distinct addresses (up to the limit), and requests by what their addresses' verification said. */
  readonly addresses: number;
  readonly verification: {
    readonly status: VerificationStatus | 'unchecked';
    readonly requests: Readonly<Record<VerificationStatus | 'unchecked', number>>;
    /** Why, for the first address of the row's status. */
    readonly reason: string | null;
  };
  /**
   * With `perVersion`: the requests that fell in each version's time and those it disallowed, oldest version first,
   * versions it made no request under left out.
   */
  readonly versions?: readonly VersionActivity[];
}

/** What a crawler did under one version (`CrawlerRow.versions`). */
export interface VersionActivity {
  readonly version: string;
  readonly requests: number;
  readonly disallowed: number;
  /** Its requests under this version by what their addresses' verification said. */
  readonly verification: Readonly<Record<VerificationStatus | 'unchecked', number>>;
}

export interface AnalyzeOptions {
  /** The versions of the one robots.txt that judges every request (give this or `sites`). */
  readonly versions?: readonly RobotsVersion[] | undefined;
  /**
   * A log of several sites: each host's versions (keys as `logHost` reads a host: lower case, no default port), oldest first.
   * Each request is judged by its host's; one with no host, or a host not here, is only counted (`unknownHosts`).
   */
  readonly sites?: ReadonlyMap<string, readonly RobotsVersion[]> | undefined;
  readonly verifier: Verifier | null;
  /** Addresses kept (and verified) per crawler. */
  readonly maxAddresses: number;
  /** Crawler rows at most; bots beyond them are counted under `(other bots)`. */
  readonly maxCrawlers?: number;
  /** Whether each row says its requests per version (`CrawlerRow.versions`). */
  readonly perVersion?: boolean;
}

/** The text of a 1-based line of the parsed file, as written (trimmed). */
function lineText(robots: RobotsTxt, line: number): string {
  return robots.records[line - 1]?.text.trim() ?? '';
}

/** One host's versions: where they start in the analysis' one list, and which is in force when. */
interface Site {
  readonly host: string | null;
  /** Its number among the analysis' sites (0 for the one robots.txt). */
  readonly n: number;
  readonly offset: number;
  readonly index: VersionIndex;
}

/** Requests for a host with no robots.txt known (or none named), counted, never judged. */
interface UnknownHost {
  /** The host as `logHost` reads it; null for lines that name none. */
  readonly host: string | null;
  requests: number;
  /** Of them, requests by crawlers. */
  crawlerRequests: number;
}

/**
 * A User-Agent string's crawler, and the row it counted in last with that row's site (null until its first request
 * that is judged).
 */
interface Agent {
  readonly identity: IdentifiedCrawler;
  site: Site | null;
  state: CrawlerState | null;
  /** Its rows by site number (a log of several sites: the host changes from one request to the next). */
  rows: (CrawlerState | undefined)[];
  /** How many rows {@link rows} holds. */
  rowCount: number;
}

/** Hosts without a robots.txt listed by name at most; the rest are counted together. */
const MAX_UNKNOWN_HOSTS = 1000;

/** A row's disallowed requests under one version's line, and the version's index. */
interface RowViolation {
  readonly v: number;
  readonly hit: { readonly version: string; readonly line: number; readonly rule: string; readonly requests: number };
}

class CrawlerState {
  requests = 0;
  unjudged = 0;
  disallowed = 0;
  robotsFetches = 0;
  fetchedFirst = false;
  intervals = 0;
  tooSoon = 0;
  delay: { delay: CrawlDelay; version: string } | null = null;
  readonly delays = new Map<number, CrawlDelay | null>();
  /** Per version index, its id of (row, version) for the analysis' violation counts (`violationCounts`). */
  readonly versionIds = new Map<number, number>();
  /** The version of its last violation and that (row, version) id (versions change seldom: no map read). */
  idVersion = -1;
  versionId = -1;
  /** Its distinct addresses (each (crawler, address) slot marks the sites that saw it: `AddressTally`). */
  addresses = 0;
  /** Its requests by what their addresses' verification said (`STATUSES`, then unchecked); those still to come aside. */
  readonly statusRequests = [0, 0, 0, 0];
  /** Per answer, the slot of its first address in the row's order (-1: none yet) and that address' ordinal. */
  readonly reasonSlot = [-1, -1, -1];
  readonly reasonOrdinal = [0, 0, 0];
  /** With `perVersion`: its addresses (their slots) in the order first seen. */
  readonly slotOrder: number[] = [];
  /** With `perVersion`: per address (its slot), its requests per version index. */
  readonly addressVersions = new Map<number, number[]>();
  uncheckedRequests = 0;
  /** Requests per version index (those in a version's time). */
  readonly byVersion: number[] = [];
  /**
   * Per version (its index among all hosts' versions, and one past the last for requests before the first version),
   * what the targets seen were: {@link ROBOTS} for the robots.txt, 0 allowed, else the line that disallowed it (a cache
   * shared by the crawlers the same groups govern). A row is of one host, so it only fills its host's versions' slots.
   * Logs repeat their URLs.
   */
  readonly verdicts: StringCache<number>[] = [];
  /** The verdict cache last used and its slot in {@link verdicts} (versions change seldom: no array read). */
  verdictSlot = -2;
  verdictCache: StringCache<number> | null = null;
  /** The last version's crawl-delay asked for (versions change seldom). */
  delayVersion = -1;
  lastDelay: CrawlDelay | null = null;

  constructor(
    readonly identity: IdentifiedCrawler,
    readonly host: string | null,
    /** The row's number, with which the analysis counts its addresses. */
    readonly n: number,
    /** Its crawler's slots, the analysis' {@link AddressTally}'s. */
    readonly slots: CrawlerSlots,
  ) {}
}

/**
 * A copy of a string cut from a block of log text: V8 keeps a cut as a view of its whole block, so a cache key kept
 * as is would hold the block (up to 1 MiB) in memory. Cutting from a joined copy makes a string of its own.
 */
function detached(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/**
 * A bounded cache of answers per string (a User-Agent, a host, a request target). Logs repeat a few strings: each is
 * found by a cheap fingerprint (its length and four characters) in one of two slots compared whole (one native
 * comparison, cheaper than hashing a long string for a map), else in a map of at most `cap` strings (emptied when
 * full).
 */
class StringCache<V> {
  /**
   * Per slot its key and value side by side (one memory read finds both); a key is looked for in its slot and the one
   * beside it (the one used last first), so that two keys of one fingerprint both stay.
   */
  private readonly entries: (string | V | undefined)[];
  private readonly map = new Map<string, { key: string; value: V }>();

  constructor(
    private readonly slots: number,
    private readonly cap: number,
  ) {
    this.entries = new Array<string | V | undefined>(2 * slots).fill(undefined);
  }

  /** The first of the two slots `key` may be in (an even one), as an index of {@link entries}. */
  private slotOf(key: string): number {
    const n = key.length;
    if (n === 0) return 0;
    return (
      ((n * 31 +
        key.charCodeAt(n >> 1) * 131 +
        key.charCodeAt(n - 1) * 17 +
        key.charCodeAt(n >> 2) +
        key.charCodeAt((n * 3) >> 2) * 7) &
        (this.slots - 2)) <<
      1
    );
  }

  get(key: string): V | undefined {
    const at = this.slotOf(key);
    const entries = this.entries;
    if (entries[at] === key) return entries[at + 1] as V;
    // The length first: comparing a string cut from a block is a call into the engine's runtime.
    const second = entries[at + 2] as string | undefined;
    if (second !== undefined && second.length === key.length && second === key) {
      const value = entries[at + 3] as V;
      this.place(at, entries[at + 2] as string, value);
      return value;
    }
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    this.place(at, entry.key, entry.value);
    return entry.value;
  }

  set(key: string, value: V): void {
    const own = detached(key);
    if (this.map.size >= this.cap) this.map.clear();
    this.map.set(own, { key: own, value });
    this.place(this.slotOf(own), own, value);
  }

  /** Puts a key first in its two slots, the one that was first second. */
  private place(at: number, key: string, value: V): void {
    const entries = this.entries;
    entries[at + 2] = entries[at];
    entries[at + 3] = entries[at + 1];
    entries[at] = key;
    entries[at + 1] = value;
  }
}

/** The row of the bots beyond `maxCrawlers`. */
const OTHER_BOTS: IdentifiedCrawler = { name: '(other bots)', profile: null, token: '' };

/** What a target cache says of the robots.txt itself (never judged). */
const ROBOTS = -1;

const ROBOTS_PATH = /^(?:[a-z][a-z0-9+.-]*:\/\/[^/?#]*)?\/robots\.txt(?:$|\?)/i;

/** Whether a request target is the robots.txt (`/robots.txt`, with a query, or a whole URL through a proxy). */
function isRobotsTxt(target: string): boolean {
  return target === '/robots.txt' || (target.includes('/robots.txt') && ROBOTS_PATH.test(target));
}

/** The host of a proxy-form target (`GET http://a.example/x`), which names it when the line does not; else null. */
function targetHost(target: string): string | null {
  if (target.charCodeAt(0) === 0x2f) return null;
  const m = /^https?:\/\/([^/?#]*)/i.exec(target);
  return m === null ? null : m[1]!;
}

/**
 * A dotted IPv4 address written the one way (`198.18.0.1`: four parts, no leading zero, each at most 255) as a 32-bit
 * integer (signed); -1 for any other text (IPv6, `-`, `01.2.3.4`, and `255.255.255.255`, which would be -1). Only one
 * text has each number, so the number names the text.
 */
function ipv4Key(ip: string): number {
  const n = ip.length;
  if (n < 7 || n > 15) return -1;
  let key = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < n; i++) {
    const c = ip.charCodeAt(i);
    if (c === 0x2e) {
      if (digits === 0 || dots === 3) return -1;
      key = (key << 8) | part;
      part = 0;
      digits = 0;
      dots++;
      continue;
    }
    const d = c - 0x30;
    if (d < 0 || d > 9 || (digits === 1 && part === 0)) return -1;
    part = part * 10 + d;
    digits++;
    if (part > 255) return -1;
  }
  return dots === 3 && digits > 0 ? (key << 8) | part : -1;
}

export class LogAnalysis {
  private readonly crawlers = new Map<string, CrawlerState>();
  /** Requests of clients that name no crawler (browsers, tools). */
  otherRequests = 0;
  requests = 0;
  /**
   * Per User-Agent string: its crawler (null: not one), and the row it counted in last with that row's site (a log of
   * one robots.txt: always its row, found once; several sites: the row of the request's host, looked up when the host
   * differs from the last one's).
   */
  private readonly agents = new StringCache<Agent | null>(1024, 50_000);
  private readonly maxCrawlers: number;
  /** Every version, of every host (a site's are at its offset): a version is one number. */
  private readonly versions: readonly RobotsVersion[];
  /** The one robots.txt's, or null for a log of several sites. */
  private readonly single: Site | null;
  private readonly sites = new Map<string, Site>();
  /** Logged host strings → their site (null: none known), bounded (found by fingerprint like the User-Agents). */
  private readonly hostCache = new StringCache<Site | null>(4096, 50_000);
  private readonly unknown = new Map<string | null, UnknownHost>();
  private readonly perVersion: boolean;
  /**
   * Per row number, four times (ms): its first request's, its last's, the one before's (NaN before the first) and the
   * sum of the intervals between them. Side by side in one array: a row's times are one read of memory, where fields
   * of a row holding a time each point to a number of their own.
   */
  private times = new Float64Array(4 * 64);
  /** Which sites each (crawler, address) saw, and its verification (see {@link AddressTally}). */
  private readonly tally: AddressTally;
  /** Verdict caches by version and the groups that govern a crawler there (see {@link sharedVerdicts}). */
  private readonly verdictCaches = new Map<string, StringCache<number>>();

  constructor(private readonly options: AnalyzeOptions) {
    this.maxCrawlers = options.maxCrawlers ?? 10_000;
    this.perVersion = options.perVersion === true;
    if ((options.versions === undefined) === (options.sites === undefined))
      throw new TypeError('LogAnalysis needs versions or sites, not both');
    if (options.versions !== undefined) {
      this.versions = options.versions;
      this.single = { host: null, n: 0, offset: 0, index: new VersionIndex(options.versions) };
      this.tally = new AddressTally(1, options.verifier);
      return;
    }
    const all: RobotsVersion[] = [];
    for (const [host, versions] of options.sites!) {
      if (versions.length === 0) continue;
      this.sites.set(host, { host, n: this.sites.size, offset: all.length, index: new VersionIndex(versions) });
      all.push(...versions);
    }
    this.versions = all;
    this.single = null;
    this.tally = new AddressTally(this.sites.size, options.verifier);
  }

  /** The site of a logged host; null when the line names none or its host has no robots.txt here. */
  private siteOf(raw: string | null): Site | null {
    if (raw === null) return null;
    let site = this.hostCache.get(raw);
    if (site === undefined) {
      const host = logHost(raw);
      site = host === null ? null : (this.sites.get(host) ?? null);
      this.hostCache.set(raw, site);
    }
    return site;
  }

  private countUnknown(raw: string | null, crawler: boolean): void {
    let host = raw === null ? null : logHost(raw);
    if (host !== null && !this.unknown.has(host) && this.unknown.size >= MAX_UNKNOWN_HOSTS) host = '(other hosts)';
    let entry = this.unknown.get(host);
    if (entry === undefined) {
      entry = { host: host === null ? null : detached(host), requests: 0, crawlerRequests: 0 };
      this.unknown.set(entry.host, entry);
    }
    entry.requests++;
    if (crawler) entry.crawlerRequests++;
  }

  /** Makes row `n`'s times: none yet. */
  private timesFor(n: number): void {
    if (4 * n + 4 > this.times.length) {
      const times = new Float64Array(this.times.length * 2);
      times.set(this.times);
      this.times = times;
    }
    this.times.set([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN, 0], 4 * n);
  }

  /** Requests not judged because their host has no robots.txt known (`host` null: the line names none), most first. */
  unknownHosts(): { host: string | null; requests: number; crawlerRequests: number }[] {
    return [...this.unknown.values()].map((u) => ({ ...u })).sort((a, b) => b.requests - a.requests);
  }

  private agentOf(userAgent: string): Agent | null {
    let agent = this.agents.get(userAgent);
    if (agent === undefined) {
      const identity = identifyCrawler(detached(userAgent));
      agent = identity === null ? null : { identity, site: null, state: null, rows: [], rowCount: 0 };
      this.agents.set(userAgent, agent);
    }
    return agent;
  }

  /** The row of `agent`'s crawler at `site` (remembered on the agent: the next request of the same site finds it). */
  private rowFor(agent: Agent, site: Site): CrawlerState {
    let state = agent.rows[site.n];
    if (state === undefined) {
      state = this.stateOf(agent.identity, site.host);
      // Bounded: a bot seen on very many hosts starts its list again (its rows are kept by `crawlers`).
      if (agent.rowCount >= 4096) {
        agent.rows = [];
        agent.rowCount = 0;
      }
      agent.rows[site.n] = state;
      agent.rowCount++;
    }
    agent.site = site;
    agent.state = state;
    return state;
  }

  private stateOf(identity: IdentifiedCrawler, host: string | null): CrawlerState {
    const key = host === null ? identity.name : `${host}\u0000${identity.name}`;
    let state = this.crawlers.get(key);
    if (state === undefined) {
      // Beyond the limit, one row more (per host): the bots not counted in a row of their own.
      if (this.crawlers.size >= this.maxCrawlers && identity !== OTHER_BOTS) return this.stateOf(OTHER_BOTS, host);
      state = new CrawlerState(identity, host, this.crawlers.size, this.tally.tableOf(identity.name));
      this.timesFor(state.n);
      this.crawlers.set(key, state);
    }
    return state;
  }

  /**
   * The last violation found: its crawler (the User-Agent's, which a row of other bots does not name), its row and its
   * entry among the row's violations (the record is built only when asked for; no object made per violation).
   */
  private lastIdentity: IdentifiedCrawler | null = null;
  private lastState: CrawlerState | null = null;
  private lastV = -1;
  private lastLine = 0;
  /**
   * Disallowed requests per (row, version) id and deciding line, in one table for all rows (a map per row was a read of
   * memory elsewhere at each violation), in the order first seen; each id's row number and version index.
   */
  private readonly violationCounts = new PairCounts();
  private readonly idRow: number[] = [];
  private readonly idVersion: number[] = [];

  /** Counts one request; true when it fetched a URL the version in force disallowed (see {@link violation}). */
  add(request: LogRequest): boolean {
    this.requests++;
    const agent = this.agentOf(request.userAgent);
    let site = this.single;
    if (site === null) {
      const host = request.host ?? targetHost(request.target);
      site = this.siteOf(host);
      if (site === null) {
        this.countUnknown(host, agent !== null);
        if (agent === null) this.otherRequests++;
        return false;
      }
    }
    if (agent === null) {
      this.otherRequests++;
      return false;
    }
    const state = agent.site === site ? agent.state! : this.rowFor(agent, site);
    const { time } = request;
    // Its times, in the analysis' table (see `times`).
    const times = this.times;
    const t = 4 * state.n;
    const local = site.index.at(time);
    const v = local < 0 ? -1 : site.offset + local;
    // One lookup tells whether the target is the robots.txt and, if not, what the version in force says of it.
    const code = this.verdictOf(state, v, request.target);
    const isRobots = code === ROBOTS;
    if (state.requests === 0) state.fetchedFirst = isRobots;
    state.requests++;
    if (time < times[t]!) times[t] = time;
    if (time > times[t + 1]!) times[t + 1] = time;
    const slot = this.countAddress(state, site.n, request.ip);
    if (v >= 0 && this.perVersion) {
      state.byVersion[v] = (state.byVersion[v] ?? 0) + 1;
      if (slot >= 0) {
        let byVersion = state.addressVersions.get(slot);
        if (byVersion === undefined) {
          byVersion = [];
          state.addressVersions.set(slot, byVersion);
        }
        byVersion[v] = (byVersion[v] ?? 0) + 1;
      }
    }
    // NaN (no request before) compares false.
    const previous = times[t + 2]!;
    if (time >= previous) {
      times[t + 3]! += time - previous;
      state.intervals++;
      const delay = v < 0 ? null : this.delayOf(state, v);
      if (delay !== null && time - previous < delay.seconds * 1000) state.tooSoon++;
    }
    times[t + 2] = time;
    if (isRobots) {
      state.robotsFetches++;
      return false;
    }
    if (v < 0) {
      state.unjudged++;
      return false;
    }
    const line = code;
    if (line === 0) return false;
    state.disallowed++;
    if (state.idVersion !== v) {
      let id = state.versionIds.get(v);
      if (id === undefined) {
        id = this.idRow.length;
        this.idRow.push(state.n);
        this.idVersion.push(v);
        state.versionIds.set(v, id);
      }
      state.idVersion = v;
      state.versionId = id;
    }
    if (!this.violationCounts.increment(state.versionId, line)) this.violationCounts.add(state.versionId, line);
    this.lastIdentity = agent.identity;
    this.lastState = state;
    this.lastV = v;
    this.lastLine = line;
    return true;
  }

  /**
   * The record of the violation {@link add} just reported for `request` (its verification still to be filled in by
   * the caller: `unchecked` here).
   */
  violation(request: LogRequest, file: string, logLine: number): Violation {
    const identity = this.lastIdentity!;
    const { host } = this.lastState!;
    const line = this.lastLine;
    const { label: version, robots } = this.versions[this.lastV]!;
    const rule = lineText(robots, line);
    return {
      host,
      time: new Date(request.time).toISOString(),
      crawler: identity.name,
      token: identity.token,
      ip: request.ip,
      method: request.method,
      target: request.target,
      status: request.status,
      version,
      line,
      rule,
      verification: 'unchecked',
      file,
      logLine,
    };
  }

  /**
   * The identity a crawler row was grouped under (for verifying a violation's address); `host` as the row has it. A bot
   * beyond `maxCrawlers` was grouped under that host's `(other bots)`.
   */
  identityOf(name: string, host: string | null = null): IdentifiedCrawler {
    return (this.crawlers.get(host === null ? name : `${host}\u0000${name}`) ?? this.stateOf(OTHER_BOTS, host))
      .identity;
  }

  /**
   * {@link ROBOTS} when `target` is the robots.txt, else 0 when the crawler may fetch it under version `v` (or `v` is
   * -1: before the first version, not judged), else the line that disallows it (cached, bounded).
   */
  private verdictOf(state: CrawlerState, v: number, target: string): number {
    const slot = v < 0 ? this.versions.length : v;
    let cache = state.verdictSlot === slot ? state.verdictCache! : state.verdicts[slot];
    if (cache === undefined) {
      cache = this.sharedVerdicts(state, v);
      state.verdicts[slot] = cache;
    }
    state.verdictSlot = slot;
    state.verdictCache = cache;
    let line = cache.get(target);
    if (line === undefined) {
      if (isRobotsTxt(target)) line = ROBOTS;
      else if (v < 0) line = 0;
      else {
        const robots = this.versions[v]!.robots;
        const crawler = state.identity.profile ?? state.identity.token;
        // Most requests are allowed: only a disallowed one pays for the explanation (the deciding line).
        line = robots.isAllowed(target, crawler) ? 0 : robots.explain(target, crawler).line;
      }
      cache.set(target, line);
    }
    return line;
  }

  /**
   * The verdict cache of `state`'s crawler under version `v`, shared with every crawler the same groups of that version
   * govern: what a path gets depends only on the groups' rules (a log of many sites and crawlers mostly falls to each
   * file's `*` group, so each path is decided once per version and group set, not once per crawler).
   */
  private sharedVerdicts(state: CrawlerState, v: number): StringCache<number> {
    let key = 'before';
    if (v >= 0) {
      const { groups } = this.versions[v]!.robots.selectGroups(state.identity.profile ?? state.identity.token);
      key = `${v}:${groups.map((g) => g.index).join(',')}`;
    }
    let cache = this.verdictCaches.get(key);
    if (cache === undefined) {
      if (this.verdictCaches.size >= 65_536) this.verdictCaches.clear();
      cache = new StringCache(1024, 4096);
      this.verdictCaches.set(key, cache);
    }
    return cache;
  }

  private delayOf(state: CrawlerState, v: number): CrawlDelay | null {
    if (state.delayVersion === v) return state.lastDelay;
    let delay = state.delays.get(v);
    if (delay === undefined) {
      const version = this.versions[v]!;
      delay = version.robots.crawlDelay(state.identity.profile ?? state.identity.token);
      state.delays.set(v, delay);
      if (delay !== null) state.delay = { delay, version: version.label };
    }
    state.delayVersion = v;
    state.lastDelay = delay;
    return delay;
  }

  /**
   * Counts a request from `ip` in `state`'s row (at site number `site`); the address' slot, or -1 when the row keeps no
   * more addresses.
   */
  private countAddress(state: CrawlerState, site: number, ip: string): number {
    const key = ipv4Key(ip);
    const tally = this.tally;
    const slots = state.slots;
    let slot = tally.slotOf(slots, key, ip);
    if (slot >= 0 && tally.seen(slot, site)) {
      this.countStatus(state, slot, -1);
      return slot;
    }
    if (state.addresses >= this.options.maxAddresses) {
      state.uncheckedRequests++;
      return -1;
    }
    // Verified once per crawler and address, from here (the verifier caches it for the violations that ask too).
    if (slot < 0) slot = tally.addSlot(slots, key, state.identity, detached(ip));
    tally.mark(slot, site);
    if (this.perVersion) state.slotOrder.push(slot);
    this.countStatus(state, slot, state.addresses++);
    return slot;
  }

  /** Counts a request of `state`'s row from `slot` under its answer, or aside while it is to come. */
  private countStatus(state: CrawlerState, slot: number, ordinal: number): void {
    const status = this.tally.statusOf(slot);
    if (status === PENDING) {
      this.tally.countPending(state.n, slot, ordinal);
      return;
    }
    state.statusRequests[status]!++;
    // The first address of each answer in the row's order says why (one whose answer was to come may come before).
    if (ordinal >= 0 && status !== UNCHECKED && state.reasonSlot[status]! < 0) {
      state.reasonSlot[status] = slot;
      state.reasonOrdinal[status] = ordinal;
    }
  }

  /** The rows, by host (a log of several sites), then crawlers with violations first, then by requests; verified. */
  async rows(): Promise<CrawlerRow[]> {
    const rows: CrawlerRow[] = [];
    await this.settlePending();
    const violations = this.violationsByRow();
    for (const state of this.crawlers.values()) {
      rows.push(await this.rowOf(state, violations[state.n] ?? []));
    }
    const byHost = (a: CrawlerRow, b: CrawlerRow) => (a.host === b.host ? 0 : (a.host ?? '') < (b.host ?? '') ? -1 : 1);
    return rows.sort(
      (a, b) => byHost(a, b) || b.disallowed - a.disallowed || b.requests - a.requests || (a.name < b.name ? -1 : 1),
    );
  }

  /**
   * The requests counted while their address' answer was to come, added to their rows under the answer (awaited when
   * still to come), and the rows' reasons where such an address came first. Once: the table is emptied.
   */
  private async settlePending(): Promise<void> {
    const tally = this.tally;
    const { pairs, size } = tally.pending;
    if (size === 0) return;
    const states = [...this.crawlers.values()];
    const counts = tally.pending.countsInOrder();
    for (let k = 0; k < size; k++) {
      const state = states[pairs[2 * k]!]!;
      const slot = pairs[2 * k + 1]!;
      const status = tally.statusOf(slot) === PENDING ? await tally.settle(slot) : tally.statusOf(slot);
      state.statusRequests[status]! += counts[k]!;
      const ordinal = tally.pendingOrdinals[k]!;
      if (status !== UNCHECKED && (state.reasonSlot[status]! < 0 || ordinal < state.reasonOrdinal[status]!)) {
        state.reasonSlot[status] = slot;
        state.reasonOrdinal[status] = ordinal;
      }
    }
    tally.clearPending();
  }

  /** Each row's violations (by row number) with their version index, in the order first seen. */
  private violationsByRow(): RowViolation[][] {
    const byRow: RowViolation[][] = [];
    const { pairs, size } = this.violationCounts;
    const counts = this.violationCounts.countsInOrder();
    for (let k = 0; k < size; k++) {
      const id = pairs[2 * k]!;
      const line = pairs[2 * k + 1]!;
      const n = this.idRow[id]!;
      const v = this.idVersion[id]!;
      const version = this.versions[v]!;
      const list = byRow[n] ?? [];
      list.push({
        v,
        hit: { version: version.label, line, rule: lineText(version.robots, line), requests: counts[k]! },
      });
      byRow[n] = list;
    }
    return byRow;
  }

  /** Per version the crawler made requests under: its requests, disallowed ones, and their addresses' verification. */
  private async versionRows(s: CrawlerState, violations: readonly RowViolation[]): Promise<VersionActivity[]> {
    const rows: VersionActivity[] = [];
    for (const [v, requests] of s.byVersion.entries()) {
      if (requests === undefined) continue;
      let disallowed = 0;
      for (const hit of violations) if (hit.v === v) disallowed += hit.hit.requests;
      const verification = { verified: 0, spoofed: 0, unverifiable: 0, unchecked: requests };
      for (const slot of s.slotOrder) {
        const count = s.addressVersions.get(slot)?.[v];
        if (count === undefined) continue;
        // The slot's answer, the one its requests are counted under in the row.
        const status = await this.tally.settle(slot);
        if (status === UNCHECKED) continue;
        verification[STATUSES[status]!] += count;
        verification.unchecked -= count;
      }
      rows.push({ version: this.versions[v]!.label, requests, disallowed, verification });
    }
    return rows;
  }

  private async rowOf(s: CrawlerState, violations: readonly RowViolation[]): Promise<CrawlerRow> {
    const counts = s.statusRequests;
    const requests = {
      verified: counts[0]!,
      spoofed: counts[1]!,
      unverifiable: counts[2]!,
      unchecked: s.uncheckedRequests + counts[UNCHECKED]!,
    };
    const reasons: Partial<Record<VerificationStatus, string>> = {};
    STATUSES.forEach((name, i) => {
      const slot = s.reasonSlot[i]!;
      if (slot >= 0) reasons[name] = this.tally.reasonOf(slot);
    });
    const verifier = this.options.verifier;
    const status: VerificationStatus | 'unchecked' =
      verifier === null
        ? 'unchecked'
        : requests.spoofed > 0
          ? 'spoofed'
          : requests.unverifiable > 0 || requests.verified === 0
            ? 'unverifiable'
            : 'verified';
    const delay = s.delay;
    return {
      host: s.host,
      name: s.identity.name,
      known: s.identity.profile !== null,
      operator: s.identity.profile?.operator || null,
      requests: s.requests,
      unjudged: s.unjudged,
      disallowed: s.disallowed,
      violations: violations.map((e) => e.hit).sort((a, b) => b.requests - a.requests),
      robotsTxt: { fetches: s.robotsFetches, fetchedFirst: s.fetchedFirst },
      crawlDelay:
        delay === null
          ? null
          : {
              seconds: delay.delay.seconds,
              line: delay.delay.line,
              version: delay.version,
              honoured: delay.delay.honoured,
              tooSoon: s.tooSoon,
            },
      meanIntervalSeconds: s.intervals === 0 ? null : this.times[4 * s.n + 3]! / s.intervals / 1000,
      firstSeen: new Date(this.times[4 * s.n]!).toISOString(),
      lastSeen: new Date(this.times[4 * s.n + 1]!).toISOString(),
      addresses: s.addresses,
      verification: { status, requests, reason: status === 'unchecked' ? null : (reasons[status] ?? null) },
      ...(this.perVersion ? { versions: await this.versionRows(s, violations) } : {}),
    };
  }
}

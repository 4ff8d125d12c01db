/**
 * `RobotsTxt`: a parsed robots.txt, its groups, sitemaps and lines, and the questions a crawler asks of it.
 */

import { type CrawlerProfile, isCrawlerProfile } from '../crawlers/profile.js';
import { buildModel } from '../match/build.js';
import { googleDialect } from '../match/google.js';
import type { RuleTable } from '../match/group.js';
import { legacyDialect } from '../match/legacy.js';
import { crawlDelaySeconds } from '../model/crawl-delay.js';
import type { Dialect, DialectName, GroupSelector, PoolMatcher, Selection, Verdict } from '../model/dialect.js';
import { buildRecords } from '../model/records.js';
import { SourceText } from '../model/source-text.js';
import type {
  CrawlDelay,
  CrawlerVerdict,
  Explanation,
  RobotsGroup,
  RobotsRecord,
  RobotsRule,
  UsageAnswer,
} from '../model/types.js';
import { DEFAULT_MAX_BYTES, parsedBytes, type RobotsInput, type SourceBytes, toSourceBytes } from '../parse/input.js';
import { bomLength } from '../parse/lines.js';
import { normalizeHttpUrl } from '../url/http-url.js';
import { pathToMatch } from '../url/path.js';
import { asciiLower, isValidProductToken, productToken } from '../url/user-agent.js';
import { readUsageLines, type UsageLines } from '../usage/lines.js';
import { UsagePool } from '../usage/resolve.js';
import { RecentCache } from './recent-cache.js';

/** Options of {@link parseRobotsTxt}. */
export interface ParseOptions {
  /**
   * Parse only this many bytes of the input; the rest is ignored and {@link RobotsTxt.truncated} says so. Google
   * parses the first 500 KiB.
   * @default 512000
   */
  readonly maxBytes?: number;
  /**
   * How to read the file.
   * @default 'google'
   */
  readonly dialect?: DialectName;
}

/** The crawler(s) a question is asked for: a product token, a full User-Agent string, or several names at once. */
export type UserAgentInput = string | readonly string[];

/** A crawler named by its user agent ({@link UserAgentInput}) or described by a {@link CrawlerProfile}. */
export type CrawlerInput = UserAgentInput | CrawlerProfile;

const DIALECTS: Record<DialectName, Dialect> = { google: googleDialect, legacy: legacyDialect };

const NO_GROUPS: Selection = { match: 'none', groups: [], agentLines: [] };

/** The verdict where no group applies (no matcher): allowed, by no rule. Shared: read, never written. */
const NO_RULES: Verdict = { allowed: true, rule: null };

/** Caches per distinct set of crawler names; bounded so a caller cycling through names cannot grow it forever. */
const MAX_CACHED_AGENTS = 256;

/** What {@link RobotsTxt} keeps for crawler profiles and other readings of the file. */
interface Extras {
  /** The same file read in other dialects. */
  readonly dialects: Map<DialectName, RobotsTxt>;
  /** Plans for crawler profiles, by profile object. */
  readonly profilePlans: WeakMap<CrawlerProfile, AgentPlan>;
  /** Selections for single crawler tokens (the profiles' fallback steps), by token. */
  readonly tokenSelections: Map<string, Selection>;
  selector: GroupSelector | null;
}

interface AgentPlan {
  readonly tokens: readonly string[];
  readonly selection: Selection;
  readonly matcher: PoolMatcher | null;
  /** For a crawler profile: its name, and the token whose groups applied (null for the `*` group or none). */
  readonly crawler?: { readonly name: string; readonly token: string | null };
}

/** Whether an extension's (lower-case) name is `content-usage` or `content-signal`. */
function isUsageField(name: string): boolean {
  return name === 'content-usage' || name === 'content-signal';
}

/**
 * @internal The parsed source behind a {@link RobotsTxt}, for the linter, which needs the text and its offsets. Set by
 * the class's static block (which may read private fields), so the public class carries no extra member.
 */
export let sourceOf: (robots: RobotsTxt) => SourceText;

/**
 * @internal For the crawl client, which finds the path to match where it finds the origin (the URL is not read again)
 * and asks one file about many URLs. `matcherOf`: the matcher that {@link RobotsTxt.isAllowed} asks for a crawler (null
 * when no rule applies to it: every path is allowed), which the client keeps for the next URL of the same origin.
 * `explainPath`: {@link RobotsTxt.explain} for a path already taken from the URL as `pathToMatch` takes it. Set by the
 * class's static block, like {@link sourceOf}.
 */
export let matcherOf: (robots: RobotsTxt, crawler: CrawlerInput) => PoolMatcher | null;
export let explainPath: (robots: RobotsTxt, path: string, crawler: CrawlerInput) => Explanation;
/**
 * @internal For the exact comparison of usage preferences (`semantics/usage-change.ts`): what the crawler's groups
 * state for a path to match (taken as it is, not read from a URL: `//a` is that path, not a host), its deciding
 * `Content-Usage` rules and the groups' `Content-Signal`, as {@link RobotsTxt.usage} reads them, whether or not the
 * crawler may fetch it (`crawlable` is the real answer; the preferences are not emptied when it is false). Set by the
 * class's static block, like {@link sourceOf}.
 */
export let statedUsage: (robots: RobotsTxt, path: string, crawler: CrawlerInput) => UsageAnswer;

/** A parsed robots.txt. Create one with {@link parseRobotsTxt}. */
export class RobotsTxt {
  static {
    sourceOf = (robots) => robots.text;
    matcherOf = (robots, crawler) => robots.plan(crawler).matcher;
    explainPath = (robots, path, crawler) => robots.explainFor(path, crawler);
    statedUsage = (robots, path, crawler) => {
      const plan = robots.plan(crawler);
      const answer = robots.usagePool(plan.selection).answer(path, true);
      return plan.matcher === null || plan.matcher.allows(path) ? answer : { ...answer, crawlable: false };
    };
  }

  /** The dialect the file was read with. */
  readonly dialect: DialectName;
  /** Groups in file order, as written (not merged). */
  readonly groups: readonly RobotsGroup[];
  private readonly orphans: RuleTable;
  private cachedOrphans: readonly RobotsRule[] | null = null;
  /** Size of the whole input in bytes (UTF-8 bytes for string input). */
  get size(): number {
    return this.text.totalBytes();
  }
  /** Number of bytes parsed (at most `maxBytes`). */
  readonly parsedSize: number;
  /** True when the input was longer than `maxBytes` and only its prefix was parsed. */
  readonly truncated: boolean;
  /** Number of lines, blank ones included (the text after the last line break counts as a line). */
  readonly lineCount: number;

  private readonly impl: Dialect;
  private readonly text: SourceText;
  private readonly sitemapValues: readonly string[];
  private cachedSitemaps: readonly string[] | null = null;
  private cachedRecords: readonly RobotsRecord[] | null = null;
  /** Plans for a single string agent, by the string as given. */
  private plans: RecentCache<AgentPlan> | null = null;
  /** Plans for arrays of agents, by their JSON (so `['A', 'B']` and the string `'A\nB'` never share one). */
  private listPlans: RecentCache<AgentPlan> | null = null;
  private matchers: RecentCache<PoolMatcher> | null = null;
  /** The crawler profile asked about last and its plan: a run of questions by one profile skips the map. */
  private lastProfile: CrawlerProfile | null = null;
  private lastProfilePlan: AgentPlan | null = null;
  /** State for crawler profiles and other dialects, created on first use: most files never need it. */
  private extras: Extras | null = null;
  /** The file's Content-Usage and Content-Signal lines (null: not read yet), and their pools by selected groups. */
  private usageLines: UsageLines | null = null;
  private usagePools: RecentCache<UsagePool> | null = null;
  /** The pool of each selection object already asked about (plans keep their selection), without building a key. */
  private usageBySelection: WeakMap<Selection, UsagePool> | null = null;
  /** Whether any group holds a Content-Usage or Content-Signal line (null: not looked yet). */
  private hasUsage: boolean | null = null;

  /**
   * @internal Use {@link parseRobotsTxt}. `source` is the already-read input of another parse of the same file
   * (see {@link RobotsTxt.inDialect}).
   */
  constructor(input: RobotsInput, options: ParseOptions = {}, source?: SourceBytes) {
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    if (!Number.isInteger(maxBytes) || maxBytes < 0) throw new RangeError('maxBytes must be a non-negative integer');
    const dialect = options.dialect ?? 'google';
    const impl = Object.hasOwn(DIALECTS, dialect) ? DIALECTS[dialect] : undefined;
    if (impl === undefined) throw new RangeError(`unknown dialect: ${String(dialect)}`);
    this.dialect = dialect;
    this.impl = impl;

    let read: RobotsInput | null = null;
    if (source === undefined) {
      source = toSourceBytes(input, maxBytes);
      read = input;
    }
    this.text = new SourceText(source);
    this.parsedSize = source.bin.length;
    this.truncated = source.truncated;
    const model = buildModel(this.text, impl, parsedBytes(read, source));
    this.groups = model.groups;
    this.sitemapValues = model.sitemapValues;
    this.orphans = model.orphans;
    this.lineCount = model.lineCount;
  }

  /**
   * `sitemap:` URLs that are absolute http(s) URLs, normalised by the WHATWG URL parser, in file order, without
   * repeats. Other values are left out (the linter reports them).
   */
  get sitemaps(): readonly string[] {
    if (this.cachedSitemaps === null) {
      const urls = new Set<string>();
      for (const value of this.sitemapValues) {
        const url = normalizeHttpUrl(value);
        if (url !== null) urls.add(url);
      }
      this.cachedSitemaps = [...urls];
    }
    return this.cachedSitemaps;
  }

  /** Rules that come before any user-agent line: they belong to no group and are ignored. */
  get orphanRules(): readonly RobotsRule[] {
    this.cachedOrphans ??= this.orphans.rules(this.text, 0, this.orphans.count);
    return this.cachedOrphans;
  }

  /** Every line of the file with what the parser read from it, in order. Built on first access. */
  get records(): readonly RobotsRecord[] {
    this.cachedRecords ??= buildRecords(this.text);
    return this.cachedRecords;
  }

  /** The parsed text (the input, or the decoded prefix of it that was parsed). */
  get source(): string {
    return this.text.text();
  }

  /**
   * Whether the crawler may fetch the URL.
   *
   * @param url An absolute URL, a path, or a `URL` object. Strings are matched as given, not re-encoded: pass them
   *   percent-encoded (as `new URL(u).href` gives them).
   * @param crawler The crawler's product token (`Googlebot`), compared case-insensitively and exactly; a full
   *   User-Agent string is reduced to its product token (see {@link productToken}); several names at once pool the
   *   rules of all their groups, as the reference does. Or a {@link CrawlerProfile} (see the catalogue `CRAWLERS`), whose
   *   tokens are tried in fallback order: the groups of the first token the file names apply, else the `*` group
   *   unless the crawler ignores it.
   */
  isAllowed(url: string | URL, crawler: CrawlerInput): boolean {
    const path = pathToMatch(url);
    const { matcher } = this.plan(crawler);
    return matcher === null || matcher.allows(path);
  }

  /** Like {@link isAllowed}, with the deciding line and rule and the groups that applied. */
  explain(url: string | URL, crawler: CrawlerInput): Explanation {
    return this.explainFor(pathToMatch(url), crawler);
  }

  /** {@link explain} for the path to match. */
  private explainFor(path: string, crawler: CrawlerInput): Explanation {
    const plan = this.plan(crawler);
    const { allowed, rule } = plan.matcher?.decide(path) ?? NO_RULES;
    const line = rule === null ? 0 : rule.line;
    const { agentLines: groupLines, match: groups } = plan.selection;
    const userAgents = plan.tokens;
    const userAgent = userAgents.length === 1 ? userAgents[0]! : userAgents.join(',');
    this.hasUsage ??= this.groups.some((g) => g.extensions.some((e) => isUsageField(e.name)));
    if (this.hasUsage) {
      const usage = this.usagePool(plan.selection).answer(path, allowed);
      const explanation: Explanation = { allowed, line, rule, groupLines, groups, userAgent, userAgents, path, usage };
      return plan.crawler === undefined ? explanation : { ...explanation, crawler: plan.crawler };
    }
    // Two literals rather than a spread: copying an object per call was most of explain's own time in batch runs.
    if (plan.crawler === undefined) return { allowed, line, rule, groupLines, groups, userAgent, userAgents, path };
    return { allowed, line, rule, groupLines, groups, userAgent, userAgents, path, crawler: plan.crawler };
  }

  /**
   * Which AI usage preferences apply to the URL for the crawler (draft-ietf-aipref-attach, the `Content-Usage` rule):
   * whether the crawler may fetch it, the preference per category of the current vocabulary (`train-ai`, `ai-use`,
   * `search`: `allow` or `disallow`, unknown ones absent) from the longest-matching `Content-Usage` rules of the
   * crawler's groups (chosen exactly as for Allow/Disallow; rules of the same length combine, most restrictive first),
   * the deciding lines, and what the groups' `Content-Signal` lines say. A URL the crawler may not fetch has no
   * preferences.
   *
   * @param url As for {@link isAllowed}.
   * @param crawler As for {@link isAllowed}.
   */
  usage(url: string | URL, crawler: CrawlerInput): UsageAnswer {
    const path = pathToMatch(url);
    const plan = this.plan(crawler);
    const allowed = plan.matcher === null || plan.matcher.allows(path);
    return this.usagePool(plan.selection).answer(path, allowed);
  }

  /** The usage rules and signals of the selected groups, built once per distinct selection. */
  private usagePool(selection: Selection): UsagePool {
    this.usageBySelection ??= new WeakMap();
    const known = this.usageBySelection.get(selection);
    if (known !== undefined) return known;
    this.usageLines ??= readUsageLines(this.text);
    const key = selection.groups.join(',');
    this.usagePools ??= new RecentCache(MAX_CACHED_AGENTS);
    let pool = this.usagePools.get(key);
    if (pool === undefined) {
      pool = new UsagePool(
        selection.groups.map((i) => this.groups[i]!),
        this.usageLines,
      );
      this.usagePools.set(key, pool);
    }
    this.usageBySelection.set(selection, pool);
    return pool;
  }

  /**
   * The verdict for every crawler of a list (such as the whole catalogue, `CRAWLERS`) at once: which groups
   * applied to each (through which token of its fallback order) and the deciding line. Answers questions like "is
   * Googlebot allowed while AI crawlers are blocked?". Each crawler's group selection is computed once per file and
   * crawlers that land on the same groups share one matcher, so recomputing it for each edit of a file stays cheap.
   * The list is an argument, not a default, so that code which never uses profiles does not load the catalogue.
   * @throws TypeError when `crawlers` is not an array (a programmer error).
   */
  crawlerMatrix(url: string | URL, crawlers: readonly CrawlerProfile[]): CrawlerVerdict[] {
    if (!Array.isArray(crawlers))
      throw new TypeError('crawlers must be an array of crawler profiles, such as CRAWLERS');
    const path = pathToMatch(url);
    const rows: CrawlerVerdict[] = [];
    for (const crawler of crawlers) {
      const plan = this.plan(crawler);
      const verdict = plan.matcher?.decide(path) ?? NO_RULES;
      rows.push({
        crawler,
        allowed: verdict.allowed,
        line: verdict.rule === null ? 0 : verdict.rule.line,
        rule: verdict.rule,
        groups: plan.selection.match,
        token: plan.crawler?.token ?? null,
      });
    }
    return rows;
  }

  /**
   * The `crawl-delay` that applies to a crawler: the first `crawl-delay` line with a valid value (a non-negative
   * decimal number of seconds) in the groups selected for it, in file order; null when there is none. For a profile,
   * `honoured` says whether the crawler is known to obey it (Google's crawlers do not); null when unknown, and for
   * crawlers named by a string.
   */
  crawlDelay(crawler: CrawlerInput): CrawlDelay | null {
    const plan = this.plan(crawler);
    const honoured = isCrawlerProfile(crawler) ? crawler.honoursCrawlDelay : null;
    for (const index of plan.selection.groups) {
      for (const extension of this.groups[index]!.extensions) {
        if (extension.name !== 'crawl-delay') continue;
        const seconds = crawlDelaySeconds(extension.value);
        if (seconds !== null) return { seconds, line: extension.line, honoured };
      }
    }
    return null;
  }

  /** The groups that apply to a crawler, as the dialect selects them. */
  selectGroups(crawler: CrawlerInput): { match: Selection['match']; groups: readonly RobotsGroup[] } {
    const { selection } = this.plan(crawler);
    return { match: selection.match, groups: selection.groups.map((i) => this.groups[i]!) };
  }

  /**
   * The same file read in another dialect (`'legacy'`: the 1994 convention; `'google'`: RFC 9309 as Google reads
   * it), parsed once from the same bytes and kept. Returns this object when it already is in that dialect.
   */
  inDialect(dialect: DialectName): RobotsTxt {
    if (dialect === this.dialect) return this;
    const { dialects } = this.state();
    let other = dialects.get(dialect);
    if (other === undefined) {
      other = new RobotsTxt('', { dialect }, this.text.source);
      dialects.set(dialect, other);
    }
    return other;
  }

  private plan(userAgent: CrawlerInput): AgentPlan {
    if (userAgent === this.lastProfile) return this.lastProfilePlan!;
    if (typeof userAgent !== 'string' && !Array.isArray(userAgent)) {
      if (isCrawlerProfile(userAgent)) return this.profilePlan(userAgent);
      throw new TypeError('userAgent must be a string, an array of strings or a crawler profile');
    }
    const single = typeof userAgent === 'string';
    const key = single ? userAgent : JSON.stringify(userAgent);
    if (single) this.plans ??= new RecentCache(MAX_CACHED_AGENTS);
    else this.listPlans ??= new RecentCache(MAX_CACHED_AGENTS);
    const plans = (single ? this.plans : this.listPlans)!;
    const cached = plans.get(key);
    if (cached !== undefined) return cached;
    const names: readonly string[] = single ? [userAgent] : (userAgent as readonly string[]);
    const tokens = names.map((n) => {
      if (typeof n !== 'string') throw new TypeError('userAgent must be a string or an array of strings');
      return productToken(n);
    });
    // A name reduced to an empty token (a User-Agent string naming no crawler, `(FooBot)`) matches no group, not even
    // one whose value reduces to nothing (`User-agent: *bot`): the reference compares that name as given, so it gets
    // the `*` group. Only a name that is empty as given is the empty token's (the reference's own quirk).
    const selection = this.impl.select(
      this.groups,
      tokens.filter((t, i) => t !== '' || names[i] === '').map((t) => asciiLower(t)),
    );
    const plan: AgentPlan = { tokens, selection, matcher: this.matcherFor(selection) };
    plans.set(key, plan);
    return plan;
  }

  private state(): Extras {
    this.extras ??= { dialects: new Map(), profilePlans: new WeakMap(), tokenSelections: new Map(), selector: null };
    return this.extras;
  }

  /** A profile's groups: those of the first token the file names, else `*` unless the crawler ignores it. */
  private profilePlan(profile: CrawlerProfile): AgentPlan {
    const { profilePlans } = this.state();
    let plan = profilePlans.get(profile);
    if (plan === undefined) {
      let selection: Selection | null = null;
      let token: string | null = null;
      let global: Selection = NO_GROUPS;
      for (const t of profile.tokens) {
        if (typeof t !== 'string') throw new TypeError('crawler tokens must be strings');
        const s = this.tokenSelection(t);
        if (s.match === 'specific') {
          selection = s;
          token = t;
          break;
        }
        if (s.match === 'global') global = s;
      }
      selection ??= profile.ignoresGlobalGroup ? NO_GROUPS : global;
      plan = {
        tokens: profile.tokens,
        selection,
        matcher: this.matcherFor(selection),
        crawler: { name: profile.name, token },
      };
      profilePlans.set(profile, plan);
    }
    this.lastProfile = profile;
    this.lastProfilePlan = plan;
    return plan;
  }

  /** The selection for one token of a profile; names that are not product tokens are compared with whole values. */
  private tokenSelection(token: string): Selection {
    const state = this.state();
    let selection = state.tokenSelections.get(token);
    if (selection === undefined) {
      state.selector ??= this.impl.selector(this.groups);
      const lower = [asciiLower(token)];
      selection = isValidProductToken(token) ? state.selector(lower) : state.selector(lower, { wholeValue: true });
      if (state.tokenSelections.size >= 4 * MAX_CACHED_AGENTS) state.tokenSelections.clear();
      state.tokenSelections.set(token, selection);
    }
    return selection;
  }

  private matcherFor(selection: Selection): PoolMatcher | null {
    if (selection.match === 'none') return null;
    const key = selection.groups.join(',');
    this.matchers ??= new RecentCache(MAX_CACHED_AGENTS);
    let matcher = this.matchers.get(key);
    if (matcher === undefined) {
      matcher = this.impl.matcher(selection.groups.map((i) => this.groups[i]!));
      this.matchers.set(key, matcher);
    }
    return matcher;
  }

  /** Bytes skipped at the start as a (possibly partial) UTF-8 byte order mark: 0 to 3. */
  get bomLength(): number {
    return bomLength(this.text.source.bin);
  }
}

/**
 * Parses a robots.txt. Never throws on content: any bytes give a usable result, with unparseable lines recorded in
 * {@link RobotsTxt.records}. Throws only on programmer errors (an input that is not text or bytes, a bad option).
 *
 * @example
 * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/');
 * robots.isAllowed('https://example.com/private/x', 'Googlebot'); // false
 */
export function parseRobotsTxt(input: RobotsInput, options?: ParseOptions): RobotsTxt {
  return new RobotsTxt(input, options);
}

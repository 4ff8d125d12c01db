/**
 * `aiUse`: what one file gives the catalogue's crawlers of each purpose (AI training, AI search, user-triggered AI
 * assistants, control tokens such as Google-Extended, search engines), for a report's "AI use" section. Crawlers that
 * the file's groups select alike get one answer (their groups, so their verdicts and preferences, are the same): for
 * each such set, what the rules leave it (`crawlerAccess`: nothing, everything, some paths, with the deciding lines),
 * the `Content-Usage` preferences that apply (read through `RobotsTxt.usage` at each rule's path, so the longest match
 * and the "disallowed URLs have none" rule are the engine's), what the groups' `Content-Signal` lines carry over to
 * the vocabulary and what they say beside it, and for a control token what its group asks of the uses it governs.
 * Every statement comes with its words ("AI Training (train-ai): disallowed for /x (line 4)"), so a surface shows
 * them and computes nothing.
 */

import { CRAWLERS } from '../crawlers/catalogue.js';
import { controlToken } from '../crawlers/control-tokens.js';
import type { CrawlerProfile } from '../crawlers/profile.js';
import { type CrawlerPurpose, PURPOSE_WORDS } from '../crawlers/purposes.js';
import type { GroupMatch, UsageAnswer } from '../model/types.js';
import { type RobotsTxt, sourceOf, statedUsage } from '../robots-txt/robots-txt.js';
import { type ContentUsageLine, readUsageLines } from '../usage/lines.js';
import { contentSignalKey, vocabularyLabel } from '../usage/vocabulary.js';
import { type CrawlerAccess, crawlerAccess } from './access.js';
import type { CompareOptions } from './compare.js';
import { hasUsageLines } from './usage-change.js';

/** The purposes the section shows, in its order: the AI ones, then search engines for contrast. */
export const AI_USE_PURPOSES: readonly CrawlerPurpose[] = Object.freeze([
  'ai-training',
  'ai-search',
  'ai-assistant',
  'control-token',
  'search-engine',
]);

/** Disallowed regions named per set of crawlers (the count says how many there are in all). */
const BLOCKED_SHOWN = 5;

/** One usage preference that applies, where, and which lines state it. */
export interface UsageStatement {
  /** What states it: a `Content-Usage` rule, the groups' `Content-Signal` lines, or a control token's own group. */
  readonly source: 'content-usage' | 'content-signal' | 'control-token';
  /**
   * A vocabulary label (`train-ai`), `content-signal:<key>` for a signal with no category of the same use
   * (`ai-input`, `use`), or a control token's use (`training`, `grounding`).
   */
  readonly category: string;
  /** `allow`, `disallow`, or a signal's value as written (`immediate`). */
  readonly value: string;
  /** Where it applies: the deciding rule's pattern (`/x`, `/blog/*.html$`); null for every URL the crawler may fetch. */
  readonly pattern: string | null;
  /** The lines that state it, 1-based. */
  readonly lines: readonly number[];
  /** In words: `AI Training (train-ai): disallowed for /x (line 4)`. */
  readonly text: string;
}

/** A path the rules leave out, with the line that disallows it. */
export interface BlockedPath {
  /** The pattern of the region (robots.txt syntax). */
  readonly pattern: string;
  /** The deciding `Disallow` line, 0 when none (a crawler kept out by nothing but the lack of a rule: never). */
  readonly line: number;
}

/** Crawlers the file's groups select alike, and what the file gives them. */
export interface AiUseSet {
  /** Catalogue names, in catalogue order. */
  readonly crawlers: readonly string[];
  /** Which groups apply: their own (`specific`), the `*` group (`global`), or none. */
  readonly match: GroupMatch;
  /** The first line of each group that applies. */
  readonly groupLines: readonly number[];
  /** `nothing`: every URL disallowed; `everything`: none; `some`: some paths (or the comparison was cut short). */
  readonly access: CrawlerAccess['access'];
  /** The disallowed regions, at most five (shortest first); `blockedTotal` counts them all. */
  readonly blocked: readonly BlockedPath[];
  readonly blockedTotal: number;
  /** False when a bound cut the comparison short. */
  readonly complete: boolean;
  /** The usage preferences that apply, `Content-Usage` first, then `Content-Signal`, then a control token's. */
  readonly statements: readonly UsageStatement[];
  /** What else to know, in words: a rule that applies to nothing the crawler may fetch, a value nothing reads. */
  readonly notes: readonly string[];
  /** The access in words: `blocked (line 5)`, `allowed`, `some paths blocked: /private/ (line 7)`. */
  readonly text: string;
}

/** One purpose: its crawlers, counted by what they get, in sets. */
export interface AiUsePurpose {
  readonly purpose: CrawlerPurpose;
  /** The purpose in words (`AI training`). */
  readonly label: string;
  /** Catalogue crawlers of the purpose, and how many of them get nothing, everything, or some paths. */
  readonly crawlers: number;
  readonly blocked: number;
  readonly allowed: number;
  readonly some: number;
  readonly sets: readonly AiUseSet[];
  /** `AI training: 90 crawlers: 2 blocked, 88 allowed`. */
  readonly text: string;
}

/** What a file gives the catalogue's crawlers of each purpose. */
export interface AiUse {
  readonly purposes: readonly AiUsePurpose[];
  /** Whether a group of the file has a `Content-Usage` or `Content-Signal` line. */
  readonly statesPreferences: boolean;
  /** False when a bound cut some comparison short (then `some` may be either extreme). */
  readonly complete: boolean;
}

/** Options of {@link aiUse}: the catalogue (default `CRAWLERS`), the purposes shown, and the comparison's bounds. */
export interface AiUseOptions extends Omit<CompareOptions, 'crawlers'> {
  readonly crawlers?: readonly CrawlerProfile[];
  readonly purposes?: readonly CrawlerPurpose[];
}

const PREFERENCE_WORDS: Readonly<Record<string, string>> = { allow: 'allowed', disallow: 'disallowed' };

const linesWord = (lines: readonly number[]) => `${lines.length === 1 ? 'line' : 'lines'} ${lines.join(', ')}`;

/** `AI Training (train-ai)`; a label no revision defined, as written. */
function categoryName(label: string): string {
  const row = vocabularyLabel(label);
  return row === undefined ? label : `${row.category} (${label})`;
}

function where(pattern: string | null): string {
  return pattern === null ? '' : ` for ${pattern}`;
}

/** The file's `Content-Usage` lines by line number, read once per file (their patterns as the matcher reads them). */
type UsageLinesByLine = ReadonlyMap<number, ContentUsageLine>;

/**
 * A path a normalised pattern (a rule's `pattern`, a Content-Usage line's `pattern`) matches, its wildcards matching
 * nothing (`/blog/*.html$` → `/blog/.html`; non-ASCII bytes and escapes percent-encoded as the matcher reads them, so the
 * path is ASCII); null for an empty pattern or one that is not a path.
 */
function pathOfPattern(pattern: string | null): string | null {
  if (pattern === null || !pattern.startsWith('/')) return null;
  const path = (pattern.endsWith('$') ? pattern.slice(0, -1) : pattern).replaceAll('*', '');
  return path === '' ? null : path;
}

/** The `Content-Usage` statements for one crawler: at each rule's path, what `usage` answers. */
function contentUsage(
  robots: RobotsTxt,
  usageLines: UsageLinesByLine,
  crawler: CrawlerProfile,
  notes: string[],
): UsageStatement[] {
  const statements = new Map<string, UsageStatement>();
  const { groups } = robots.selectGroups(crawler);
  for (const group of groups) {
    for (const extension of group.extensions) {
      if (extension.name !== 'content-usage') continue;
      const path = pathOfPattern(usageLines.get(extension.line)?.pattern ?? null);
      if (path === null) {
        notes.push(`line ${extension.line}: a Content-Usage rule without a path applies to nothing`);
        continue;
      }
      const answer = robots.usage(path, crawler);
      if (!answer.crawlable) {
        notes.push(`line ${extension.line} does not apply: the crawler may not fetch ${path}`);
        continue;
      }
      const lines = answer.rules.map((r) => r.line);
      if (Object.keys(answer.preferences).length === 0 && answer.rules.some((r) => r.line === extension.line)) {
        notes.push(`line ${extension.line}: no category is stated (every category unknown)`);
      }
      const pattern = answer.rules[0]?.pattern ?? path;
      for (const [category, value] of Object.entries(answer.preferences)) {
        const key = `${category} ${value} ${lines.join(',')}`;
        if (statements.has(key)) continue;
        statements.set(key, {
          source: 'content-usage',
          category,
          value,
          pattern,
          lines,
          text: `${categoryName(category)}: ${PREFERENCE_WORDS[value]}${where(pattern)} (${linesWord(lines)})`,
        });
      }
    }
  }
  return [...statements.values()].sort(
    (a, b) => a.category.localeCompare(b.category) || (a.pattern ?? '').length - (b.pattern ?? '').length,
  );
}

/** The `Content-Signal` statements of the crawler's groups (the same for every path it may fetch). */
function contentSignal(answer: UsageAnswer | null): UsageStatement[] {
  const signal = answer?.contentSignal ?? null;
  if (signal === null) return [];
  const lines = signal.lines;
  const said = `Content-Signal ${Object.entries(signal.signals)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')}`;
  const mapped = Object.entries(signal.preferences).map(([category, value]) => ({
    source: 'content-signal' as const,
    category,
    value,
    pattern: null,
    lines,
    text: `${categoryName(category)}: ${PREFERENCE_WORDS[value]} (${said}, ${linesWord(lines)})`,
  }));
  const beside = Object.entries(signal.unmapped).map(([key, value]) => {
    const note = contentSignalKey(key)?.note;
    return {
      source: 'content-signal' as const,
      category: `content-signal:${key}`,
      value,
      pattern: null,
      lines,
      text: `Content-Signal ${key}=${value} (${linesWord(lines)})${note === undefined ? ': a key Cloudflare does not define' : `: no vocabulary category of the same use (${note})`}`,
    };
  });
  return [...mapped, ...beside];
}

/** What a control token's group asks of the uses it governs, from what the rules leave it. */
function controlStatements(crawler: CrawlerProfile, access: CrawlerAccess): UsageStatement[] {
  const token = controlToken(crawler.name);
  if (token === undefined) return [];
  const name = (use: string) => `${use} (${token.token}, on what ${token.operator}'s crawlers fetch)`;
  if (access.access === 'everything') {
    return token.governs.map((use) => ({
      source: 'control-token' as const,
      category: use,
      value: 'allow',
      pattern: null,
      lines: [],
      text: `${name(use)}: allowed (no rule disallows ${token.token})`,
    }));
  }
  if (access.access === 'nothing') {
    const lines = blockingLines(access);
    return token.governs.map((use) => ({
      source: 'control-token' as const,
      category: use,
      value: 'disallow',
      pattern: null,
      lines,
      text: `${name(use)}: disallowed for every URL${lines.length > 0 ? ` (${linesWord(lines)})` : ''}`,
    }));
  }
  return access.blocked.slice(0, BLOCKED_SHOWN).flatMap((region) =>
    token.governs.map((use) => ({
      source: 'control-token' as const,
      category: use,
      value: 'disallow',
      pattern: region.pattern,
      lines: region.before === null ? [] : [region.before.line],
      text: `${name(use)}: disallowed for ${region.pattern}${region.before === null ? '' : ` (line ${region.before.line})`}`,
    })),
  );
}

/** The lines that disallow a crawler's regions, in order, each once. */
function blockingLines(access: CrawlerAccess): number[] {
  const lines = new Set<number>();
  for (const region of access.blocked) if (region.before !== null) lines.add(region.before.line);
  return [...lines].sort((a, b) => a - b);
}

function accessText(access: CrawlerAccess, blocked: readonly BlockedPath[]): string {
  const at = (b: BlockedPath) => `${b.pattern}${b.line > 0 ? ` (line ${b.line})` : ''}`;
  if (access.access === 'everything') return 'allowed: no rule blocks any URL';
  if (access.access === 'nothing') {
    const lines = blockingLines(access);
    return `blocked: every URL${lines.length > 0 ? ` (${linesWord(lines)})` : ''}`;
  }
  const more = access.blocked.length > blocked.length ? ` and ${access.blocked.length - blocked.length} more` : '';
  const cut = access.complete ? '' : ' (the comparison was cut short: more may be blocked)';
  return `some paths blocked: ${blocked.map(at).join(', ')}${more}${cut}`;
}

/** The key of a crawler's selection: crawlers with equal keys get equal answers. */
function selectionKey(robots: RobotsTxt, crawler: CrawlerProfile): string {
  const { match, groups } = robots.selectGroups(crawler);
  return `${match}:${groups.map((g) => g.index).join(',')}`;
}

/**
 * What `robots` gives the catalogue's crawlers of each purpose (default: AI training, AI search, AI assistants,
 * control tokens, search engines): per set of crawlers the groups select alike, whether the rules leave them nothing,
 * everything or some paths, and the usage preferences that apply, each with its words and deciding lines. Bounded
 * like {@link crawlerAccess} (`maxStates`, `timeoutMs`).
 *
 * @example
 * aiUse(parseRobotsTxt('User-agent: GPTBot\nDisallow: /\n')).purposes[0].text // 'AI training: … 1 blocked, …'
 */
export function aiUse(robots: RobotsTxt, options: AiUseOptions = {}): AiUse {
  const catalogue = options.crawlers ?? CRAWLERS;
  const purposes = options.purposes ?? AI_USE_PURPOSES;
  // Crawlers by selection: one representative per distinct selection is compared, once for every purpose.
  const bySelection = new Map<string, CrawlerProfile>();
  const keyOf = new Map<CrawlerProfile, string>();
  for (const crawler of catalogue) {
    if (!purposes.includes(crawler.purpose)) continue;
    // Control tokens answer per token (what each governs differs), so they never share a set with another crawler.
    const key = `${selectionKey(robots, crawler)}${crawler.purpose === 'control-token' ? `:${crawler.name}` : ''}`;
    keyOf.set(crawler, key);
    if (!bySelection.has(key)) bySelection.set(key, crawler);
  }
  const representatives = [...bySelection.values()];
  const accessOf = new Map<string, CrawlerAccess>();
  const bounds = {
    ...(options.maxStates === undefined ? {} : { maxStates: options.maxStates }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  };
  const keys = [...bySelection.keys()];
  crawlerAccess(robots, representatives, bounds).forEach((access, i) => {
    accessOf.set(keys[i] as string, access);
  });
  const statesPreferences = hasUsageLines(robots);
  const usageLines: UsageLinesByLine = statesPreferences ? readUsageLines(sourceOf(robots)).usage : new Map();

  const sets = new Map<string, AiUseSet>();
  const setOf = (key: string): AiUseSet => {
    const known = sets.get(key);
    if (known !== undefined) return known;
    const crawler = bySelection.get(key) as CrawlerProfile;
    const access = accessOf.get(key) as CrawlerAccess;
    const blocked = access.blocked
      .slice(0, BLOCKED_SHOWN)
      .map((r) => ({ pattern: r.pattern, line: r.before?.line ?? 0 }));
    const notes: string[] = [];
    const statements: UsageStatement[] = [];
    if (statesPreferences && access.access !== 'nothing') {
      statements.push(...contentUsage(robots, usageLines, crawler, notes));
      // The signal is the same for every path the crawler may fetch: read it at a shortest one (the comparison's), else
      // (a bound cut it short) at `/` or a path the rules name that it may fetch.
      statements.push(...contentSignal(signalAnswer(robots, usageLines, crawler, access)));
    }
    if (crawler.purpose === 'control-token') statements.push(...controlStatements(crawler, access));
    const { match, groups } = robots.selectGroups(crawler);
    const set: AiUseSet = {
      crawlers: [],
      match,
      groupLines: groups.map((g) => g.startLine),
      access: access.access,
      blocked,
      blockedTotal: access.blocked.length,
      complete: access.complete,
      statements,
      notes,
      text: accessText(access, blocked),
    };
    sets.set(key, set);
    return set;
  };

  const result = purposes.map((purpose): AiUsePurpose => {
    const members = catalogue.filter((c) => c.purpose === purpose);
    const own = new Map<string, { set: AiUseSet; crawlers: string[] }>();
    for (const crawler of members) {
      const key = keyOf.get(crawler) as string;
      let entry = own.get(key);
      if (entry === undefined) {
        entry = { set: setOf(key), crawlers: [] };
        own.set(key, entry);
      }
      entry.crawlers.push(crawler.name);
    }
    const purposeSets = [...own.values()].map(({ set, crawlers }) => ({ ...set, crawlers }));
    const count = (access: CrawlerAccess['access']) =>
      purposeSets.filter((s) => s.access === access).reduce((n, s) => n + s.crawlers.length, 0);
    const blocked = count('nothing');
    const allowed = count('everything');
    const some = count('some');
    const label = PURPOSE_WORDS[purpose];
    const parts = [
      blocked > 0 ? `${blocked} blocked` : null,
      some > 0 ? `${some} blocked on some paths` : null,
      allowed > 0 ? `${allowed} allowed` : null,
    ].filter((p) => p !== null);
    const crawlers = members.length;
    return {
      purpose,
      label,
      crawlers,
      blocked,
      allowed,
      some,
      sets: purposeSets,
      text: `${label}: ${crawlers === 1 ? '1 crawler' : `${crawlers} crawlers`}${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`,
    };
  });
  return { purposes: result, statesPreferences, complete: [...accessOf.values()].every((a) => a.complete) };
}

/** What `usage` answers at a path the crawler may fetch (where the groups' signal applies); null when none is known. */
function signalAnswer(
  robots: RobotsTxt,
  usageLines: UsageLinesByLine,
  crawler: CrawlerProfile,
  access: CrawlerAccess,
): UsageAnswer | null {
  if (access.open !== null) return statedUsage(robots, access.open, crawler);
  const open = witnessOpen(robots, usageLines, crawler);
  return open === null ? null : robots.usage(open, crawler);
}

/** A path the crawler may fetch, among `/` and the paths the file's rules name; null when none is. */
function witnessOpen(robots: RobotsTxt, usageLines: UsageLinesByLine, crawler: CrawlerProfile): string | null {
  if (robots.isAllowed('/', crawler)) return '/';
  for (const group of robots.selectGroups(crawler).groups) {
    for (const rule of group.rules) {
      const path = pathOfPattern(rule.pattern);
      if (path !== null && robots.isAllowed(path, crawler)) return path;
    }
    for (const extension of group.extensions) {
      if (extension.name !== 'content-usage') continue;
      const path = pathOfPattern(usageLines.get(extension.line)?.pattern ?? null);
      if (path !== null && robots.isAllowed(path, crawler)) return path;
    }
  }
  return null;
}

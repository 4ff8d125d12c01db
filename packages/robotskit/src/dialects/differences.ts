/**
 * Where the two dialects read a file differently: the places a crawler following the 1994 convention (`legacy`)
 * and Google (`google`) can decide differently. Plain data for tools (the linter wraps it as a rule).
 */

import { CRAWLERS } from '../crawlers/catalogue.js';
import type { Range, RobotsGroup, RobotsRecord, RobotsRule } from '../model/types.js';
import type { RobotsInput } from '../parse/input.js';
import { type ParseOptions, parseRobotsTxt, RobotsTxt } from '../robots-txt/robots-txt.js';
import { isValidProductToken } from '../url/user-agent.js';

/** What reads differently. */
export type DialectDifferenceKind =
  /** A blank line inside a Google group: the 1994 reading ends the record there. */
  | 'blank-line-in-group'
  /** Several groups name the same crawler (or several `*` groups): Google merges them, the 1994 reading uses the first. */
  | 'merged-groups'
  /** A group names `*` and other crawlers: Google applies it to those crawlers; the 1994 reading only as the default. */
  | 'global-with-names'
  /**
   * A user-agent value the two readings match differently: Google reads a product token and compares it exactly;
   * the 1994 reading looks for the whole value inside the crawler's name.
   */
  | 'prefix-vs-token'
  /** An empty user-agent value: no crawler's group for Google, every crawler's record for the 1994 reading. */
  | 'empty-user-agent'
  /** A `*` in a rule: a wildcard for Google, a literal character for the 1994 reading. */
  | 'wildcard'
  /** A `$` ending a rule: the end of the URL for Google, a literal character for the 1994 reading. */
  | 'dollar-anchor'
  /** Rules of different kinds where Google's longest match and the 1994 first match pick different rules. */
  | 'allow-order'
  /** An empty `Disallow:`/`Allow:` before other rules: no rule for Google, "allow everything" first for the 1994 reading. */
  | 'empty-rule'
  /** `%xx` escapes (or characters URLs escape) in a rule: compared as written by Google, decoded by the 1994 reading. */
  | 'percent-encoding'
  /** `allow: …/index.html`: Google also allows the directory URL itself; the 1994 reading does not. */
  | 'index-html'
  /** A line Google reads through its leniency (typo, prefixed name, missing colon) and the 1994 reading ignores. */
  | 'field-spelling'
  /** A `crawl-delay` or `request-rate` line between user-agent lines: it ends the 1994 record's user-agent list. */
  | 'crawl-delay-ends-record';

/** A short title for each kind of difference, for lists and headings. */
export const DIALECT_DIFFERENCE_TITLES: Readonly<Record<DialectDifferenceKind, string>> = Object.freeze({
  'blank-line-in-group': 'Blank line inside a group',
  'merged-groups': 'Groups naming the same crawler',
  'global-with-names': '* named with other crawlers',
  'prefix-vs-token': 'User-agent matched differently',
  'empty-user-agent': 'Empty user-agent',
  wildcard: 'Wildcard *',
  'dollar-anchor': 'End anchor $',
  'allow-order': 'Longest match vs first match',
  'empty-rule': 'Empty rule',
  'percent-encoding': 'Percent-encoding',
  'index-html': 'index.html rule',
  'field-spelling': 'Misspelt field',
  'crawl-delay-ends-record': 'Crawl-delay ends the record',
});

/** One place where the dialects read a file differently. */
export interface DialectDifference {
  readonly kind: DialectDifferenceKind;
  /** 1-based line where it starts (the first of {@link DialectDifference.lines}). */
  readonly line: number;
  /** Every line involved, in order. */
  readonly lines: readonly number[];
  /** From the start of the first line involved to the end of the last, in the units of the input. */
  readonly range: Range;
  /** What Google does, in words. */
  readonly google: string;
  /** What a crawler following the 1994 convention does, in words. */
  readonly legacy: string;
}

/** At most this many `allow-order` differences per group: a large group could otherwise give thousands. */
const MAX_ORDER_PAIRS_PER_GROUP = 20;

/** Characters URLs carry percent-encoded (WHATWG path and query sets), which Google matches only as written. */
const ESCAPED_IN_URLS = /[ "<>`{}]/;
const ESCAPE = /%[0-9A-Fa-f]{2}/g;

function quote(text: string): string {
  return `\`${text}\``;
}

function list(lines: readonly number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  return `lines ${lines.slice(0, -1).join(', ')} and ${lines[lines.length - 1]}`;
}

/** Lines of rules of a group in the Google reading: the literal prefix a rule matches, or null for a wildcard rule. */
function literalOf(rule: RobotsRule): string | null {
  const p = rule.pattern;
  if (p.includes('*') || p.endsWith('$')) return null;
  return p;
}

/** Polynomial hash moduli and base: two independent hashes, combined into one safe integer key. */
const MOD_A = 67_108_859; // prime below 2^26
const MOD_B = 67_108_837; // prime below 2^26
const BASE = 131;

/**
 * The literal rules of a group seen so far, found by prefix in time linear in the literal looked up: every prefix
 * is hashed incrementally (one step per character) instead of sliced and hashed anew, which made a group of long
 * rules quadratic. A hash hit is confirmed by comparing the text before it is reported.
 */
class PrefixIndex {
  /** First rule per literal, keyed by the hash of the literal (length included through the hash walk). */
  private readonly byHash = new Map<number, RobotsRule[]>();
  /** Lengths of the literals added, so lookups stop at the longest. */
  private longest = 0;

  private static key(a: number, b: number): number {
    return a * 67_108_864 + b;
  }

  private static hash(text: string): number {
    let a = 0;
    let b = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = (a * BASE + c) % MOD_A;
      b = (b * BASE + c) % MOD_B;
    }
    return PrefixIndex.key(a, b);
  }

  /** Records `literal` for `rule`, unless an earlier rule has the same literal. */
  add(literal: string, rule: RobotsRule): void {
    const key = PrefixIndex.hash(literal);
    const bucket = this.byHash.get(key);
    if (bucket === undefined) this.byHash.set(key, [rule]);
    else if (!bucket.some((r) => r.pattern === literal)) bucket.push(rule);
    if (literal.length > this.longest) this.longest = literal.length;
  }

  /**
   * The shortest earlier literal that `literal` starts with and whose first rule is of the other kind than `kind`
   * (of the same length only when `kind` is allow: an equally long allow wins for Google); null when there is none.
   */
  firstPrefixOf(literal: string, kind: RobotsRule['kind']): RobotsRule | null {
    let a = 0;
    let b = 0;
    const end = Math.min(literal.length, this.longest);
    for (let len = 1; len <= end; len++) {
      const c = literal.charCodeAt(len - 1);
      a = (a * BASE + c) % MOD_A;
      b = (b * BASE + c) % MOD_B;
      const bucket = this.byHash.get(PrefixIndex.key(a, b));
      if (bucket === undefined) continue;
      if (len === literal.length && kind !== 'allow') continue;
      for (const earlier of bucket) {
        // Confirm the hit (a different literal can share the hash); only rules of the other kind need it.
        if (earlier.kind === kind || earlier.pattern.length !== len) continue;
        if (literal.startsWith(earlier.pattern)) return earlier;
      }
    }
    return null;
  }
}

let knownTokens: readonly string[] | null = null;

/** Every token of the crawler catalogue, lower-cased, once each. */
function catalogueTokens(): readonly string[] {
  knownTokens ??= [...new Set(CRAWLERS.flatMap((c) => c.tokens.map((t) => t.toLowerCase())))];
  return knownTokens;
}

class Finder {
  readonly found: DialectDifference[] = [];
  private readonly records: readonly RobotsRecord[];
  private readonly google: RobotsTxt;
  /** Lines of blank records, ascending. */
  private readonly blanks: readonly number[];

  constructor(google: RobotsTxt) {
    this.google = google;
    this.records = google.records;
    this.blanks = this.records.filter((r) => r.kind === 'blank').map((r) => r.line);
  }

  /** The first blank line after `line`, or 0. */
  private blankAfter(line: number): number {
    const blanks = this.blanks;
    let lo = 0;
    let hi = blanks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (blanks[mid]! <= line) lo = mid + 1;
      else hi = mid;
    }
    return blanks[lo] ?? 0;
  }

  add(kind: DialectDifferenceKind, lines: readonly number[], google: string, legacy: string): void {
    const sorted = [...new Set(lines)].sort((a, b) => a - b);
    const first = this.records[sorted[0]! - 1]!;
    const last = this.records[sorted[sorted.length - 1]! - 1]!;
    this.found.push({
      kind,
      line: sorted[0]!,
      lines: sorted,
      range: { start: first.range.start, end: last.range.end },
      google,
      legacy,
    });
  }

  run(): DialectDifference[] {
    this.fieldSpelling();
    for (const group of this.google.groups) {
      this.blankLines(group);
      this.crawlDelayInAgents(group);
      this.rules(group);
    }
    this.agents();
    return this.found.sort((a, b) => a.line - b.line || a.lines.length - b.lines.length);
  }

  /** Lines Google reads only through its leniency. */
  private fieldSpelling(): void {
    for (const r of this.records) {
      if (r.kind !== 'directive' || r.field === 'unknown' || r.field === null) continue;
      const how = r.flags.missingColon
        ? 'without its colon'
        : r.flags.typo
          ? `with the misspelt name ${quote(r.key)}`
          : r.flags.prefixKey
            ? `with the name ${quote(r.key)}, which only starts with ${quote(r.field)}`
            : null;
      if (how === null) continue;
      this.add(
        'field-spelling',
        [r.line],
        `Google reads line ${r.line} as a ${quote(r.field)} line ${how}.`,
        `The 1994 convention needs the exact field name followed by a colon: line ${r.line} is ignored.`,
      );
    }
  }

  /** Blank lines inside a group (between its first user-agent line and its last line). */
  private blankLines(group: RobotsGroup): void {
    const line = this.blankAfter(group.startLine);
    if (line === 0 || line >= group.endLine) return;
    const blank = { line };
    const after = [
      ...group.agents.filter((a) => a.line > blank.line).map((a) => ({ line: a.line, agent: true })),
      ...group.rules.filter((r) => r.line > blank.line).map((r) => ({ line: r.line, agent: false })),
    ].sort((a, b) => a.line - b.line);
    const rulesBefore = group.rules.some((r) => r.line < blank.line);
    const agentsBefore = group.agents.filter((a) => a.line < blank.line).map((a) => quote(a.value));
    const next = after[0];
    let legacy: string;
    if (next === undefined) {
      legacy = `The blank line on line ${blank.line} ends the record; the lines after it until the next user-agent line belong to no record.`;
    } else if (next.agent) {
      legacy = rulesBefore
        ? `The blank line on line ${blank.line} ends the record; line ${next.line} starts a new record, so the rules above do not apply to the user-agents named after the blank line, nor those below to the ones named before it.`
        : `The blank line on line ${blank.line} ends the record for ${agentsBefore.join(', ')} before any rule: that record is dropped, and those crawlers fall back to the * record.`;
    } else {
      const ignored = after.filter((a) => !a.agent).map((a) => a.line);
      legacy = rulesBefore
        ? `The blank line on line ${blank.line} ends the record: the rules on ${list(ignored)} belong to no record and are ignored.`
        : `The blank line on line ${blank.line} ends the record for ${agentsBefore.join(', ')} before any rule: the record is dropped and the rules on ${list(ignored)} are ignored.`;
    }
    this.add(
      'blank-line-in-group',
      [blank.line, ...after.map((a) => a.line)],
      `Google reads lines ${group.startLine}–${group.endLine} as one group: blank lines do not end a group.`,
      legacy,
    );
  }

  /** A crawl-delay (or request-rate) line between user-agent lines of one group. */
  private crawlDelayInAgents(group: RobotsGroup): void {
    const firstRule = group.rules[0]?.line ?? Number.POSITIVE_INFINITY;
    // The last user-agent line before the first rule: an extension line before it is between user-agent lines.
    let lastAgent = 0;
    for (const a of group.agents) if (a.line < firstRule && a.line > lastAgent) lastAgent = a.line;
    for (const ext of group.extensions) {
      if (ext.name !== 'crawl-delay' && ext.name !== 'request-rate') continue;
      if (ext.line > lastAgent) continue;
      const later = group.agents.filter((a) => a.line > ext.line && a.line < firstRule);
      const earlier = group.agents.filter((a) => a.line < ext.line).map((a) => quote(a.value));
      this.add(
        'crawl-delay-ends-record',
        [ext.line, ...later.map((a) => a.line)],
        `Google ignores line ${ext.line} for grouping: the user-agents before and after it share the group's rules.`,
        `Line ${ext.line} completes the record for ${earlier.join(', ')}: the user-agent line ${later[0]!.line} starts a new record, so those crawlers get no rules from it.`,
      );
      return;
    }
  }

  private rules(group: RobotsGroup): void {
    const rules = group.rules;
    let pairs = 0;
    const literalsBefore = new PrefixIndex();
    let emptySeen = false;
    for (let j = 0; j < rules.length; j++) {
      const rule = rules[j]!;
      const p = rule.pattern;
      if (p === '') {
        // The first empty rule already hides every rule after it (later empty ones included): one difference.
        if (!emptySeen && j < rules.length - 1) {
          emptySeen = true;
          const hidden = rules.slice(j + 1).map((r) => r.line);
          this.add(
            'empty-rule',
            [rule.line, ...hidden],
            `Google reads the empty ${quote(`${rule.kind}:`)} on line ${rule.line} as no rule: the other rules of the group apply.`,
            `An empty value allows every URL, and the first matching rule decides: the rules on ${list(hidden)} never apply.`,
          );
        }
        continue;
      }
      const star = p.indexOf('*');
      if (star >= 0) {
        this.add(
          'wildcard',
          [rule.line],
          `Google reads ${quote('*')} in ${quote(p)} (line ${rule.line}) as any sequence of characters.`,
          `The 1994 convention has no wildcards: ${quote(p)} matches only URLs whose path starts with it literally, ${quote('*')} included.`,
        );
      }
      if (p.endsWith('$')) {
        this.add(
          'dollar-anchor',
          [rule.line],
          `Google reads the final ${quote('$')} of ${quote(p)} (line ${rule.line}) as the end of the URL.`,
          `The 1994 convention reads ${quote('$')} as a literal character: ${quote(p)} matches only paths that contain it.`,
        );
      }
      const escapes = p.match(ESCAPE)?.filter((e) => e.toUpperCase() !== '%2F') ?? [];
      if (escapes.length > 0 || ESCAPED_IN_URLS.test(p)) {
        this.add(
          'percent-encoding',
          [rule.line],
          escapes.length > 0
            ? `Google compares ${quote(p)} (line ${rule.line}) with URLs as written: ${escapes.map(quote).join(', ')} matches only the same escape, not the character it stands for.`
            : `Google compares ${quote(p)} (line ${rule.line}) with URLs as written; URLs carry spaces and quotes escaped (${quote('%20')}, ${quote('%22')}), so it never matches them.`,
          `The 1994 convention decodes escapes in the rule and in the URL before comparing: ${quote(p)} matches the same URLs whether they spell those characters escaped or not.`,
        );
      }
      if (rule.kind === 'allow') {
        const slash = p.lastIndexOf('/');
        if (slash >= 0 && p.startsWith('/index.htm', slash)) {
          this.add(
            'index-html',
            [rule.line],
            `Google's ${quote(p)} (line ${rule.line}) also allows exactly ${quote(p.slice(0, slash + 1))}.`,
            `The 1994 convention allows only URLs starting with ${quote(p)}.`,
          );
        }
      }
      const literal = literalOf(rule);
      if (literal !== null) {
        // An earlier rule of the other kind whose prefix this one extends: for the URLs this one matches, Google
        // picks this one (longer, or as long and an allow) and the 1994 reading the earlier one.
        if (pairs < MAX_ORDER_PAIRS_PER_GROUP) {
          const earlier = literalsBefore.firstPrefixOf(literal, rule.kind);
          if (earlier !== null) {
            const len = earlier.pattern.length;
            pairs++;
            this.add(
              'allow-order',
              [earlier.line, rule.line],
              `For URLs starting with ${quote(literal)}, Google applies the ${len === literal.length ? 'equally long allow' : 'longer'} rule on line ${rule.line} (${rule.kind}).`,
              `The first matching rule decides: line ${earlier.line} (${earlier.kind}: ${earlier.pattern}) comes first and matches those URLs too, so they are ${earlier.kind === 'allow' ? 'allowed' : 'disallowed'}.`,
            );
          }
        }
        literalsBefore.add(literal, rule);
      }
    }
  }

  /** User-agent values: merged groups, `*` mixed with names, values matched differently. */
  private agents(): void {
    const byToken = new Map<string, { lines: number[]; groups: Set<number> }>();
    const globals: number[] = [];
    for (const group of this.google.groups) {
      const names = group.agents.filter((a) => !a.global);
      if (group.agents.some((a) => a.global)) {
        globals.push(group.agents.find((a) => a.global)!.line);
        if (names.length > 0) {
          this.add(
            'global-with-names',
            group.agents.map((a) => a.line),
            `Google applies the group on line ${group.startLine} to ${names.map((a) => quote(a.value)).join(', ')} as their own group, and to other crawlers as the * group.`,
            `A record naming * is the default record only: ${names.map((a) => quote(a.value)).join(', ')} look for a record of their own first, and use this one only when there is none.`,
          );
        }
      }
      for (const agent of names) {
        const token = agent.token.toLowerCase();
        if (agent.value === '') {
          this.add(
            'empty-user-agent',
            [agent.line],
            `Google reads the empty user-agent on line ${agent.line} as naming no crawler.`,
            `The 1994 reading looks for the value inside the crawler's name, and the empty value is inside every name: the record applies to every crawler that finds no record before it.`,
          );
          continue;
        }
        if (token !== '') {
          const seen = byToken.get(token) ?? { lines: [], groups: new Set<number>() };
          seen.lines.push(agent.line);
          seen.groups.add(group.index);
          byToken.set(token, seen);
        }
        this.agentValue(agent.value, token, agent.line);
      }
    }
    for (const [token, { lines, groups }] of byToken) {
      if (groups.size < 2) continue;
      this.add(
        'merged-groups',
        lines,
        `Google merges the groups naming ${quote(token)} (${list(lines)}) and applies all their rules.`,
        `Only the first record naming ${quote(token)} (line ${lines[0]}) applies; the others are ignored for it.`,
      );
    }
    if (globals.length > 1) {
      this.add(
        'merged-groups',
        globals,
        `Google merges the * groups (${list(globals)}) into one.`,
        `Only the first * record (line ${globals[0]}) is the default record; the others are ignored.`,
      );
    }
  }

  private agentValue(value: string, token: string, line: number): void {
    const lower = value.toLowerCase();
    if (!isValidProductToken(value)) {
      const googleReads =
        token === ''
          ? `Google reads no product token in ${quote(value)} (line ${line}): the group applies to no crawler.`
          : `Google reads the product token ${quote(token)} from ${quote(value)} (line ${line}) and applies the group to crawlers named exactly that.`;
      const star = value.startsWith('*');
      this.add(
        'prefix-vs-token',
        [line],
        star ? `Google reads ${quote(value)} (line ${line}) as the * group.` : googleReads,
        lower.includes('/')
          ? `The 1994 reading looks for the whole value ${quote(lower)} inside the crawler's name without its version, which never contains ${quote('/')}: the record applies to no crawler.`
          : `The 1994 reading looks for the whole value ${quote(lower)} inside the crawler's name: the record applies only to crawlers whose name contains it.`,
      );
      return;
    }
    const wider = catalogueTokens().filter((t) => t !== lower && t.includes(lower));
    if (wider.length === 0) return;
    this.add(
      'prefix-vs-token',
      [line],
      `Google applies the group of ${quote(value)} (line ${line}) only to crawlers named exactly ${quote(value)}.`,
      `The 1994 reading looks for ${quote(lower)} inside the crawler's name: the record also applies to ${wider
        .slice(0, 4)
        .map(quote)
        .join(
          ', ',
        )}${wider.length > 4 ? ` and ${wider.length - 4} more known crawlers` : ''} (when no earlier record names them).`,
    );
  }
}

/**
 * Where Google (RFC 9309, `google` dialect) and a crawler following the 1994 convention (`legacy` dialect) read a
 * robots.txt differently, in file order: blank lines inside groups, merged groups, wildcards, `$`, rule order,
 * escapes, user-agent matching, lines only Google's leniency accepts. Each difference says where (lines and offsets)
 * and what each reading does, in words. A file with no difference may still get different verdicts only through the
 * legacy dialect's documented corner cases (see `src/match/legacy.ts`).
 *
 * @param input A parsed file (in either dialect) or the text or bytes of one.
 * @param options Parse options when `input` is not parsed yet (`dialect` is ignored).
 * @example
 * dialectDifferences('User-agent: *\nDisallow: /*.php\n')[0].kind; // 'wildcard'
 */
export function dialectDifferences(input: RobotsTxt | RobotsInput, options?: ParseOptions): DialectDifference[] {
  const robots = input instanceof RobotsTxt ? input : parseRobotsTxt(input, { ...options, dialect: 'google' });
  return new Finder(robots.inDialect('google')).run();
}

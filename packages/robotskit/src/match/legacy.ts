/**
 * The `legacy` dialect: the original 1994 convention ("A Standard for Robot Exclusion", seed 002), with `Allow` as the
 * 1996 Internet-Draft added it, read the way Python's `urllib.robotparser` reads it. `urllib.robotparser` is the
 * executable reference (the tests run it); where it and the texts part ways, the choice is written down here.
 *
 * Following `urllib.robotparser` (the 1994 text agrees or is silent):
 * - Records: user-agent lines, then rule lines. A blank line ends the record; a user-agent line after a rule line
 *   starts a new one even without a blank line. A record whose user-agent lines are followed by a blank line before
 *   any rule is dropped, and rule lines outside a record (after a blank line, or before any user-agent) are ignored.
 *   `crawl-delay` and `request-rate` count as rule lines for this; other unknown fields and `sitemap` end nothing.
 * - Field names: exact, ASCII case-insensitive, with a colon. Google's typos (`useragent`), prefixes (`disallowed`)
 *   and lines without a colon are not fields.
 * - Selection: the first record (in file order) with a user-agent value that, lower-cased, is a substring of the
 *   crawler's name (the text before its first `/`, lower-cased): `Googlebot` also reads a record for `google` or
 *   `bot`, and an empty value names every crawler. Records are never merged. The first record naming `*` is the
 *   default record, used when no other record names the crawler; a record naming `*` is only that (the 1994 text: the
 *   default record is for robots "that have not matched any of the other records"); later `*` records are ignored.
 * - Matching: the first rule (in file order) whose value is a prefix of the path decides; no wildcards (`*` and `$`
 *   are literal characters); no rule matching means allowed. An empty `Disallow:` or `Allow:` matches every path and
 *   allows it ("an empty value indicates that all URLs can be retrieved"), so it hides every rule after it.
 * - `%xx` escapes are decoded in both the rule and the path before comparing, and non-ASCII characters are compared
 *   as their UTF-8 octets; the path includes the query.
 *
 * Following the 1994/1996 texts instead (each is a category of the agreement report, `npm run bench -- dialects`):
 * - `whitespace-line`: a line of spaces or tabs is a blank line (urllib tests for blank lines before stripping them).
 * - `bom`: a leading UTF-8 byte order mark is skipped (urllib reads it as part of the first field name and loses the
 *   first user-agent line).
 * - `line-breaks`: only CR, LF and CRLF end lines (urllib's `splitlines` also splits at VT, FF, FS, GS, RS, NEL,
 *   U+2028 and U+2029).
 * - `fragment`: a URL's `#fragment` is not part of the path (urllib matches it as `%23…`).
 * - `empty-path`: a URL with no path is `/` (urllib matches `https://h?q=1` as `%3Fq%3D1`, which `Disallow: /`
 *   does not cover).
 * - `rule-reparse`: a rule's value is used as written (urllib passes it through `urlparse`/`urlunparse`, which drops
 *   a trailing `?` or `;`: `Disallow: /search?` becomes `/search`).
 * - `encoded-slash`: `%2F` stays distinct from `/` (the 1996 draft; urllib decodes it).
 * - `agent-escapes`: user-agent values are not percent-decoded (urllib decodes them).
 * - `limits`: the engine's shared limits apply: the first 500 KiB, 16,663 bytes per line, a NUL ends a line's content.
 * Smaller differences: the engine trims ASCII whitespace and lower-cases ASCII letters (Python: all of Unicode), and
 * compares invalid UTF-8 octet by octet (urllib decodes both sides to U+FFFD first).
 *
 * A caller's full User-Agent string is reduced to its crawler token first (see `productToken`); urllib would take the
 * text before the first `/` (`Mozilla`).
 */

import type { Dialect, GroupBuilder, PoolMatcher, Selection, Verdict } from '../model/dialect.js';
import type { SourceText } from '../model/source-text.js';
import type { DecidingRule, RobotsAgent, RobotsExtension, RobotsGroup, RobotsRule } from '../model/types.js';
import { decodedOctets } from '../url/octets.js';
import { asciiLower } from '../url/user-agent.js';
import { finishGroups, Group, pooledRules, RuleTable } from './group.js';

/** Fields that make a record complete, besides allow and disallow (as urllib counts them). */
const RECORD_FIELDS = new Set(['crawl-delay', 'request-rate']);

class LegacyGroupBuilder implements GroupBuilder {
  private readonly text: SourceText;
  private readonly table = new RuleTable();
  private readonly groups: Group[] = [];
  /** The record being read, from its first user-agent line until a blank line. */
  private current: Group | null = null;
  /** The current record has a rule line (or crawl-delay, request-rate): it is kept when it ends. */
  private complete = false;

  constructor(text: SourceText) {
    this.text = text;
  }

  userAgent(agent: RobotsAgent): void {
    if (this.current !== null && this.complete) this.end();
    if (this.current === null) this.current = new Group(this.text, this.table, this.groups.length, agent.line);
    // One robot name per line: only the value `*` itself makes the default record (`* foo` names a robot `* foo`).
    const global = agent.value === '*';
    this.current.addAgent(global === agent.global ? agent : { ...agent, global });
    this.current.endLine = agent.line;
  }

  rule(allow: boolean, line: number, start: number, end: number): boolean {
    if (this.current === null) return false;
    this.current.addRule(allow, line, start, end);
    this.complete = true;
    return true;
  }

  extension(extension: RobotsExtension): void {
    if (this.current === null) return;
    this.current.addExtension(extension);
    this.current.endLine = extension.line;
    if (RECORD_FIELDS.has(extension.name)) this.complete = true;
  }

  blank(): void {
    this.end();
  }

  /** Ends the current record: kept when complete, dropped (its user-agent lines forgotten) when not. */
  private end(): void {
    if (this.current !== null && this.complete) this.groups.push(this.current);
    this.current = null;
    this.complete = false;
  }

  finish(): RobotsGroup[] {
    this.end();
    finishGroups(this.groups, this.table);
    return this.groups;
  }
}

/** The crawler's name as urllib compares it: the text before the first `/`. */
function nameOf(agent: string): string {
  const slash = agent.indexOf('/');
  return slash < 0 ? agent : agent.slice(0, slash);
}

function selectLegacy(groups: readonly RobotsGroup[], agents: readonly string[]): Selection {
  const names = agents.map(nameOf);
  let fallback: RobotsGroup | null = null;
  for (const group of groups) {
    if (group.agents.some((a) => a.global)) {
      fallback ??= group;
      continue;
    }
    for (const agent of group.agents) {
      const value = asciiLower(agent.value);
      if (names.some((name) => name.includes(value))) {
        return { match: 'specific', groups: [group.index], agentLines: [agent.line] };
      }
    }
  }
  if (fallback === null) return { match: 'none', groups: [], agentLines: [] };
  return {
    match: 'global',
    groups: [fallback.index],
    agentLines: fallback.agents.filter((a) => a.global).map((a) => a.line),
  };
}

/** Pools up to this size are scanned; larger ones are looked up by prefix length. */
const SCAN_LIMIT = 24;

/** The first rule whose (decoded) value is a prefix of the (decoded) path decides. */
class FirstMatch implements PoolMatcher {
  private readonly rules: readonly RobotsRule[];
  /** Each rule's decoded octets, in file order. */
  private readonly keys: readonly string[];
  /** Large pools: the first rule of each distinct key, and the distinct key lengths in ascending order. */
  private readonly firstByKey: Map<string, number> | null = null;
  private readonly lengths: readonly number[] = [];

  constructor(rules: readonly RobotsRule[]) {
    this.rules = rules;
    this.keys = rules.map((r) => decodedOctets(r.pattern));
    if (rules.length > SCAN_LIMIT) {
      const firstByKey = new Map<string, number>();
      this.keys.forEach((key, i) => {
        if (!firstByKey.has(key)) firstByKey.set(key, i);
      });
      this.firstByKey = firstByKey;
      this.lengths = [...new Set(this.keys.map((k) => k.length))].sort((a, b) => a - b);
    }
  }

  /** Index of the deciding rule for the decoded path `key`, or -1. */
  private first(key: string): number {
    const keys = this.keys;
    if (this.firstByKey === null) {
      for (let i = 0; i < keys.length; i++) if (key.startsWith(keys[i]!)) return i;
      return -1;
    }
    let best = -1;
    for (const length of this.lengths) {
      if (length > key.length) break;
      const i = this.firstByKey.get(length === key.length ? key : key.slice(0, length));
      if (i !== undefined && (best < 0 || i < best)) best = i;
    }
    return best;
  }

  allows(path: string): boolean {
    const i = this.first(decodedOctets(path));
    // An empty value allows whatever its kind.
    return i < 0 || this.rules[i]!.kind === 'allow' || this.rules[i]!.pattern === '';
  }

  decide(path: string): Verdict {
    const i = this.first(decodedOctets(path));
    if (i < 0) return { allowed: true, rule: null };
    const r = this.rules[i]!;
    const rule: DecidingRule = { kind: r.kind, pattern: r.pattern, line: r.line, indexHtml: false };
    return { allowed: r.kind === 'allow' || r.pattern === '', rule };
  }
}

/** The 1994 convention (with the 1996 draft's Allow), as `urllib.robotparser` reads it. */
export const legacyDialect: Dialect = {
  name: 'legacy',
  strictFieldNames: true,
  groupBuilder: (text) => new LegacyGroupBuilder(text),
  select: selectLegacy,
  // First-match selection depends on file order and substrings; there is nothing to index.
  selector: (groups) => (agents) => selectLegacy(groups, agents),
  matcher: (groups) => new FirstMatch(pooledRules(groups)),
};

/**
 * What both explorations of the product automaton (`explore.ts`, and the plain one it is checked against,
 * `test/reference/explore-plain.ts`) share: the rules of one crawler as pattern automata, the alphabet, and how a
 * region is reported.
 */

import { type MatchRule, matchRulesFor } from '../match/rule-matcher.js';
import type { RobotsRule } from '../model/types.js';
import { PatternAutomaton } from './automaton.js';

/** A rule that decided a region, in one of the two files. */
export interface RegionRule {
  readonly kind: 'allow' | 'disallow';
  /** The normalised pattern (for Google's `index.htm` rule: the derived `<dir>/$`). */
  readonly pattern: string;
  /** 1-based line in its file. */
  readonly line: number;
  /** True when the rule is the `<dir>/$` Google derives from `allow: <dir>/index.htm[l]`. */
  readonly indexHtml: boolean;
}

/** A set of paths whose verdict changed, all decided by the same rules before and after. */
export interface ChangedRegion {
  /** `blocked`: allowed before, disallowed after; `allowed`: the reverse. */
  readonly change: 'blocked' | 'allowed';
  /**
   * A pattern (robots.txt syntax) containing the region: the more specific of the two deciding patterns. Every path
   * of the region matches it; not every path matching it need be in the region (longer rules may decide those).
   */
  readonly pattern: string;
  /** A shortest path (with query) of the region; the first such path in character order. */
  readonly witness: string;
  /** The deciding rule before (null: no rule matched) and after. */
  readonly before: RegionRule | null;
  readonly after: RegionRule | null;
}

/**
 * Characters tried, in order, as the stand-in for every character no pattern contains: letters and digits first (they
 * read best in a witness), then every other printable ASCII character but `#` (a URL's path never holds one), and `*`
 * last. A pattern never contains a literal `*` (it is always the wildcard), so a stand-in always exists, however many
 * characters the patterns use: the exploration then reaches every path (issue 33: with only the first 40 candidates,
 * files whose patterns used all 40 were never explored on `/A`, `/Z` or `/!`).
 */
const STAND_INS = (() => {
  const preferred = 'xzqjkvwyabcdefghilmnoprstu0123456789-_~.';
  let rest = '';
  for (let c = 0x21; c <= 0x7e; c++) {
    const ch = String.fromCharCode(c);
    if (!preferred.includes(ch) && ch !== '#' && ch !== '*') rest += ch;
  }
  return [...`${preferred}${rest}*`].map((c) => c.charCodeAt(0));
})();

/** Product states explored per comparison of one crawler's rule sets before giving up (`complete: false`). */
export const DEFAULT_MAX_STATES = 200_000;
/** Time for a whole comparison, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** A character none of the normalised patterns contains (see {@link STAND_INS}), standing for all such characters. */
export function standInFor(sources: readonly string[]): number {
  const codes = new Set<number>();
  for (const source of sources) {
    const body = source.endsWith('$') ? source.slice(0, -1) : source;
    for (let i = 0; i < body.length; i++) if (body[i] !== '*') codes.add(body.charCodeAt(i));
  }
  // `*` is never written in a pattern's body as a character, so the search always ends.
  return STAND_INS.find((c) => !codes.has(c))!;
}

/** One rule of one file, on a pattern automaton. */
export interface Rule {
  /** The pattern's automaton (shared by every rule, in either file, written with the same pattern). */
  readonly pid: number;
  readonly allow: boolean;
  /** The length of the normalised pattern. */
  readonly priority: number;
  readonly line: number;
  readonly indexHtml: boolean;
  /** A number unique among the rules of both files (before's first). */
  readonly index: number;
}

/** The result of one exploration. */
export interface Outcome {
  readonly regions: ChangedRegion[];
  readonly complete: boolean;
  readonly states: number;
}

/**
 * The normalised pattern of a match rule (for Google's `index.htm` rule, the derived `<dir>/$`). Read without relying on
 * whether the rule holds its compiled pattern or is one, so this module does not depend on that layout.
 */
function sourceOf(m: MatchRule): string {
  const r = m as unknown as { source?: string; pattern?: { source: string } };
  return r.source ?? r.pattern!.source;
}

function rulesOf(
  rules: readonly RobotsRule[],
  ids: Map<string, number>,
  automata: PatternAutomaton[],
  first: number,
): Rule[] {
  const out: Rule[] = [];
  for (const r of rules) {
    for (const m of matchRulesFor(r.kind === 'allow', r.pattern, r.line)) {
      // An empty pattern matches with priority 0, which never decides a verdict.
      if (m.priority === 0) continue;
      const source = sourceOf(m);
      let pid = ids.get(source);
      if (pid === undefined) {
        pid = automata.length;
        ids.set(source, pid);
        automata.push(new PatternAutomaton(source));
      }
      const index = first + out.length;
      out.push({ pid, allow: m.allow, priority: m.priority, line: m.line, indexHtml: m.indexHtml, index });
    }
  }
  return out;
}

/** Whether `r` would beat `best`, the best matching rule of its kind so far (longer, or as long and earlier). */
export function improves(r: Rule, best: Rule | null): boolean {
  return best === null || r.priority > best.priority || (r.priority === best.priority && r.line < best.line);
}

function regionRule(rule: Rule | null, automata: readonly PatternAutomaton[]): RegionRule | null {
  if (rule === null) return null;
  return {
    kind: rule.allow ? 'allow' : 'disallow',
    pattern: automata[rule.pid]!.source,
    line: rule.line,
    indexHtml: rule.indexHtml,
  };
}

/** The region of the paths decided by `before` and `after` (verdicts differ: `allowedAfter` says which way). */
export function changedRegion(
  before: Rule | null,
  after: Rule | null,
  allowedAfter: boolean,
  witness: string,
  automata: readonly PatternAutomaton[],
): ChangedRegion {
  const beforeRule = regionRule(before, automata);
  const afterRule = regionRule(after, automata);
  const specific =
    beforeRule === null || (afterRule !== null && afterRule.pattern.length >= beforeRule.pattern.length)
      ? afterRule
      : beforeRule;
  return {
    change: allowedAfter ? 'allowed' : 'blocked',
    pattern: specific?.pattern ?? '/',
    witness,
    before: beforeRule,
    after: afterRule,
  };
}

/** Both files' rules for one crawler on shared pattern automata, and the stand-in for the characters no pattern has. */
export interface Product {
  readonly automata: readonly PatternAutomaton[];
  readonly before: readonly Rule[];
  readonly after: readonly Rule[];
  /** Per pattern: how each file uses it, bit 0 allow, bit 1 disallow (before); bits 2, 3 the same after. */
  readonly use: Uint8Array;
  /** A character no pattern contains, standing for all such characters (one always exists: see `STAND_INS`). */
  readonly standIn: number;
  /** Which rules use each pattern, per file, in line order. */
  readonly usersBefore: readonly (readonly Rule[])[];
  readonly usersAfter: readonly (readonly Rule[])[];
}

/**
 * The product of both files' rules for one crawler: one automaton per distinct normalised pattern (shared by the two
 * files), the rules numbered before's first, how each file uses each pattern, and the stand-in.
 */
export function productOf(beforeRules: readonly RobotsRule[], afterRules: readonly RobotsRule[]): Product {
  const ids = new Map<string, number>();
  const automata: PatternAutomaton[] = [];
  const before = rulesOf(beforeRules, ids, automata, 0);
  const after = rulesOf(afterRules, ids, automata, before.length);
  const n = automata.length;

  const use = new Uint8Array(n);
  for (const r of before) use[r.pid]! |= r.allow ? 1 : 2;
  for (const r of after) use[r.pid]! |= r.allow ? 4 : 8;

  const standIn = standInFor(automata.map((a) => a.source));

  const usersBefore: Rule[][] = automata.map(() => []);
  const usersAfter: Rule[][] = automata.map(() => []);
  for (const r of before) usersBefore[r.pid]!.push(r);
  for (const r of after) usersAfter[r.pid]!.push(r);
  return { automata, before, after, use, standIn, usersBefore, usersAfter };
}

/**
 * Rules that can never change a decision, found within each rule pool (see `pools.ts`) with Google's precedence: the
 * longest matching pattern wins, ties go to allow.
 *
 * - a disallow with the same pattern as an allow (the allow wins the tie): a conflict;
 * - a rule with the same pattern as an earlier rule of its kind: a duplicate;
 * - a rule of one kind that a rule of the other kind always beats: every URL it matches, the other matches too, with a
 *   pattern at least as long (strictly longer to beat an allow). Only wildcard patterns can shadow a different pattern:
 *   a literal pattern that covers another is its prefix, hence shorter, hence loses.
 *
 * Whether one wildcard pattern matches everything another one does is decided soundly but not completely: the first
 * pattern must match the second's text, its `*` absorbing anything there (including the second's `*`). When that
 * succeeds the claim is certain; some exotic cases of coverage go unreported. The work is bounded per file.
 */

import { matchPattern } from '../../match/pattern.js';
import type { RobotsRule } from '../../model/types.js';
import type { LintContext } from '../rule.js';
import { type RulePool, rulePools } from './pools.js';

/** Why a rule never decides. */
export type DeadReason = 'conflict' | 'duplicate' | 'shadowed';

/** A rule that never decides anything, and the rule that makes it so. */
export interface DeadRule {
  readonly rule: RobotsRule;
  readonly by: RobotsRule;
  readonly reason: DeadReason;
  readonly pool: RulePool;
}

/** Coverage checks per file, at most: enough for any real file, bounded for hostile ones. */
const COVER_BUDGET = 200_000;

/** The pattern without trailing `*`s (and without a `*$` ending): they change priority, never what matches. */
function simplify(pattern: string): string {
  let p = pattern;
  for (;;) {
    if (p.endsWith('*')) p = p.slice(0, -1);
    else if (p.endsWith('*$')) p = p.slice(0, -2);
    else return p;
  }
}

/** The text before a pattern's first wildcard or end anchor: every URL it matches starts with it. */
function literalPrefix(pattern: string): string {
  let end = pattern.indexOf('*');
  if (end < 0) end = pattern.length;
  if (pattern.endsWith('$') && end === pattern.length) end--;
  return pattern.slice(0, end);
}

/** Whether every URL that `inner` matches is also matched by `outer` (sound, not complete; see the file comment). */
export function patternCovers(outer: string, inner: string): boolean {
  const o = simplify(outer);
  const i = simplify(inner);
  const innerAnchored = i.endsWith('$');
  if (o.endsWith('$') && !innerAnchored) return false;
  return matchPattern(o, innerAnchored ? i.slice(0, -1) : i);
}

/** Whether Google also reads an allow rule as allowing its directory (`allow: /d/index.html` allows `/d/`). */
function hasIndexRule(rule: RobotsRule): boolean {
  if (rule.kind !== 'allow') return false;
  const slash = rule.pattern.lastIndexOf('/');
  return slash >= 0 && rule.pattern.startsWith('/index.htm', slash);
}

/** First index of `sorted` (ascending) whose pattern is >= `prefix`. */
function lowerBound(sorted: readonly RobotsRule[], prefix: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.pattern < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function analysePool(pool: RulePool, found: DeadRule[], budget: { left: number }): void {
  const rules = pool.rules.filter((r) => r.pattern !== '');
  const first = new Map<string, RobotsRule>();
  for (const rule of rules) {
    const key = `${rule.kind}\n${rule.pattern}`;
    const earlier = first.get(key);
    if (earlier !== undefined) {
      found.push({ rule, by: earlier, reason: 'duplicate', pool });
      continue;
    }
    first.set(key, rule);
  }
  for (const [key, rule] of first) {
    if (!key.startsWith('disallow\n')) continue;
    const allow = first.get(`allow\n${rule.pattern}`);
    if (allow !== undefined) found.push({ rule, by: allow, reason: 'conflict', pool });
  }

  // Shadowing: only wildcard (or anchored) patterns can cover a different pattern.
  const distinct = [...first.values()];
  const shadowers = distinct.filter((r) => r.pattern.includes('*') || r.pattern.endsWith('$'));
  if (shadowers.length === 0) return;
  const byKind = {
    allow: distinct.filter((r) => r.kind === 'allow').sort((a, b) => (a.pattern < b.pattern ? -1 : 1)),
    disallow: distinct.filter((r) => r.kind === 'disallow').sort((a, b) => (a.pattern < b.pattern ? -1 : 1)),
  };
  const shadowed = new Set<RobotsRule>();
  for (const s of shadowers) {
    const targets = s.kind === 'allow' ? byKind.disallow : byKind.allow;
    const prefix = literalPrefix(s.pattern);
    for (let k = lowerBound(targets, prefix); k < targets.length; k++) {
      const r = targets[k]!;
      if (!r.pattern.startsWith(prefix)) break;
      if (--budget.left < 0) return;
      if (shadowed.has(r) || r.pattern === s.pattern) continue;
      // An allow beats a disallow of equal length; a disallow must be strictly longer to beat an allow.
      const wins = s.kind === 'allow' ? s.pattern.length >= r.pattern.length : s.pattern.length > r.pattern.length;
      if (!wins || hasIndexRule(r)) continue;
      if (patternCovers(s.pattern, r.pattern)) {
        shadowed.add(r);
        found.push({ rule: r, by: s, reason: 'shadowed', pool });
      }
    }
  }
}

/** Every rule that never decides, in every pool, with the first reason found for it (by line). */
export function deadRules(context: LintContext): ReadonlyMap<number, DeadRule> {
  const found: DeadRule[] = [];
  const budget = { left: COVER_BUDGET };
  for (const pool of context.shared(rulePools)) analysePool(pool, found, budget);
  const byLine = new Map<number, DeadRule>();
  for (const dead of found) if (!byLine.has(dead.rule.line)) byLine.set(dead.rule.line, dead);
  return byLine;
}

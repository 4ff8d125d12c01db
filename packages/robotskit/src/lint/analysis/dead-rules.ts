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

import { compilePattern, matchesFrom } from '../../match/pattern.js';
import type { RobotsRule } from '../../model/types.js';
import type { LintContext } from '../rule.js';
import { type RulePool, rulePools } from './pools.js';

/** Why a rule never decides. */
type DeadReason = 'conflict' | 'duplicate' | 'shadowed';

/** A rule that never decides anything, and the rule that makes it so. */
interface DeadRule {
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

/**
 * A test of whether every URL a pattern matches is also matched by `outer` (sound, not complete; see the file
 * comment). `outer` is prepared once, since it is tested against many patterns.
 */
function coveredBy(outer: string): (inner: string) => boolean {
  const o = simplify(outer);
  const outerAnchored = o.endsWith('$');
  const compiled = compilePattern(o);
  return (inner) => {
    const i = simplify(inner);
    const innerAnchored = i.endsWith('$');
    if (outerAnchored && !innerAnchored) return false;
    return matchesFrom(compiled, innerAnchored ? i.slice(0, -1) : i, 0);
  };
}

/** Whether Google also reads an allow rule as allowing its directory (`allow: /d/index.html` allows `/d/`). */
function hasIndexRule(rule: RobotsRule): boolean {
  if (rule.kind !== 'allow') return false;
  const slash = rule.pattern.lastIndexOf('/');
  return slash >= 0 && rule.pattern.startsWith('/index.htm', slash);
}

/** First index of `sorted` (ascending by `key`) whose key is >= `value`. */
function lowerBound<K>(sorted: readonly RobotsRule[], value: K, key: (r: RobotsRule) => K): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Rules of one kind, sorted two ways, to find the candidates a wildcard rule may shadow. */
function indexTargets(rules: RobotsRule[]): { byPattern: RobotsRule[]; byLength: RobotsRule[] } {
  return {
    byPattern: [...rules].sort(byPattern),
    byLength: rules.sort((a, b) => a.pattern.length - b.pattern.length),
  };
}

function byPattern(a: RobotsRule, b: RobotsRule): number {
  return a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0;
}

function analysePool(pool: RulePool, found: DeadRule[], budget: { left: number }): void {
  const firstAllow = new Map<string, RobotsRule>();
  const firstDisallow = new Map<string, RobotsRule>();
  let wildcards = false;
  for (const rule of pool.rules) {
    const pattern = rule.pattern;
    if (pattern === '') continue;
    const first = rule.kind === 'allow' ? firstAllow : firstDisallow;
    const earlier = first.get(pattern);
    if (earlier !== undefined) {
      found.push({ rule, by: earlier, reason: 'duplicate', pool });
      continue;
    }
    first.set(pattern, rule);
    if (!wildcards && (pattern.includes('*') || pattern.endsWith('$'))) wildcards = true;
  }
  for (const [pattern, rule] of firstDisallow) {
    const allow = firstAllow.get(pattern);
    if (allow !== undefined) found.push({ rule, by: allow, reason: 'conflict', pool });
  }
  // Shadowing: only wildcard (or anchored) patterns can cover a different pattern.
  if (!wildcards) return;
  const kinds = {
    allow: indexTargets([...firstAllow.values()]),
    disallow: indexTargets([...firstDisallow.values()]),
  };
  const shadowed = new Set<RobotsRule>();
  for (const s of [...firstAllow.values(), ...firstDisallow.values()]) {
    if (!s.pattern.includes('*') && !s.pattern.endsWith('$')) continue;
    const targets = s.kind === 'allow' ? kinds.disallow : kinds.allow;
    // A rule it beats is covered by it, so starts with its literal prefix, and is no longer than it (an allow beats a
    // disallow of equal length; a disallow must be strictly longer to beat an allow). Walk the smaller of the two sets.
    const prefix = literalPrefix(s.pattern);
    const maxLength = s.kind === 'allow' ? s.pattern.length : s.pattern.length - 1;
    const from = lowerBound(targets.byPattern, prefix, (r) => r.pattern);
    const to = lowerBound(targets.byPattern, `${prefix}\uffff`, (r) => r.pattern);
    const shorter = lowerBound(targets.byLength, maxLength + 1, (r) => r.pattern.length);
    const candidates = to - from <= shorter ? targets.byPattern.slice(from, to) : targets.byLength.slice(0, shorter);
    let covers: ((inner: string) => boolean) | null = null;
    for (const r of candidates) {
      if (--budget.left < 0) return;
      if (r.pattern.length > maxLength || !r.pattern.startsWith(prefix)) continue;
      if (shadowed.has(r) || r.pattern === s.pattern || hasIndexRule(r)) continue;
      covers ??= coveredBy(s.pattern);
      if (covers(r.pattern)) {
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

/**
 * Finding the best allow and the best disallow rule for a path among a pool of rules, as the reference does:
 * priority is the pattern's length (octets after normalisation), and among equal priorities of one kind the
 * earliest line wins.
 *
 * Small pools are scanned in priority order. Large pools are indexed by each pattern's literal prefix (the text
 * before its first `*`) in a radix tree, so a check walks down the tree along the path and only tests the rules whose
 * prefix the path starts with, instead of testing every rule.
 */

import { type CompiledPattern, compilePattern, matchesFrom } from './pattern.js';

/** A rule ready for matching. */
export interface MatchRule {
  readonly allow: boolean;
  /** Match priority: the length of the normalised pattern. */
  readonly priority: number;
  /** 1-based line of the rule in the file. */
  readonly line: number;
  readonly pattern: CompiledPattern;
  /** True for the `<dir>/$` rule Google derives from `allow: <dir>/index.htm[l]`. */
  readonly indexHtml: boolean;
}

/** The best matching allow and disallow rules for a path; null where none matched. */
export interface BestMatches {
  allow: MatchRule | null;
  disallow: MatchRule | null;
}

/**
 * Builds the match rules for one allow/disallow line: the rule itself, plus Google's `index.htm` rule when the last
 * `/`-segment of an allow pattern starts with `/index.htm` (`allow: /d/index.html` also allows exactly `/d/`).
 */
export function matchRulesFor(allow: boolean, pattern: string, line: number): MatchRule[] {
  const rules: MatchRule[] = [
    { allow, priority: pattern.length, line, pattern: compilePattern(pattern), indexHtml: false },
  ];
  if (allow) {
    const slash = pattern.lastIndexOf('/');
    if (slash >= 0 && pattern.startsWith('/index.htm', slash)) {
      const dir = `${pattern.slice(0, slash + 1)}$`;
      rules.push({ allow, priority: dir.length, line, pattern: compilePattern(dir), indexHtml: true });
    }
  }
  return rules;
}

/** Priority order: longer first, then earlier line. */
function byPriority(a: MatchRule, b: MatchRule): number {
  return b.priority - a.priority || a.line - b.line;
}

/** Pools up to this size are scanned; larger ones are indexed. */
const SCAN_LIMIT = 24;

/** Whether `r` would beat the current best of its kind. */
function improves(r: MatchRule, best: MatchRule | null): boolean {
  return best === null || r.priority > best.priority || (r.priority === best.priority && r.line < best.line);
}

/**
 * Scans `rules` (sorted by priority) and updates `out`. `from` is the number of leading path chars already known to
 * equal every rule's prefix (0 when unchecked).
 */
function scanSorted(rules: readonly MatchRule[], path: string, from: number, out: BestMatches): void {
  for (let i = 0; i < rules.length; i++) {
    const r = rules[i]!;
    const canAllow = improves(r, out.allow);
    const canDisallow = improves(r, out.disallow);
    // Sorted by priority then line: a rule that can improve neither kind means no later rule can.
    if (!canAllow && !canDisallow) return;
    if (r.allow ? !canAllow : !canDisallow) continue;
    if (matchesFrom(r.pattern, path, from)) {
      if (r.allow) out.allow = r;
      else out.disallow = r;
    }
  }
}

/** A node of the radix tree of literal prefixes. */
interface PrefixNode {
  /** The text on the edge from the parent (empty for the root). */
  label: string;
  /** Children by the first char of their label. */
  children: Map<number, PrefixNode> | null;
  /** Rules whose literal prefix ends exactly here, in priority order. */
  rules: MatchRule[];
}

function node(label: string): PrefixNode {
  return { label, children: null, rules: [] };
}

/** Adds a rule under its literal prefix, splitting edges where prefixes diverge. */
function insert(root: PrefixNode, rule: MatchRule): void {
  const prefix = rule.pattern.prefix;
  let at = root;
  let i = 0;
  for (;;) {
    if (i === prefix.length) {
      at.rules.push(rule);
      return;
    }
    const first = prefix.charCodeAt(i);
    at.children ??= new Map();
    const child = at.children.get(first);
    if (child === undefined) {
      const leaf = node(prefix.slice(i));
      leaf.rules.push(rule);
      at.children.set(first, leaf);
      return;
    }
    const label = child.label;
    let k = 1;
    while (k < label.length && i + k < prefix.length && label.charCodeAt(k) === prefix.charCodeAt(i + k)) k++;
    if (k < label.length) {
      const middle = node(label.slice(0, k));
      child.label = label.slice(k);
      middle.children = new Map([[child.label.charCodeAt(0), child]]);
      at.children.set(first, middle);
      at = middle;
    } else at = child;
    i += k;
  }
}

function sortTree(n: PrefixNode): void {
  n.rules.sort(byPriority);
  if (n.children) for (const c of n.children.values()) sortTree(c);
}

/** A tree node holding more wildcard rules than this hands the ones it can to the trigram index. */
const CROWDED = 32;

/** The key of the three chars at `i` of `text` (all below 256), or -1. */
function gramAt(text: string, i: number): number {
  const a = text.charCodeAt(i);
  const b = text.charCodeAt(i + 1);
  const c = text.charCodeAt(i + 2);
  return a < 256 && b < 256 && c < 256 ? (a << 16) | (b << 8) | c : -1;
}

/** Distinct trigram keys of the literal parts of a wildcard pattern. */
function gramsOf(p: CompiledPattern): Set<number> {
  const grams = new Set<number>();
  for (const literal of [p.prefix, ...(p.segments ?? []), p.tail]) {
    for (let i = 0; i + 3 <= literal.length; i++) {
      const g = gramAt(literal, i);
      if (g >= 0) grams.add(g);
    }
  }
  return grams;
}

interface GramRule {
  readonly rule: MatchRule;
  /** The last query that tested this rule, so a gram occurring twice in a path tests it once. */
  seen: number;
}

/**
 * Wildcard rules indexed by one trigram of their literal text. Every literal of a pattern must occur in a path it
 * matches, so a rule is only a candidate for paths containing its trigram; each rule is filed under its rarest one,
 * so that thousands of rules like `/*-item-123.php$` do not all land under the same key.
 */
class GramIndex {
  private readonly byGram = new Map<number, GramRule[]>();
  private query = 0;

  constructor(rules: readonly MatchRule[]) {
    const grams = rules.map((r) => gramsOf(r.pattern));
    const frequency = new Map<number, number>();
    for (const set of grams) for (const g of set) frequency.set(g, (frequency.get(g) ?? 0) + 1);
    rules.forEach((rule, i) => {
      let best = -1;
      let bestCount = Number.POSITIVE_INFINITY;
      for (const g of grams[i]!) {
        const count = frequency.get(g)!;
        if (count < bestCount) [best, bestCount] = [g, count];
      }
      const list = this.byGram.get(best);
      if (list) list.push({ rule, seen: 0 });
      else this.byGram.set(best, [{ rule, seen: 0 }]);
    });
  }

  /** Tests the rules whose trigram occurs in `path`, updating `out`. */
  collect(path: string, out: BestMatches): void {
    const query = ++this.query;
    for (let i = 0; i + 3 <= path.length; i++) {
      const g = gramAt(path, i);
      if (g < 0) continue;
      const list = this.byGram.get(g);
      if (list === undefined) continue;
      for (const entry of list) {
        if (entry.seen === query) continue;
        entry.seen = query;
        const r = entry.rule;
        if (!improves(r, r.allow ? out.allow : out.disallow)) continue;
        if (matchesFrom(r.pattern, path, 0)) {
          if (r.allow) out.allow = r;
          else out.disallow = r;
        }
      }
    }
  }
}

/** Moves the indexable wildcard rules of crowded nodes out of the tree; returns them. */
function takeCrowdedWildcards(n: PrefixNode, taken: MatchRule[]): void {
  const wild = n.rules.filter((r) => r.pattern.segments !== null && gramsOf(r.pattern).size > 0);
  if (wild.length > CROWDED) {
    const moved = new Set(wild);
    n.rules = n.rules.filter((r) => !moved.has(r));
    taken.push(...wild);
  }
  if (n.children) for (const c of n.children.values()) takeCrowdedWildcards(c, taken);
}

/**
 * Finds the best allow and disallow rule of a fixed pool for any path. Not reentrant-sensitive: `best` fills the
 * object it is given and calls no user code.
 */
export class RuleMatcher {
  /** Every rule, in priority order (small pools). */
  private readonly sorted: readonly MatchRule[] | null;
  /** Rules in a radix tree by literal prefix (large pools). */
  private readonly root: PrefixNode | null;
  /** Wildcard rules that crowded a node of the tree, by trigram (large pools). */
  private readonly grams: GramIndex | null;

  constructor(rules: readonly MatchRule[]) {
    if (rules.length <= SCAN_LIMIT) {
      this.sorted = [...rules].sort(byPriority);
      this.root = null;
      this.grams = null;
      return;
    }
    const root = node('');
    for (const r of rules) insert(root, r);
    const crowded: MatchRule[] = [];
    takeCrowdedWildcards(root, crowded);
    sortTree(root);
    this.sorted = null;
    this.root = root;
    this.grams = crowded.length > 0 ? new GramIndex(crowded) : null;
  }

  /** Fills `out` with the best allow and disallow rules matching `path` (null where none). */
  best(path: string, out: BestMatches): void {
    out.allow = null;
    out.disallow = null;
    if (this.sorted !== null) {
      scanSorted(this.sorted, path, 0, out);
      return;
    }
    this.grams?.collect(path, out);
    // Walk down the tree along the path: every node passed holds rules whose prefix the path starts with.
    let at = this.root!;
    let depth = 0;
    for (;;) {
      if (at.rules.length > 0) scanSorted(at.rules, path, depth, out);
      if (at.children === null || depth >= path.length) return;
      const child = at.children.get(path.charCodeAt(depth));
      if (child === undefined) return;
      const end = depth + child.label.length;
      if (path.charCodeAt(end - 1) !== child.label.charCodeAt(child.label.length - 1)) return;
      if (child.label.length > 1 && !path.startsWith(child.label, depth)) return;
      depth += child.label.length;
      at = child;
    }
  }
}

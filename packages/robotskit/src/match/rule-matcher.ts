/**
 * Finding the best allow and the best disallow rule for a path among a pool of rules, as the reference does:
 * priority is the pattern's length (octets after normalisation), and among equal priorities of one kind the
 * earliest line wins.
 *
 * Small pools are scanned in priority order. Large pools are indexed by each pattern's literal prefix (the text
 * before its first `*`): the distinct prefixes sorted, each linked to the longest other prefix it starts with. A check
 * finds by binary search the last prefix not after the path; every prefix the path starts with is on that prefix's
 * chain of links (a string between a prefix of the path and the path itself starts with that prefix). So a check tests
 * only the rules whose prefix the path starts with, and the index is a few flat arrays, not a tree of objects.
 */

import { type CompiledPattern, compilePattern, matchesFrom } from './pattern.js';

/** A rule ready for matching: its compiled pattern, with what decides between rules (one object per rule). */
export interface MatchRule extends CompiledPattern {
  readonly allow: boolean;
  /** Match priority: the length of the normalised pattern. */
  readonly priority: number;
  /** 1-based line of the rule in the file. */
  readonly line: number;
  /** True for the `<dir>/$` rule Google derives from `allow: <dir>/index.htm[l]`. */
  readonly indexHtml: boolean;
}

function matchRule(allow: boolean, source: string, line: number, indexHtml: boolean): MatchRule {
  const { prefix, segments, tail, anchored } = compilePattern(source);
  return { source, prefix, segments, tail, anchored, allow, priority: source.length, line, indexHtml };
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
  const rules: MatchRule[] = [];
  addMatchRules(rules, allow, pattern, line);
  return rules;
}

/** {@link matchRulesFor}, appending to `out` (no array per rule). */
export function addMatchRules(out: MatchRule[], allow: boolean, pattern: string, line: number): void {
  out.push(matchRule(allow, pattern, line, false));
  if (allow) {
    const slash = pattern.lastIndexOf('/');
    if (slash >= 0 && pattern.startsWith('/index.htm', slash)) {
      const dir = `${pattern.slice(0, slash + 1)}$`;
      out.push(matchRule(allow, dir, line, true));
    }
  }
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
 * Scans `rules[start..end)` (sorted by priority) and updates `out`. `from` is the number of leading path chars already
 * known to equal every rule's prefix (0 when unchecked).
 */
function scanSorted(
  rules: readonly MatchRule[],
  path: string,
  from: number,
  out: BestMatches,
  start = 0,
  end = rules.length,
): void {
  for (let i = start; i < end; i++) {
    const r = rules[i]!;
    const canAllow = improves(r, out.allow);
    const canDisallow = improves(r, out.disallow);
    // Sorted by priority then line: a rule that can improve neither kind means no later rule can.
    if (!canAllow && !canDisallow) return;
    if (r.allow ? !canAllow : !canDisallow) continue;
    if (matchesFrom(r, path, from)) {
      if (r.allow) out.allow = r;
      else out.disallow = r;
    }
  }
}

/** A prefix holding more wildcard rules than this hands them to the tail and trigram indexes. */
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
    const grams = rules.map((r) => gramsOf(r));
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
        if (matchesFrom(r, path, 0)) {
          if (r.allow) out.allow = r;
          else out.disallow = r;
        }
      }
    }
  }
}

/** Prefix ids fit below this in a sort key (a pool never has this many distinct prefixes: 2^21 rules). */
const ID_RANGE = 2 ** 21;

/** At most this many distinct tail lengths are indexed by tail (each costs a lookup per check). */
const MAX_TAIL_LENGTHS = 16;

/**
 * Anchored wildcard rules (`/*.pdf$`, `/*-item-123.php$`) indexed by their last literal, which must end the path: a
 * check looks up the path's suffix of each indexed length instead of testing every rule.
 */
class TailIndex {
  private readonly lengths: number[];
  private readonly byTail: Map<string, MatchRule[]>[];
  /** The last three chars of every tail, when all are at least that long: most paths end in none of them. */
  private readonly ends: Set<number> | null;

  constructor(rules: readonly MatchRule[]) {
    this.lengths = [...new Set(rules.map((r) => r.tail.length))];
    const ends = new Set<number>();
    for (const r of rules) ends.add(r.tail.length >= 3 ? gramAt(r.tail, r.tail.length - 3) : -1);
    this.ends = ends.has(-1) ? null : ends;
    this.byTail = this.lengths.map(() => new Map());
    for (const r of rules) {
      const map = this.byTail[this.lengths.indexOf(r.tail.length)]!;
      const list = map.get(r.tail);
      if (list === undefined) map.set(r.tail, [r]);
      else list.push(r);
    }
  }

  /** Tests the rules whose tail ends `path`, updating `out`. */
  collect(path: string, out: BestMatches): void {
    if (this.ends !== null && (path.length < 3 || !this.ends.has(gramAt(path, path.length - 3)))) return;
    const lengths = this.lengths;
    for (let k = 0; k < lengths.length; k++) {
      const length = lengths[k]!;
      if (length > path.length) continue;
      const list = this.byTail[k]!.get(path.slice(path.length - length));
      if (list === undefined) continue;
      for (let i = 0; i < list.length; i++) {
        const r = list[i]!;
        if (!improves(r, r.allow ? out.allow : out.disallow)) continue;
        if (matchesFrom(r, path, 0)) {
          if (r.allow) out.allow = r;
          else out.disallow = r;
        }
      }
    }
  }
}

/** Keeps the rules of `tails` with the most common tail lengths; hands the others to `grams` or back to `keep`. */
function limitTailLengths(tails: MatchRule[], grams: MatchRule[], keep: (r: MatchRule) => void): MatchRule[] {
  const counts = new Map<number, number>();
  for (const r of tails) counts.set(r.tail.length, (counts.get(r.tail.length) ?? 0) + 1);
  if (counts.size <= MAX_TAIL_LENGTHS) return tails;
  const common = new Set(
    [...counts]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, MAX_TAIL_LENGTHS)
      .map(([length]) => length),
  );
  const indexed: MatchRule[] = [];
  for (const r of tails) {
    if (common.has(r.tail.length)) indexed.push(r);
    else if (gramsOf(r).size > 0) grams.push(r);
    else keep(r);
  }
  return indexed;
}

// Shared empty defaults: a small pool allocates nothing for the large-pool index.
const NO_INTS = new Int32Array(0);
const NO_RULES: readonly MatchRule[] = [];

/**
 * Finds the best allow and disallow rule of a fixed pool for any path. Not reentrant-sensitive: `best` fills the
 * object it is given and calls no user code.
 */
export class RuleMatcher {
  /** Every rule, in priority order (small pools). */
  private readonly sorted: readonly MatchRule[] | null = null;
  /** The distinct literal prefixes, one after the other (large pools). */
  private readonly flat: string = '';
  /** Where the `k`th prefix in code-unit order starts in `flat`, and its length. */
  private readonly start: Int32Array = NO_INTS;
  private readonly length: Int32Array = NO_INTS;
  /** For each prefix, the index of the longest other prefix it starts with, or -1. */
  private readonly parent: Int32Array = NO_INTS;
  /** The rules of prefix `k` are `rules[first[k]]` to `rules[first[k + 1] - 1]`, in priority order. */
  private readonly first: Int32Array = NO_INTS;
  private readonly rules: readonly MatchRule[] = NO_RULES;
  /** Wildcard rules that crowded a prefix: anchored ones by tail, others by trigram (large pools). */
  private readonly tails: TailIndex | null = null;
  private readonly grams: GramIndex | null = null;

  constructor(rules: readonly MatchRule[]) {
    if (rules.length <= SCAN_LIMIT) {
      this.sorted = [...rules].sort(byPriority);
      return;
    }
    // Distinct prefixes, copied into one flat string: the prefixes are slices of the file's text, whose chars the
    // engine reads several times slower than a flat string's, and sorting and searching read many chars.
    const ids = new Map<string, number>();
    const distinct: string[] = [];
    /** The prefix id of each rule, then its rank in code-unit order. */
    const idOf = new Int32Array(rules.length);
    for (let i = 0; i < rules.length; i++) {
      const prefix = rules[i]!.prefix;
      let id = ids.get(prefix);
      if (id === undefined) {
        id = distinct.length;
        ids.set(prefix, id);
        distinct.push(prefix);
      }
      idOf[i] = id;
    }
    const n = distinct.length;
    const flat = distinct.join('');
    const startOf = new Int32Array(n + 1);
    for (let id = 0; id < n; id++) startOf[id + 1] = startOf[id]! + distinct[id]!.length;
    // Code-unit order, as the search compares: first by the first four chars, packed with the id into a number that
    // a typed array sorts natively, then runs that share those chars by comparing the rest.
    const compare = (a: number, b: number): number => {
      const as = startOf[a]!;
      const bs = startOf[b]!;
      const al = startOf[a + 1]! - as;
      const bl = startOf[b + 1]! - bs;
      const m = al < bl ? al : bl;
      for (let i = 0; i < m; i++) {
        const d = flat.charCodeAt(as + i) - flat.charCodeAt(bs + i);
        if (d !== 0) return d;
      }
      return al - bl;
    };
    let order: number[];
    if (n >= ID_RANGE) order = Array.from({ length: n }, (_, id) => id).sort(compare);
    else {
      order = new Array<number>(n);
      const keys = new Float64Array(n);
      for (let id = 0; id < n; id++) {
        let key = 0;
        for (let i = 0; i < 4; i++) {
          // 0 past the end (a shorter string comes first); chars above 254 share the top value and go to the tie sort.
          const at = startOf[id]! + i;
          const c = at < startOf[id + 1]! ? flat.charCodeAt(at) + 1 : 0;
          key = key * 256 + (c > 255 ? 255 : c);
        }
        keys[id] = key * ID_RANGE + id;
      }
      keys.sort();
      for (let k = 0; k < n; ) {
        const lead = Math.floor(keys[k]! / ID_RANGE);
        let end = k + 1;
        while (end < n && Math.floor(keys[end]! / ID_RANGE) === lead) end++;
        for (let i = k; i < end; i++) order[i] = keys[i]! % ID_RANGE;
        if (end - k > 1) {
          const run = order.slice(k, end).sort(compare);
          for (let i = k; i < end; i++) order[i] = run[i - k]!;
        }
        k = end;
      }
    }
    const rank = new Int32Array(n);
    const start = new Int32Array(n);
    const length = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      const id = order[k]!;
      rank[id] = k;
      start[k] = startOf[id]!;
      length[k] = startOf[id + 1]! - startOf[id]!;
    }
    for (let i = 0; i < rules.length; i++) idOf[i] = rank[idOf[i]!]!;
    const wild = new Int32Array(n);
    for (let i = 0; i < rules.length; i++) if (rules[i]!.segments !== null) wild[idOf[i]!]!++;
    // Rules of crowded prefixes go to the tail and trigram indexes; the others stay under their prefix.
    const tails: MatchRule[] = [];
    const grams: MatchRule[] = [];
    const stay: MatchRule[] = [];
    const stayRank: number[] = [];
    for (let i = 0; i < rules.length; i++) {
      const r = rules[i]!;
      if (r.segments === null || wild[idOf[i]!]! <= CROWDED) {
        stay.push(r);
        stayRank.push(idOf[i]!);
      } else if (r.anchored && r.tail.length > 0) tails.push(r);
      else if (gramsOf(r).size > 0) grams.push(r);
      else {
        stay.push(r);
        stayRank.push(idOf[i]!);
      }
    }
    const indexedTails = limitTailLengths(tails, grams, (r) => {
      stay.push(r);
      stayRank.push(rank[ids.get(r.prefix)!]!);
    });
    // Counting sort by prefix, then priority order within each prefix.
    const first = new Int32Array(n + 1);
    for (const k of stayRank) first[k + 1]!++;
    for (let k = 0; k < n; k++) first[k + 1]! += first[k]!;
    const next = first.slice(0, n);
    const kept = new Array<MatchRule>(stay.length);
    for (let i = 0; i < stay.length; i++) kept[next[stayRank[i]!]!++] = stay[i]!;
    for (let k = 0; k < n; k++) {
      if (first[k + 1]! - first[k]! < 2) continue;
      const bucket = kept.slice(first[k], first[k + 1]).sort(byPriority);
      for (let i = 0; i < bucket.length; i++) kept[first[k]! + i] = bucket[i]!;
    }
    // Sorted order puts a prefix before every string that starts with it, so a stack of the chain of the previous
    // prefix holds every earlier prefix the current one starts with: those no longer than what the two share.
    const parent = new Int32Array(n);
    const chain: number[] = [];
    for (let k = 0; k < n; k++) {
      if (k > 0) {
        const a = start[k - 1]!;
        const b = start[k]!;
        const m = length[k - 1]! < length[k]! ? length[k - 1]! : length[k]!;
        let same = 0;
        while (same < m && flat.charCodeAt(a + same) === flat.charCodeAt(b + same)) same++;
        while (chain.length > 0 && length[chain[chain.length - 1]!]! > same) chain.pop();
      }
      parent[k] = chain.length > 0 ? chain[chain.length - 1]! : -1;
      chain.push(k);
    }
    this.flat = flat;
    this.start = start;
    this.length = length;
    this.parent = parent;
    this.first = first;
    this.rules = kept;
    this.tails = indexedTails.length > 0 ? new TailIndex(indexedTails) : null;
    this.grams = grams.length > 0 ? new GramIndex(grams) : null;
  }

  /** Fills `out` with the best allow and disallow rules matching `path` (null where none). */
  best(path: string, out: BestMatches): void {
    out.allow = null;
    out.disallow = null;
    if (this.sorted !== null) {
      scanSorted(this.sorted, path, 0, out);
      return;
    }
    this.tails?.collect(path, out);
    this.grams?.collect(path, out);
    // Binary search for the last prefix not after the path. Every prefix between the bounds shares the shorter of the
    // bounds' common prefixes with the path, so those chars are not compared again.
    const flat = this.flat;
    const start = this.start;
    const length = this.length;
    let lo = 0;
    let hi = start.length;
    let sameLo = 0;
    let sameHi = 0;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const at = start[mid]!;
      const len = length[mid]!;
      let i = sameLo < sameHi ? sameLo : sameHi;
      while (i < len && i < path.length && flat.charCodeAt(at + i) === path.charCodeAt(i)) i++;
      if (i === len || (i < path.length && flat.charCodeAt(at + i) < path.charCodeAt(i))) {
        lo = mid + 1;
        sameLo = i;
      } else {
        hi = mid;
        sameHi = i;
      }
    }
    // Every prefix the path starts with is on the chain of the last prefix not after it (whose first `sameLo` chars
    // are the path's): exactly the links no longer than `sameLo`.
    let k = lo - 1;
    while (k >= 0 && length[k]! > sameLo) k = this.parent[k]!;
    for (; k >= 0; k = this.parent[k]!) this.scanPrefix(k, path, out);
  }

  private scanPrefix(k: number, path: string, out: BestMatches): void {
    // A prefix's rules are in priority order, each known to start with the prefix's `length[k]` chars.
    scanSorted(this.rules, path, this.length[k]!, out, this.first[k]!, this.first[k + 1]!);
  }
}

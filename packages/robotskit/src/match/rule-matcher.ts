/**
 * Finding the best allow and the best disallow rule for a path among a pool of rules, as the reference does:
 * priority is the pattern's length (octets after normalisation), and among equal priorities of one kind the
 * earliest line wins.
 *
 * Small pools are scanned in priority order, their prefixes read from one string and their kinds from one array of
 * ints (a check that matches nothing reads no rule object). Large pools are indexed by each pattern's literal prefix (the text
 * before its first `*`): the distinct prefixes sorted, each linked to the longest other prefix it starts with. A check
 * finds by binary search the last prefix not after the path; every prefix the path starts with is on that prefix's
 * chain of links (a string between a prefix of the path and the path itself starts with that prefix). So a check tests
 * only the rules whose prefix the path starts with, and the index is a few flat arrays, not a tree of objects.
 */

import { type CompiledPattern, matchesFrom } from './pattern.js';

/** A rule ready for matching: its compiled pattern, with what decides between rules (one object per rule). */
export interface MatchRule extends CompiledPattern {
  readonly allow: boolean;
  /** Match priority: the length of the normalised pattern. */
  readonly priority: number;
  /** 1-based line of the rule in the file. */
  readonly line: number;
  /** True for the `<dir>/$` rule Google derives from `allow: <dir>/index.htm[l]`. */
  readonly indexHtml: boolean;
  /** For a pattern with `*`: the chars after its prefix but `*` and a final `$`, as {@link charsOf} sums them; else 0. */
  readonly chars: number;
}

/**
 * A sketch of which chars `text` holds from `from` on: bit `c % 32` for each char `c` (a shift takes its count mod 32,
 * so no division per char). A path without a bit of a pattern's sketch lacks a char that the pattern's literals need,
 * so it cannot match.
 */
function charsOf(text: string, from: number, to: number, star: number): number {
  let sketch = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== star) sketch |= 1 << c;
  }
  return sketch;
}

/** The segments of a pattern with one `*` (shared: never written). */
const NO_SEGMENTS: readonly string[] = [];

/**
 * A {@link MatchRule}, compiled as `compilePattern` compiles (in `pattern.ts`) without the intermediate object. One
 * literal with every field, so all rules share one shape, which V8 keeps while this function lives.
 */
function matchRule(allow: boolean, source: string, line: number, indexHtml: boolean): MatchRule {
  const n = source.length;
  const anchored = n > 0 && source.charCodeAt(n - 1) === 0x24;
  const end = anchored ? n - 1 : n;
  let at = source.indexOf('*');
  let prefix = source;
  let segments: string[] | null = null;
  let tail = '';
  if (at < 0) {
    if (anchored) prefix = source.slice(0, end);
  } else {
    prefix = source.slice(0, at++);
    for (let next = source.indexOf('*', at); next >= 0; next = source.indexOf('*', at)) {
      if (next > at) {
        segments ??= [];
        segments.push(source.slice(at, next));
      }
      at = next + 1;
    }
    tail = source.slice(at, end);
  }
  return {
    source,
    prefix,
    segments: at < 0 ? null : (segments ?? NO_SEGMENTS),
    tail,
    anchored,
    allow,
    priority: n,
    line,
    indexHtml,
    chars: at < 0 ? 0 : charsOf(source, prefix.length, end, 0x2a),
  };
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

/**
 * An empty array for rules. A literal `[]` starts out as an array of small integers, and its first rule changes its
 * kind; V8 throws away code optimised for the kind it changes to when a new array reaches it (a deoptimisation per
 * array in each of the first builds of a large matcher). The slice of an array of objects is one from the start.
 */
export function ruleList(): MatchRule[] {
  return [null!].slice(1);
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
  start: number,
  end: number,
): void {
  for (let i = start; i < end; i++) {
    const r = rules[i]!;
    if (!improves(r, r.allow ? out.allow : out.disallow)) {
      // Sorted by priority then line: a rule that can improve neither kind means no later rule can.
      if (!improves(r, r.allow ? out.disallow : out.allow)) return;
      continue;
    }
    if (r.chars !== 0 && !sketched(r.chars, path)) continue;
    if (matchesFrom(r, path, from)) {
      if (r.allow) out.allow = r;
      else out.disallow = r;
    }
  }
}

/** {@link charsOf} the path of the check in progress, or 0 until a rule asks (reset by {@link RuleMatcher.best}). */
let pathChars = 0;

/**
 * Whether the path of the check in progress has every char of a wildcard pattern's sketch: a pattern costs a search
 * per literal, and most fail this first. (A path starts with `/`, so its sketch is never 0.)
 */
function sketched(chars: number, path: string): boolean {
  if (pathChars === 0) pathChars = charsOf(path, 0, path.length, -1);
  return (chars & ~pathChars) === 0;
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

/** Calls `each` with the key of every trigram of the literal parts of a wildcard pattern; returns how many there are. */
function eachGram(p: CompiledPattern, each?: (g: number) => void): number {
  let n = 0;
  for (const literal of [p.prefix, ...(p.segments ?? []), p.tail]) {
    for (let i = 0; i + 3 <= literal.length; i++) {
      const g = gramAt(literal, i);
      if (g >= 0) {
        n++;
        each?.(g);
      }
    }
  }
  return n;
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
    fileByGram(rules, this.byGram);
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

/** At most this many distinct tail lengths are indexed by tail (each costs a lookup per check). */
const MAX_TAIL_LENGTHS = 16;

/**
 * Anchored wildcard rules (`/*.pdf$`, `/*-item-123.php$`) indexed by their last literal, which must end the path: a
 * check looks up the path's suffix of each indexed length instead of testing every rule.
 */
class TailIndex {
  private readonly rules: readonly MatchRule[];
  /** The distinct tail lengths. */
  private readonly lengths: number[] = [];
  /** The index in `rules` of the last rule with each tail; `next` links each rule to the previous one with its tail. */
  private readonly last = new Map<string, number>();
  private readonly next: Int32Array;
  /** The last three chars of every tail, when all are at least that long: most paths end in none of them. */
  private readonly ends: Set<number> | null;

  constructor(rules: readonly MatchRule[]) {
    this.rules = rules;
    this.next = new Int32Array(rules.length);
    this.ends = fileByTail(rules, this.lengths, this.last, this.next);
  }

  /** Tests the rules whose tail ends `path`, updating `out`. */
  collect(path: string, out: BestMatches): void {
    if (this.ends !== null && (path.length < 3 || !this.ends.has(gramAt(path, path.length - 3)))) return;
    const lengths = this.lengths;
    for (let k = 0; k < lengths.length; k++) {
      const length = lengths[k]!;
      if (length > path.length) continue;
      for (let i = this.last.get(path.slice(path.length - length)) ?? -1; i >= 0; i = this.next[i]!) {
        const r = this.rules[i]!;
        if (!improves(r, r.allow ? out.allow : out.disallow)) continue;
        if (matchesFrom(r, path, 0)) {
          if (r.allow) out.allow = r;
          else out.disallow = r;
        }
      }
    }
  }
}

/**
 * Files each rule under its rarest trigram (build loops are functions of their own, on locals: code that handles an
 * index object is dropped by V8 once no index object is left, and a loop would then run unoptimised).
 */
function fileByGram(rules: readonly MatchRule[], byGram: Map<number, GramRule[]>): void {
  // How often each trigram occurs in the rules' literals.
  const frequency = new Map<number, number>();
  const count = (g: number) => frequency.get(g) ?? 0;
  for (const r of rules) eachGram(r, (g) => frequency.set(g, count(g) + 1));
  for (const rule of rules) {
    let best = -1;
    eachGram(rule, (g) => {
      if (best < 0 || count(g) < count(best)) best = g;
    });
    const list = byGram.get(best);
    if (list) list.push({ rule, seen: 0 });
    else byGram.set(best, [{ rule, seen: 0 }]);
  }
}

/**
 * Fills the tail index's `lengths`, `last` and `next` (see {@link TailIndex}); returns the set of the last three chars
 * of every tail, or null when a tail is shorter.
 */
function fileByTail(
  rules: readonly MatchRule[],
  lengths: number[],
  last: Map<string, number>,
  next: Int32Array,
): Set<number> | null {
  let ends: Set<number> | null = new Set<number>();
  for (let i = 0; i < rules.length; i++) {
    const tail = rules[i]!.tail;
    if (!lengths.includes(tail.length)) lengths.push(tail.length);
    if (ends !== null) {
      if (tail.length < 3) ends = null;
      else ends.add(gramAt(tail, tail.length - 3));
    }
    next[i] = last.get(tail) ?? -1;
    last.set(tail, i);
  }
  return ends;
}

/**
 * Scratch ints for building an index, reused from build to build (a build is synchronous and calls no user code);
 * larger ones (of huge pools) are not kept.
 */
let spare = new Int32Array(1024);
const MAX_SPARE = 1 << 16;

/**
 * Sorts `order`, indexes of the strings `flat[at[i]..at[i + 1])`, into code-unit order (equal strings next to each
 * other), and sets `same[k]` (k > 0) to the number of leading chars the `k`th string shares with the one before it, or
 * -1 when the two are equal: a three-way radix quicksort, which reads each char of the strings' distinguishing
 * prefixes a few times and compares no two strings whole.
 */
function sortStrings(flat: string, at: Int32Array, order: Int32Array, same: Int32Array): void {
  // Ranges still to sort: start, end, and the number of leading chars all their strings share.
  const todo = [0, order.length, 0];
  while (todo.length > 0) {
    const depth = todo.pop()!;
    const end = todo.pop()!;
    const start = todo.pop()!;
    // The char at `depth` of each string, -1 past its end; strings split into those below, at and above the pivot's.
    const p = order[(start + end) >> 1]!;
    const pivot = at[p]! + depth < at[p + 1]! ? flat.charCodeAt(at[p]! + depth) : -1;
    let lt = start;
    let gt = end;
    for (let i = start; i < gt; ) {
      const s = order[i]!;
      const c = at[s]! + depth < at[s + 1]! ? flat.charCodeAt(at[s]! + depth) : -1;
      if (c < pivot) {
        order[i++] = order[lt]!;
        order[lt++] = s;
      } else if (c > pivot) {
        order[i] = order[--gt]!;
        order[gt] = s;
      } else i++;
    }
    // Strings on either side of a split share exactly `depth` chars.
    if (lt > start) same[lt] = depth;
    if (gt < end) same[gt] = depth;
    if (lt - start > 1) todo.push(start, lt, depth);
    if (end - gt > 1) todo.push(gt, end, depth);
    // Those at the pivot share one more char, unless all ended there: then they are equal.
    if (pivot < 0) same.fill(-1, lt + 1, gt);
    else if (gt - lt > 1) todo.push(lt, gt, depth + 1);
  }
}

// Shared empty defaults: a small pool allocates nothing for the large-pool index, nor a large one for the small.
const NO_INTS = new Int32Array(0);
const NONE: readonly never[] = [];

/**
 * {@link scanSorted} over a whole small pool, reading each rule's prefix from `flat` and its kind from `starts` (see
 * {@link RuleMatcher.starts}) instead of from the rule: a check that matches nothing (the most common) reads an array
 * and a string, not an object and a string per rule scattered over the heap. In priority order the first match of
 * each kind is its best (a later rule of that kind is no longer, or as long and on a later line), so a kind found is
 * skipped from then on.
 */
function scanSmall(
  rules: readonly MatchRule[],
  starts: readonly number[],
  flat: string,
  path: string,
  out: BestMatches,
): void {
  let allow: MatchRule | null = null;
  let disallow: MatchRule | null = null;
  for (let i = 0; i < rules.length; i++) {
    const at = starts[i]!;
    if (at & 1 ? allow : disallow) {
      if (allow && disallow) break;
      continue;
    }
    const start = at >> 1;
    const length = (starts[i + 1]! >> 1) - start;
    if (length > path.length) continue;
    // From the prefix's last char back: the last char rejects most rules that do not match.
    let k = length;
    while (k > 0 && path.charCodeAt(k - 1) === flat.charCodeAt(start + k - 1)) k--;
    if (k > 0 || !matchesFrom(rules[i]!, path, length)) continue;
    if (at & 1) allow = rules[i]!;
    else disallow = rules[i]!;
  }
  out.allow = allow;
  out.disallow = disallow;
}

/** Where rules of a crowded prefix go. */
const STAY = 0;
const TAIL = 1;
const GRAM = 2;

/**
 * Finds the best allow and disallow rule of a fixed pool for any path. Not reentrant-sensitive: `best` fills the
 * object it is given and calls no user code.
 */
export class RuleMatcher {
  /**
   * Small pools: for each rule (in `rules`, in priority order) where its prefix starts in `flat` times 2, plus 1 for
   * an allow; then the length of `flat` times 2. A prefix is part of one line, which the parser cuts at
   * `MAX_LINE_BYTES`, so these stay far from where the int shifts of {@link scanSmall} would wrap.
   */
  private readonly starts: readonly number[] = NONE;
  /** The literal prefixes of the rules, one after the other (in priority order for a small pool). */
  private readonly flat: string = '';
  /**
   * Four ints for each distinct prefix, in code-unit order: where it starts in `flat`, its length, the index of the
   * longest other prefix it starts with (-1 if none), and where its rules start in `rules`; then where they end.
   */
  private readonly index: Int32Array = NO_INTS;
  /** The rules under their prefixes, in priority order within each (all in priority order for a small pool). */
  private readonly rules: readonly MatchRule[] = NONE;
  /** Wildcard rules that crowded a prefix: anchored ones by tail, others by trigram (large pools). */
  private readonly tails: TailIndex | null = null;
  private readonly grams: GramIndex | null = null;

  constructor(rules: readonly MatchRule[]) {
    const n = rules.length;
    if (n <= SCAN_LIMIT) {
      const sorted = [...rules].sort(byPriority);
      const starts: number[] = [];
      let at = 0;
      for (const r of sorted) {
        starts.push(2 * at + (r.allow ? 1 : 0));
        at += r.prefix.length;
      }
      starts.push(2 * at);
      this.rules = sorted;
      this.starts = starts;
      this.flat = sorted.map((r) => r.prefix).join('');
      return;
    }
    // Scratch: where each prefix starts in `flat` (n + 1); the rules in prefix order (n); for each position in that
    // order, the chars its prefix shares with the previous one's, or -1 when they are equal (n); and where its rule goes
    // (n: STAY, TAIL or GRAM). Each step is a function of its own, optimised on its own, and this constructor has no
    // loop: V8 optimised it from inside its loops, and after a full GC with no matcher alive that code lost its type
    // feedback and was thrown away and remade, build after build (every other 50,000-rule build 1.4 times as slow).
    const scratch = spare.length > 4 * n ? spare : new Int32Array(4 * n + 1);
    if (scratch.length <= MAX_SPARE) spare = scratch;
    const at = scratch.subarray(0, n + 1);
    const order = scratch.subarray(n + 1, 2 * n + 1);
    const same = scratch.subarray(2 * n + 1, 3 * n + 1);
    const dest = scratch.subarray(3 * n + 1, 4 * n + 1);
    const flat = flatten(rules, at, order);
    sortStrings(flat, at, order, same);
    const tails = ruleList();
    const grams = ruleList();
    dest.fill(STAY);
    const index = new Int32Array(4 * crowdedRuns(rules, order, same, dest) + 4);
    sortCrowded(rules, order, dest, tails, grams);
    this.rules = buildIndex(rules, at, order, same, dest, index);
    this.flat = flat;
    this.index = index;
    this.tails = tails.length > 0 ? new TailIndex(tails) : null;
    this.grams = grams.length > 0 ? new GramIndex(grams) : null;
  }

  /** Fills `out` with the best allow and disallow rules matching `path` (null where none). */
  best(path: string, out: BestMatches): void {
    out.allow = null;
    out.disallow = null;
    pathChars = 0;
    if (this.index === NO_INTS) {
      scanSmall(this.rules, this.starts, this.flat, path, out);
      return;
    }
    this.tails?.collect(path, out);
    this.grams?.collect(path, out);
    // Binary search for the last prefix not after the path. Every prefix between the bounds shares the shorter of the
    // bounds' common prefixes with the path, so those chars are not compared again.
    const flat = this.flat;
    const index = this.index;
    let lo = 0;
    let hi = (index.length >> 2) - 1;
    let sameLo = 0;
    let sameHi = 0;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const at = index[mid << 2]!;
      const len = index[(mid << 2) + 1]!;
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
    // are the path's): exactly the links no longer than `sameLo`. A prefix's rules are in priority order, each known to
    // start with the prefix's chars.
    let k = lo - 1;
    while (k >= 0 && index[(k << 2) + 1]! > sameLo) k = index[(k << 2) + 2]!;
    for (; k >= 0; k = index[(k << 2) + 2]!) {
      scanSorted(this.rules, path, index[(k << 2) + 1]!, out, index[(k << 2) + 3]!, index[(k << 2) + 7]!);
    }
  }
}

/**
 * The prefixes of `rules` in one flat string, with `at` (where each starts) and `order` (the identity) filled: the
 * prefixes are slices of the file's text, whose chars the engine reads several times slower than a flat string's, and
 * sorting and searching read many chars.
 */
function flatten(rules: readonly MatchRule[], at: Int32Array, order: Int32Array): string {
  const prefixes = new Array<string>(rules.length);
  at[0] = 0;
  for (let i = 0; i < rules.length; i++) {
    prefixes[i] = rules[i]!.prefix;
    at[i + 1] = at[i]! + prefixes[i]!.length;
    order[i] = i;
  }
  return prefixes.join('');
}

/**
 * Files the wildcard rules {@link crowdedRuns} marked: by tail in `tails` when their tail's length is one of the
 * {@link MAX_TAIL_LENGTHS} most common among them (each length costs a lookup per check), else by trigram in `grams`
 * (or nowhere: they stay under their prefix).
 */
function sortCrowded(
  rules: readonly MatchRule[],
  order: Int32Array,
  dest: Int32Array,
  tails: MatchRule[],
  grams: MatchRule[],
): void {
  const counts = new Map<number, number>();
  for (let k = 0; k < order.length; k++) {
    if (dest[k] !== TAIL) continue;
    const length = rules[order[k]!]!.tail.length;
    counts.set(length, (counts.get(length) ?? 0) + 1);
  }
  const lengths = new Set(
    [...counts]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, MAX_TAIL_LENGTHS)
      .map(([length]) => length),
  );
  for (let k = 0; k < order.length; k++) {
    if (dest[k] === STAY) continue;
    const r = rules[order[k]!]!;
    if (dest[k] === TAIL && !lengths.has(r.tail.length)) dest[k] = eachGram(r) > 0 ? GRAM : STAY;
    if (dest[k] === TAIL) tails.push(r);
    else if (dest[k] === GRAM) grams.push(r);
  }
}

/**
 * Marks in `dest` (by position in `order`) the wildcard rules of prefixes holding more than {@link CROWDED} of them:
 * TAIL for anchored ones with a tail, GRAM for others with a trigram. Returns the number of distinct prefixes.
 */
function crowdedRuns(rules: readonly MatchRule[], order: Int32Array, same: Int32Array, dest: Int32Array): number {
  let distinct = 0;
  for (let run = 0, k = 1; k <= order.length; k++) {
    if (k < order.length && same[k]! < 0) continue;
    // The run [run, k) of equal prefixes ends here.
    let wildcards = 0;
    for (let j = run; j < k; j++) if (rules[order[j]!]!.segments !== null) wildcards++;
    if (wildcards > CROWDED) {
      for (let j = run; j < k; j++) {
        const r = rules[order[j]!]!;
        if (r.segments === null) continue;
        if (r.anchored && r.tail.length > 0) dest[j] = TAIL;
        else if (eachGram(r) > 0) dest[j] = GRAM;
      }
    }
    run = k;
    distinct++;
  }
  return distinct;
}

/**
 * Fills `index` (see {@link RuleMatcher}) and returns the rules that stay under their prefixes, in its order. Sorted
 * order puts a prefix before every string that starts with it, so a stack of the chain of the previous prefix holds
 * every earlier prefix the current one starts with: those no longer than what the two share.
 */
function buildIndex(
  rules: readonly MatchRule[],
  at: Int32Array,
  order: Int32Array,
  same: Int32Array,
  dest: Int32Array,
  index: Int32Array,
): MatchRule[] {
  const kept = ruleList();
  const chain: number[] = [];
  let d = -1;
  for (let k = 0; k < order.length; k++) {
    const r = order[k]!;
    const common = same[k]!;
    if (k === 0 || common >= 0) {
      if (d >= 0) sortByPriority(kept, index[4 * d + 3]!);
      d++;
      while (chain.length > 0 && index[4 * chain[chain.length - 1]! + 1]! > common) chain.pop();
      index[4 * d] = at[r]!;
      index[4 * d + 1] = at[r + 1]! - at[r]!;
      index[4 * d + 2] = chain.length > 0 ? chain[chain.length - 1]! : -1;
      index[4 * d + 3] = kept.length;
      chain.push(d);
    }
    if (dest[k] === STAY) kept.push(rules[r]!);
  }
  sortByPriority(kept, index[4 * d + 3]!);
  index[4 * d + 7] = kept.length;
  return kept;
}

/** Sorts `rules[from..]` into priority order, in place. */
function sortByPriority(rules: MatchRule[], from: number): void {
  if (rules.length - from < 2) return;
  const run = rules.slice(from).sort(byPriority);
  for (let i = 0; i < run.length; i++) rules[from + i] = run[i]!;
}

/**
 * The exploration of the product automaton that `compareRobots` uses: breadth-first from `/`, like the plain one
 * (`test/reference/explore-plain.ts`), and with the same answer (same regions, same witnesses, in the same order), at
 * far less cost.
 *
 * - A branch is also cut when every region that could still lie below it is already known. The regions possible below a
 *   node are over-approximated per pair of deciding rules (before, after): the pair is possible only if, with both
 *   rules' patterns matching (and every pattern that matches whenever one of those does, see `implies`) on top of what
 *   the node already matched, those two rules are the ones that decide, and the two patterns can match one path (see
 *   `exclusive`). A region already known was found at a path no
 *   longer than the node's, and no later in character order: nothing below could give it a better witness.
 * - A product state's key is a string of one UTF-16 unit per number (two when numbers can be larger), not decimal
 *   text; a child is the node's default successor (every pattern fed a character it does not contain) with the few
 *   patterns that tell the character apart stepped on it; witnesses are read back from parent links.
 *
 * The cut depends only on a node's key and on the regions found so far, and the set of possible pairs only shrinks from
 * a node to its children, so every key reached first by the plain exploration is either reached first here by the same
 * path, or lies under a cut branch whose regions are all known: the regions and their witnesses are the same.
 */

import { compilePattern, matchPattern } from '../match/pattern.js';
import type { RobotsRule } from '../model/types.js';
import { ACCEPT, DEAD } from './automaton.js';
import { type ChangedRegion, changedRegion, type Outcome, productOf, type Rule } from './product.js';

/** Past this many numbers held for the states found, an exploration gives up (`complete: false`) to bound memory. */
const MAX_ARENA = 32_000_000;
/** Pattern pairs tested for implication per exploration; past it, patterns are taken to imply nothing more. */
const IMPLICATION_BUDGET = 400_000;
/** States explored before cutting branches whose regions are all known (small explorations finish sooner without). */
const CUT_AFTER = 64;
/** Pairs of deciding rules examined per node before expanding it anyway (the cut is only ever an optimisation). */
const PAIR_BUDGET = 4_000;

/** Whether `x` decides over `y` when both match: longer; as long and an allow; same kind and length, earlier. */
function beats(x: Rule, y: Rule): boolean {
  if (x.priority !== y.priority) return x.priority > y.priority;
  if (x.allow !== y.allow) return x.allow;
  return x.line < y.line;
}

function top(x: Rule | null, y: Rule | null): Rule | null {
  if (x === null) return y;
  if (y === null) return x;
  return beats(y, x) ? y : x;
}

/** A normalised pattern as its literal pieces: the prefix (at the start of the path), then pieces found in order. */
interface Pieces {
  readonly prefix: string;
  readonly rest: readonly string[];
  readonly anchored: boolean;
}

function piecesOf(source: string): Pieces {
  const p = compilePattern(source);
  const rest = p.segments === null ? [] : [...p.segments];
  if (p.segments !== null && p.tail.length > 0) rest.push(p.tail);
  return { prefix: p.prefix, rest, anchored: p.anchored };
}

/**
 * Whether every path `w` matches is matched by `s` too (a sufficient test, never wrong when it says yes): `s` is not
 * anchored, its prefix starts `w`'s, and its later pieces are found in order, each inside one piece of `w` (every path
 * `w` matches holds `w`'s pieces in order, so the leftmost search for `s`'s pieces succeeds on it).
 */
function implies(w: Pieces, s: Pieces): boolean {
  if (s.anchored || !w.prefix.startsWith(s.prefix)) return false;
  let chunk = 0;
  let text = w.prefix;
  let from = s.prefix.length;
  for (const piece of s.rest) {
    for (;;) {
      const at = text.indexOf(piece, from);
      if (at >= 0) {
        from = at + piece.length;
        break;
      }
      if (chunk >= w.rest.length) return false;
      text = w.rest[chunk++]!;
      from = 0;
    }
  }
  return true;
}

/**
 * Whether no path matches both patterns: both end in `$` and neither's last literal ends the other's; or one is a whole
 * path (`$` and no `*`) that the other does not match.
 */
function exclusive(p: string, q: string): boolean {
  const cp = compilePattern(p);
  const cq = compilePattern(q);
  if (cp.anchored && cp.segments === null) return !matchPattern(q, cp.prefix);
  if (cq.anchored && cq.segments === null) return !matchPattern(p, cq.prefix);
  if (!cp.anchored || !cq.anchored) return false;
  return !cp.tail.endsWith(cq.tail) && !cq.tail.endsWith(cp.tail);
}

/** Explores the product of both rule sets breadth-first from `/`. */
export function explore(
  beforeRules: readonly RobotsRule[],
  afterRules: readonly RobotsRule[],
  maxStates: number,
  deadline: number,
): Outcome {
  const { automata, before, after, use, alphabet, standIn, usersBefore, usersAfter } = productOf(
    beforeRules,
    afterRules,
  );
  const n = automata.length;
  const rules: readonly Rule[] = [...before, ...after];
  const ruleCount = rules.length;
  const priorityOf = Int32Array.from(rules, (r) => r.priority);
  const lineOf = Int32Array.from(rules, (r) => r.line);
  const ruleAt = (i: number): Rule | null => (i < 0 ? null : rules[i]!);
  /** `improves` on rule numbers (-1: none). */
  const improvesOn = (r: number, best: number): boolean =>
    best < 0 ||
    priorityOf[r]! > priorityOf[best]! ||
    (priorityOf[r] === priorityOf[best] && lineOf[r]! < lineOf[best]!);

  // Per pattern, for best allow before, best disallow before, best allow after, best disallow after: the pattern's
  // first rule of that kind in that file (-1: none), the only one that can improve on a best of its kind (a pattern's
  // rules are all as long); and the longest such rule's length (-1: none), for `settled`.
  const first: Int32Array[] = [];
  const length: Int32Array[] = [];
  for (const [users, allow] of [
    [usersBefore, true],
    [usersBefore, false],
    [usersAfter, true],
    [usersAfter, false],
  ] as const) {
    const found = users.map((list) => list.find((r) => r.allow === allow));
    first.push(Int32Array.from(found, (r) => (r === undefined ? -1 : r.index)));
    length.push(Int32Array.from(found, (r) => (r === undefined ? -1 : r.priority)));
  }
  const topBefore = usersBefore.map((list) => list.reduce<Rule | null>(top, null));
  const topAfter = usersAfter.map((list) => list.reduce<Rule | null>(top, null));
  const differs = Uint8Array.from(use, (u) => ((u & 3) !== u >> 2 ? 1 : 0));

  // Implication, computed when first needed: the deciding rule, per file, among a pattern's rules and those of every
  // pattern it implies.
  const pieces: (Pieces | undefined)[] = [];
  const piecesAt = (pid: number): Pieces => {
    let p = pieces[pid];
    if (p === undefined) {
      p = piecesOf(automata[pid]!.source);
      pieces[pid] = p;
    }
    return p;
  };
  let impliedBudget = IMPLICATION_BUDGET;
  const withImplied: ([Rule | null, Rule | null] | undefined)[] = [];
  const closureTop = (pid: number): [Rule | null, Rule | null] => {
    let result = withImplied[pid];
    if (result !== undefined) return result;
    result = [topBefore[pid]!, topAfter[pid]!];
    if (n - 1 <= impliedBudget) {
      impliedBudget -= n - 1;
      const w = piecesAt(pid);
      for (let q = 0; q < n; q++) {
        if (q === pid || !implies(w, piecesAt(q))) continue;
        result[0] = top(result[0], topBefore[q]!);
        result[1] = top(result[1], topAfter[q]!);
      }
    }
    withImplied[pid] = result;
    return result;
  };

  // Pairs of patterns no path matches both of, computed when first needed.
  const exclusions = new Map<number, boolean>();
  const disjoint = (p: number, q: number): boolean => {
    const pair = p < q ? p * n + q : q * n + p;
    let result = exclusions.get(pair);
    if (result === undefined) {
      result = exclusive(automata[p]!.source, automata[q]!.source);
      exclusions.set(pair, result);
    }
    return result;
  };

  const regions = new Map<number, ChangedRegion>();
  const regionId = (b: Rule | null, a: Rule | null): number =>
    (b === null ? 0 : b.index + 1) * (ruleCount + 1) + (a === null ? 0 : a.index + 1);

  // Product states, each stored once in `arena` as [live count m, best ×4 (rule numbers, -1: none), then pattern id
  // and state for each of the m live patterns in pattern order], found again through an open-addressing hash table.
  // States are numbered in the order found, which is breadth-first order: the queue is the numbers not yet explored.
  let arena = new Int32Array(1024);
  let arenaLength = 0;
  let offsets = new Int32Array(64);
  let parents = new Int32Array(64);
  let lastCodes = new Int32Array(64);
  let hashes = new Int32Array(64);
  let table = new Int32Array(128);
  let count = 0;
  const scratch = new Int32Array(5 + 2 * n);
  const hashOf = (length: number): number => {
    let h = length;
    for (let i = 0; i < length; i++) {
      h = Math.imul(h ^ scratch[i]!, 0x9e3779b1);
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    return h ^ (h >>> 13);
  };
  const place = (id: number): void => {
    const mask = table.length - 1;
    let slot = hashes[id]! & mask;
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = id + 1;
  };
  /** Stores the state in `scratch` unless already known; its number, or -1 when known. */
  const intern = (parent: number, code: number): number => {
    const length = 5 + 2 * scratch[0]!;
    const h = hashOf(length);
    const mask = table.length - 1;
    for (let slot = h & mask; ; slot = (slot + 1) & mask) {
      const entry = table[slot]!;
      if (entry === 0) break;
      if (hashes[entry - 1] !== h) continue;
      const at = offsets[entry - 1]!;
      if (arena[at] !== scratch[0]) continue;
      let same = true;
      for (let i = 1; i < length; i++) {
        if (arena[at + i] !== scratch[i]) {
          same = false;
          break;
        }
      }
      if (same) return -1;
    }
    if (arenaLength + length > arena.length) {
      const grown = new Int32Array(Math.max(arena.length * 2, arenaLength + length));
      grown.set(arena.subarray(0, arenaLength));
      arena = grown;
    }
    arena.set(scratch.subarray(0, length), arenaLength);
    if (count === offsets.length) {
      const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
        const g = new Int32Array(a.length * 2);
        g.set(a);
        return g;
      };
      offsets = grow(offsets);
      parents = grow(parents);
      lastCodes = grow(lastCodes);
      hashes = grow(hashes);
    }
    const id = count++;
    offsets[id] = arenaLength;
    parents[id] = parent;
    lastCodes[id] = code;
    hashes[id] = h;
    arenaLength += length;
    if (count * 2 > table.length) {
      table = new Int32Array(table.length * 2);
      for (let i = 0; i < count; i++) place(i);
    } else place(id);
    return id;
  };

  /**
   * Puts into `scratch` the state whose patterns are `pids` in `states`, the best rules `best` folded in so far: what
   * now matches whatever follows is folded in too, and dead patterns and those that can no longer count are dropped.
   */
  const bestNow = new Int32Array(4);
  const make = (pids: Int32Array, states: Int32Array, live: number, best: Int32Array, recheckAll: boolean): void => {
    for (let i = 0; i < 4; i++) bestNow[i] = best[i]!;
    let folded = false;
    for (let k = 0; k < live; k++) {
      if (states[k] !== ACCEPT) continue;
      folded = true;
      const pid = pids[k]!;
      for (let i = 0; i < 4; i++) {
        const r = first[i]![pid]!;
        if (r >= 0 && improvesOn(r, bestNow[i]!)) bestNow[i] = r;
      }
    }
    const recheck = folded || recheckAll;
    let m = 0;
    for (let k = 0; k < live; k++) {
      const state = states[k]!;
      if (state === DEAD || state === ACCEPT) continue;
      const pid = pids[k]!;
      if (recheck) {
        let relevant = false;
        for (let i = 0; i < 4 && !relevant; i++) {
          const r = first[i]![pid]!;
          relevant = r >= 0 && improvesOn(r, bestNow[i]!);
        }
        if (!relevant) continue;
      }
      scratch[5 + 2 * m] = pid;
      scratch[6 + 2 * m] = state;
      m++;
    }
    scratch[0] = m;
    for (let i = 0; i < 4; i++) scratch[1 + i] = bestNow[i]!;
  };

  const pathOf = (id: number): string => {
    const codes: number[] = [];
    for (let at = id; at >= 0; at = parents[at]!) codes.push(lastCodes[at]!);
    codes.reverse();
    let path = '';
    for (const c of codes) path += String.fromCharCode(c);
    return path;
  };

  // The node being explored, copied out of the arena (which moves as it grows).
  const pids = new Int32Array(n);
  const states = new Int32Array(n);
  const best = new Int32Array(4);
  let live = 0;

  /** The verdict and deciding rule (number, -1: none) of one file for the node's own path. */
  let decidedRule = -1;
  const decideAt = (side: 0 | 2): boolean => {
    let allow = best[side]!;
    let disallow = best[side + 1]!;
    const allows = first[side]!;
    const disallows = first[side + 1]!;
    for (let k = 0; k < live; k++) {
      const pid = pids[k]!;
      if (!automata[pid]!.matches(states[k]!)) continue;
      const fa = allows[pid]!;
      if (fa >= 0 && improvesOn(fa, allow)) allow = fa;
      const fd = disallows[pid]!;
      if (fd >= 0 && improvesOn(fd, disallow)) disallow = fd;
    }
    const a = allow < 0 ? -1 : priorityOf[allow]!;
    const d = disallow < 0 ? -1 : priorityOf[disallow]!;
    decidedRule = d > a ? disallow : allow;
    return !(d > a && d > 0);
  };
  const priority = (r: number): number => (r < 0 ? -1 : priorityOf[r]!);
  /** As in the plain exploration: each file's verdict for every longer path, or null when it may still change. */
  const settled = (side: 0 | 2): boolean | null => {
    let liveAllow = -1;
    let liveDisallow = -1;
    const allows = length[side]!;
    const disallows = length[side + 1]!;
    for (let k = 0; k < live; k++) {
      const pid = pids[k]!;
      if (allows[pid]! > liveAllow) liveAllow = allows[pid]!;
      if (disallows[pid]! > liveDisallow) liveDisallow = disallows[pid]!;
    }
    const a = priority(best[side]!);
    const d = priority(best[side + 1]!);
    if (d > 0 && d > a && d > liveAllow) return false;
    const worst = Math.max(d, liveDisallow);
    if (worst <= 0 || a >= worst) return true;
    return null;
  };

  /**
   * Whether some pair of deciding rules (before, after) with different verdicts, not yet a known region, may decide a
   * path below the node. Candidates for each file: nothing (when nothing is folded in), the best folded in, a rule of a
   * live pattern; a pair is possible when the two rules' patterns can match one path, and no rule that must match with
   * them (folded in, or of the two rules' patterns and the patterns they imply) beats either.
   */
  // Candidates, per file, that leave the path allowed (nothing, or an allow) and that block it (a disallow).
  const allowedB: (Rule | null)[] = [];
  const blockedB: Rule[] = [];
  const allowedA: (Rule | null)[] = [];
  const blockedA: Rule[] = [];
  const collect = (side: 0 | 2, allowed: (Rule | null)[], blocked: Rule[]): void => {
    allowed.length = 0;
    blocked.length = 0;
    const add = (r: Rule): void => {
      // A rule beaten by one that matches whenever it does never decides.
      if (beats(closureTop(r.pid)[side >> 1]!, r)) return;
      if (r.allow) allowed.push(r);
      else blocked.push(r);
    };
    const allow = ruleAt(best[side]!);
    const disallow = ruleAt(best[side + 1]!);
    const folded = top(allow, disallow);
    if (folded === null) allowed.push(null);
    else {
      add(folded);
      for (const r of [allow, disallow]) if (r !== null && r !== folded && !beats(folded, r)) add(r);
    }
    for (let k = 0; k < live; k++) {
      const pid = pids[k]!;
      const own = side === 0 ? topBefore[pid]! : topAfter[pid]!;
      for (const r of side === 0 ? usersBefore[pid]! : usersAfter[pid]!) {
        if ((folded !== null && beats(folded, r)) || (own !== r && beats(own!, r))) continue;
        add(r);
      }
    }
  };
  /** Whether `r` may decide in one file (0 before, 1 after) when `other`'s pattern matches too. */
  const mayDecide = (r: Rule | null, side: 0 | 1, other: Rule | null): boolean => {
    if (other === null) return true;
    const forced = closureTop(other.pid)[side];
    if (r === null) return forced === null;
    return forced === null || forced === r || !beats(forced, r);
  };
  let work = 0;
  const anyPair = (bs: readonly (Rule | null)[], as: readonly (Rule | null)[]): boolean => {
    for (const b of bs) {
      for (const a of as) {
        if (++work > PAIR_BUDGET) return true;
        if (regions.has(regionId(b, a))) continue;
        if (b !== null && a !== null && b.pid !== a.pid && disjoint(b.pid, a.pid)) continue;
        if (mayDecide(b, 0, a) && mayDecide(a, 1, b)) return true;
      }
    }
    return false;
  };
  const openPair = (): boolean => {
    collect(0, allowedB, blockedB);
    collect(2, allowedA, blockedA);
    work = 0;
    return anyPair(allowedB, blockedA) || anyPair(blockedB, allowedA);
  };

  // The start: every pattern before any character, then `/` (every path starts with it).
  for (let pid = 0; pid < n; pid++) {
    pids[pid] = pid;
    states[pid] = automata[pid]!.start;
  }
  best.fill(-1);
  make(pids, states, n, best, true);
  live = scratch[0]!;
  for (let k = 0; k < live; k++) {
    pids[k] = scratch[5 + 2 * k]!;
    states[k] = automata[pids[k]!]!.step(scratch[6 + 2 * k]!, 0x2f);
  }
  best.set(scratch.subarray(1, 5));
  make(pids, states, live, best, false);
  intern(-1, 0x2f);

  // Per node expanded: the state each live pattern goes to on a character it does not tell apart, and per character
  // the live patterns that do tell it apart.
  const fallback = new Int32Array(n);
  const childStates = new Int32Array(n);
  const byCode: number[][] = Array.from({ length: 128 }, () => []);
  const marked = new Uint8Array(128);
  const codes: number[] = [];

  let explored = 0;
  let complete = true;
  for (let id = 0; id < count; id++) {
    if (explored >= maxStates || arenaLength > MAX_ARENA || (explored % 16 === 0 && Date.now() > deadline)) {
      complete = false;
      break;
    }
    explored++;
    const at = offsets[id]!;
    live = arena[at]!;
    for (let i = 0; i < 4; i++) best[i] = arena[at + 1 + i]!;
    let open = priority(best[0]!) !== priority(best[2]!) || priority(best[1]!) !== priority(best[3]!);
    for (let k = 0; k < live; k++) {
      pids[k] = arena[at + 5 + 2 * k]!;
      states[k] = arena[at + 6 + 2 * k]!;
      if (differs[pids[k]!] === 1) open = true;
    }
    // The verdicts for the path itself.
    const allowedBefore = decideAt(0);
    const ruleBefore = decidedRule;
    const allowedAfter = decideAt(2);
    if (allowedBefore !== allowedAfter) {
      const b = ruleAt(ruleBefore);
      const a = ruleAt(decidedRule);
      const rid = regionId(b, a);
      if (!regions.has(rid)) regions.set(rid, changedRegion(b, a, allowedAfter, pathOf(id), automata));
    }
    // Stop when both files hold the same candidates (by kind and length) for every longer path.
    if (!open) continue;
    // Stop, too, when each file's verdict is settled for every longer path, and the same.
    const settledBefore = settled(0);
    if (settledBefore !== null && settledBefore === settled(2)) continue;
    // Stop when every region that may lie below is known already (not worth asking in a small exploration).
    if (explored > CUT_AFTER && !openPair()) continue;

    codes.length = 0;
    if (standIn !== undefined) {
      // Only the characters some live pattern tells apart, and one stand-in for all the others.
      for (let k = 0; k < live; k++) {
        const automaton = automata[pids[k]!]!;
        const state = states[k]!;
        fallback[k] = automaton.step(state, standIn);
        for (const c of automaton.significant(state)) {
          if (marked[c] === 0) {
            marked[c] = 1;
            codes.push(c);
          }
          byCode[c]!.push(k);
        }
      }
      codes.push(standIn);
      codes.sort((x, y) => x - y);
    } else codes.push(...alphabet);
    for (const code of codes) {
      if (standIn !== undefined) {
        for (let k = 0; k < live; k++) childStates[k] = fallback[k]!;
        for (const k of byCode[code]!) childStates[k] = automata[pids[k]!]!.step(states[k]!, code);
      } else {
        for (let k = 0; k < live; k++) childStates[k] = automata[pids[k]!]!.step(states[k]!, code);
      }
      make(pids, childStates, live, best, false);
      intern(id, code);
    }
    for (const c of codes) {
      marked[c] = 0;
      byCode[c]!.length = 0;
    }
  }
  return { regions: [...regions.values()], complete, states: explored };
}

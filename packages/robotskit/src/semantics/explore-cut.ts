/**
 * The cut that makes the exploration affordable: a branch is not expanded when every region that could still lie below
 * it is already known. The regions possible below a node are over-approximated per pair of deciding rules (before,
 * after): the pair is possible only if, with both rules' patterns matching (and every pattern that matches whenever
 * one of those does, see {@link implies}) on top of what the node already matched, those two rules are the ones that
 * decide, and the two patterns can match one path (see {@link exclusive}). A region already known was found at a path
 * no longer than the node's, and no later in character order: nothing below could give it a better witness.
 *
 * Every test here may only say "possible" when unsure: the cut is an optimisation, never a change of answer.
 */

import { compilePattern, matchPattern } from '../match/pattern.js';
import type { PatternAutomaton } from './automaton.js';
import type { ExploreNode } from './explore-node.js';
import { beats, type RuleTables, type Side, top } from './explore-rules.js';
import type { ChangedRegion, Product, Rule } from './product.js';

/** Pattern pairs tested for implication per exploration; past it, patterns are taken to imply nothing more. */
const IMPLICATION_BUDGET = 400_000;
/** Pairs of deciding rules examined per node before expanding it anyway. */
const PAIR_BUDGET = 4_000;

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

/** What implication and exclusion say about the patterns of one exploration, computed when first asked. */
class PatternFacts {
  private readonly pieces: (Pieces | undefined)[] = [];
  private readonly withImplied: ([Rule | null, Rule | null] | undefined)[] = [];
  private readonly exclusions = new Map<number, boolean>();
  private impliedBudget = IMPLICATION_BUDGET;

  constructor(
    private readonly automata: readonly PatternAutomaton[],
    private readonly t: RuleTables,
  ) {}

  /**
   * The deciding rule, per file (0 before, 1 after), among pattern `pid`'s rules and those of every pattern it implies:
   * a rule that must match whenever `pid` does.
   */
  closureTop(pid: number): [Rule | null, Rule | null] {
    let result = this.withImplied[pid];
    if (result !== undefined) return result;
    const { topBefore, topAfter } = this.t;
    const n = this.automata.length;
    result = [topBefore[pid]!, topAfter[pid]!];
    if (n - 1 <= this.impliedBudget) {
      this.impliedBudget -= n - 1;
      const w = this.piecesAt(pid);
      for (let q = 0; q < n; q++) {
        if (q === pid || !implies(w, this.piecesAt(q))) continue;
        result[0] = top(result[0], topBefore[q]!);
        result[1] = top(result[1], topAfter[q]!);
      }
    }
    this.withImplied[pid] = result;
    return result;
  }

  /** Whether no path matches both patterns. */
  disjoint(p: number, q: number): boolean {
    const pair = p < q ? p * this.automata.length + q : q * this.automata.length + p;
    let result = this.exclusions.get(pair);
    if (result === undefined) {
      result = exclusive(this.automata[p]!.source, this.automata[q]!.source);
      this.exclusions.set(pair, result);
    }
    return result;
  }

  private piecesAt(pid: number): Pieces {
    let p = this.pieces[pid];
    if (p === undefined) {
      p = piecesOf(this.automata[pid]!.source);
      this.pieces[pid] = p;
    }
    return p;
  }
}

/** The cut of one exploration. */
export class RegionCut {
  private readonly facts: PatternFacts;
  private readonly usersBefore: Product['usersBefore'];
  private readonly usersAfter: Product['usersAfter'];
  // Candidates, per file, that leave the path allowed (nothing, or an allow) and that block it (a disallow).
  private readonly allowedB: (Rule | null)[] = [];
  private readonly blockedB: Rule[] = [];
  private readonly allowedA: (Rule | null)[] = [];
  private readonly blockedA: Rule[] = [];
  private work = 0;

  constructor(
    product: Product,
    private readonly t: RuleTables,
    private readonly known: ReadonlyMap<number, ChangedRegion>,
  ) {
    this.facts = new PatternFacts(product.automata, t);
    this.usersBefore = product.usersBefore;
    this.usersAfter = product.usersAfter;
  }

  /**
   * Whether some pair of deciding rules (before, after) with different verdicts, not yet a known region, may decide a
   * path below the node (also true when the pair budget runs out before the answer is known).
   */
  open(node: ExploreNode): boolean {
    this.collect(node, 0, this.allowedB, this.blockedB);
    this.collect(node, 2, this.allowedA, this.blockedA);
    this.work = 0;
    return this.anyPair(this.allowedB, this.blockedA) || this.anyPair(this.blockedB, this.allowedA);
  }

  /**
   * One file's candidates: nothing (when nothing is folded in), the best folded in, a rule of a live pattern; none
   * that a rule which must match with it (folded in, or of its pattern and the patterns that pattern implies) beats.
   */
  private collect(node: ExploreNode, side: Side, allowed: (Rule | null)[], blocked: Rule[]): void {
    allowed.length = 0;
    blocked.length = 0;
    const add = (r: Rule): void => {
      // A rule beaten by one that matches whenever it does never decides.
      if (beats(this.facts.closureTop(r.pid)[side >> 1]!, r)) return;
      if (r.allow) allowed.push(r);
      else blocked.push(r);
    };
    const allow = this.t.ruleAt(node.best[side]!);
    const disallow = this.t.ruleAt(node.best[side + 1]!);
    const folded = top(allow, disallow);
    if (folded === null) allowed.push(null);
    else {
      add(folded);
      for (const r of [allow, disallow]) if (r !== null && r !== folded && !beats(folded, r)) add(r);
    }
    const tops = side === 0 ? this.t.topBefore : this.t.topAfter;
    const users = side === 0 ? this.usersBefore : this.usersAfter;
    for (let k = 0; k < node.live; k++) {
      const pid = node.pids[k]!;
      const own = tops[pid]!;
      for (const r of users[pid]!) {
        if ((folded !== null && beats(folded, r)) || (own !== r && beats(own!, r))) continue;
        add(r);
      }
    }
  }

  /** Whether `r` may decide in one file (0 before, 1 after) when `other`'s pattern matches too. */
  private mayDecide(r: Rule | null, side: 0 | 1, other: Rule | null): boolean {
    if (other === null) return true;
    const forced = this.facts.closureTop(other.pid)[side];
    if (r === null) return forced === null;
    return forced === null || forced === r || !beats(forced, r);
  }

  private anyPair(bs: readonly (Rule | null)[], as: readonly (Rule | null)[]): boolean {
    for (const b of bs) {
      for (const a of as) {
        if (++this.work > PAIR_BUDGET) return true;
        if (this.known.has(this.t.pairId(b, a))) continue;
        if (b !== null && a !== null && b.pid !== a.pid && this.facts.disjoint(b.pid, a.pid)) continue;
        if (this.mayDecide(b, 0, a) && this.mayDecide(a, 1, b)) return true;
      }
    }
    return false;
  }
}

/**
 * One node of the exploration: a product state copied out of the store (the arena moves as it grows), what each file
 * decides for the node's own path, whether either file's verdict may still change below it, and how a child state is
 * composed (patterns that now match whatever follows folded into the best rules, those that can no longer count
 * dropped).
 */

import { ACCEPT, DEAD, type PatternAutomaton } from './automaton.js';
import type { RuleTables, Side } from './explore-rules.js';
import { HEADER, type ProductStates } from './explore-states.js';

/**
 * Puts into `out` (a row as `explore-states.ts` lays it out) the state whose patterns are `pids` in `states`, the best
 * rules `best` folded in so far: what now matches whatever follows is folded in too, and dead patterns and those that
 * can no longer count are dropped. Relevance is rechecked only when the best rules changed, or when `recheckAll` says
 * the patterns were never checked.
 */
export function compose(
  t: RuleTables,
  pids: Int32Array,
  states: Int32Array,
  live: number,
  best: Int32Array,
  recheckAll: boolean,
  out: Int32Array,
): void {
  const first = t.first;
  for (let i = 0; i < 4; i++) out[1 + i] = best[i]!;
  let folded = false;
  for (let k = 0; k < live; k++) {
    if (states[k] !== ACCEPT) continue;
    folded = true;
    const pid = pids[k]!;
    for (let i = 0; i < 4; i++) {
      const r = first[i]![pid]!;
      if (r >= 0 && t.improvesOn(r, out[1 + i]!)) out[1 + i] = r;
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
        relevant = r >= 0 && t.improvesOn(r, out[1 + i]!);
      }
      if (!relevant) continue;
    }
    out[HEADER + 2 * m] = pid;
    out[HEADER + 1 + 2 * m] = state;
    m++;
  }
  out[0] = m;
}

/** The node being explored. */
export class ExploreNode {
  /** The live patterns and their states, in pattern order (the first `live` entries count). */
  readonly pids: Int32Array;
  readonly states: Int32Array;
  live = 0;
  /** The best rules folded in so far, by slot (see {@link Side}). */
  readonly best = new Int32Array(4);
  /** The rule that decided the last {@link ExploreNode.decide} (-1: none). */
  decidedRule = -1;

  constructor(
    private readonly t: RuleTables,
    private readonly automata: readonly PatternAutomaton[],
  ) {
    this.pids = new Int32Array(automata.length);
    this.states = new Int32Array(automata.length);
  }

  /**
   * Loads state `id`. Returns whether the two files may still decide some longer path differently: false when both
   * hold the same candidates (by kind and length) for every longer path.
   */
  load(store: ProductStates, id: number): boolean {
    const t = this.t;
    const arena = store.arena;
    const at = store.offsets[id]!;
    const best = this.best;
    this.live = arena[at]!;
    for (let i = 0; i < 4; i++) best[i] = arena[at + 1 + i]!;
    let open = t.priority(best[0]!) !== t.priority(best[2]!) || t.priority(best[1]!) !== t.priority(best[3]!);
    for (let k = 0; k < this.live; k++) {
      this.pids[k] = arena[at + HEADER + 2 * k]!;
      this.states[k] = arena[at + HEADER + 1 + 2 * k]!;
      if (t.differs[this.pids[k]!] === 1) open = true;
    }
    return open;
  }

  /** One file's verdict for the node's own path (true: allowed); its deciding rule goes to `decidedRule`. */
  decide(side: Side): boolean {
    const t = this.t;
    let allow = this.best[side]!;
    let disallow = this.best[side + 1]!;
    const allows = t.first[side]!;
    const disallows = t.first[side + 1]!;
    for (let k = 0; k < this.live; k++) {
      const pid = this.pids[k]!;
      if (!this.automata[pid]!.matches(this.states[k]!)) continue;
      const fa = allows[pid]!;
      if (fa >= 0 && t.improvesOn(fa, allow)) allow = fa;
      const fd = disallows[pid]!;
      if (fd >= 0 && t.improvesOn(fd, disallow)) disallow = fd;
    }
    const a = t.priority(allow);
    const d = t.priority(disallow);
    this.decidedRule = d > a ? disallow : allow;
    return !(d > a && d > 0);
  }

  /**
   * One file's verdict for every path longer than the node's (true: allowed), or null when it may still change: a
   * disallow folded in beats every allow that could still match; or an allow folded in (or none at all) is at least as
   * long as every disallow that could still match.
   */
  settled(side: Side): boolean | null {
    const t = this.t;
    let liveAllow = -1;
    let liveDisallow = -1;
    const allows = t.length[side]!;
    const disallows = t.length[side + 1]!;
    for (let k = 0; k < this.live; k++) {
      const pid = this.pids[k]!;
      if (allows[pid]! > liveAllow) liveAllow = allows[pid]!;
      if (disallows[pid]! > liveDisallow) liveDisallow = disallows[pid]!;
    }
    const a = t.priority(this.best[side]!);
    const d = t.priority(this.best[side + 1]!);
    if (d > 0 && d > a && d > liveAllow) return false;
    const worst = Math.max(d, liveDisallow);
    if (worst <= 0 || a >= worst) return true;
    return null;
  }
}

/**
 * The plain exploration of the product automaton, as `compareRobots` first shipped it: every reachable product state,
 * breadth-first, with a string key per state. `explore.ts` is the one `compareRobots` uses; this one stays beside the
 * tests (not shipped) as the reference the property tests hold it to through `compareRobotsWith` (same regions, same
 * witnesses).
 */

import type { RobotsRule } from '../../src/index.js';
import { ACCEPT, DEAD } from '../../src/semantics/automaton.js';
import {
  type ChangedRegion,
  changedRegion,
  improves,
  type Outcome,
  productOf,
  type Rule,
} from '../../src/semantics/product.js';

/** Explores the product of both rule sets breadth-first from `/`. */
export function explorePlain(
  beforeRules: readonly RobotsRule[],
  afterRules: readonly RobotsRule[],
  maxStates: number,
  deadline: number,
): Outcome {
  const { automata, use, standIn, usersBefore, usersAfter } = productOf(beforeRules, afterRules);
  const n = automata.length;
  const differs = (pid: number): boolean => (use[pid]! & 3) !== use[pid]! >> 2;

  /**
   * A product state. Patterns that already match whatever follows are folded into `best` (the best allow and
   * disallow rule among them, before and after), and patterns none of whose rules could beat those are dropped:
   * neither changes any later verdict or deciding line. What remains are the live patterns and their states, as
   * parallel arrays sorted by pattern id.
   */
  interface Node {
    readonly pids: Int32Array;
    readonly states: Int32Array;
    /** Best allow before, best disallow before, best allow after, best disallow after (null: none). */
    readonly best: readonly (Rule | null)[];
    readonly path: string;
  }
  const fold = (best: (Rule | null)[], users: readonly Rule[], side: 0 | 2): void => {
    for (const r of users) {
      const k = side + (r.allow ? 0 : 1);
      if (improves(r, best[k]!)) best[k] = r;
    }
  };
  const relevant = (pid: number, best: readonly (Rule | null)[]): boolean =>
    usersBefore[pid]!.some((r) => improves(r, best[r.allow ? 0 : 1]!)) ||
    usersAfter[pid]!.some((r) => improves(r, best[r.allow ? 2 : 3]!));
  const make = (
    pids: readonly number[],
    states: readonly number[],
    inherited: readonly (Rule | null)[],
    path: string,
  ) => {
    let best = inherited as (Rule | null)[];
    for (let k = 0; k < pids.length; k++) {
      if (states[k] !== ACCEPT) continue;
      if (best === inherited) best = [...inherited];
      fold(best, usersBefore[pids[k]!]!, 0);
      fold(best, usersAfter[pids[k]!]!, 2);
    }
    // Relevance only changes when `best` does (the inherited patterns were all relevant to the inherited best).
    const recheck = best !== inherited || path === '';
    const keepPids: number[] = [];
    const keepStates: number[] = [];
    for (let k = 0; k < pids.length; k++) {
      const state = states[k]!;
      if (state === DEAD || state === ACCEPT || (recheck && !relevant(pids[k]!, best))) continue;
      keepPids.push(pids[k]!);
      keepStates.push(state);
    }
    return { pids: Int32Array.from(keepPids), states: Int32Array.from(keepStates), best, path };
  };
  const advance = (node: Node, code: number): Node => {
    const states: number[] = [];
    for (let k = 0; k < node.pids.length; k++) states.push(automata[node.pids[k]!]!.step(node.states[k]!, code));
    return make(Array.from(node.pids), states, node.best, node.path + String.fromCharCode(code));
  };
  /** The verdict and deciding rule of one file for the node's own path. */
  const decideAt = (node: Node, side: 0 | 2): { allowed: boolean; rule: Rule | null } => {
    const best = [node.best[side]!, node.best[side + 1]!];
    for (let k = 0; k < node.pids.length; k++) {
      const pid = node.pids[k]!;
      if (!automata[pid]!.matches(node.states[k]!)) continue;
      for (const r of side === 0 ? usersBefore[pid]! : usersAfter[pid]!) {
        const i = r.allow ? 0 : 1;
        if (improves(r, best[i]!)) best[i] = r;
      }
    }
    const [allow, disallow] = best as [Rule | null, Rule | null];
    const a = allow === null ? -1 : allow.priority;
    const d = disallow === null ? -1 : disallow.priority;
    return { allowed: !(d > a && d > 0), rule: d > a ? disallow : allow };
  };
  const priority = (r: Rule | null): number => (r === null ? -1 : r.priority);
  /**
   * The verdict of one file for every path that extends the node's (true: allowed), or null when a longer path may
   * still be decided otherwise: a disallow folded in beats every allow that could still match; or an allow folded in
   * (or none at all) is at least as long as every disallow that could still match.
   */
  const settled = (node: Node, side: 0 | 2): boolean | null => {
    let liveAllow = -1;
    let liveDisallow = -1;
    for (let k = 0; k < node.pids.length; k++) {
      for (const r of side === 0 ? usersBefore[node.pids[k]!]! : usersAfter[node.pids[k]!]!) {
        if (r.allow) liveAllow = Math.max(liveAllow, r.priority);
        else liveDisallow = Math.max(liveDisallow, r.priority);
      }
    }
    const a = priority(node.best[side]!);
    const d = priority(node.best[side + 1]!);
    if (d > 0 && d > a && d > liveAllow) return false;
    const worst = Math.max(d, liveDisallow);
    if (worst <= 0 || a >= worst) return true;
    return null;
  };
  const regions = new Map<string, ChangedRegion>();
  const seen = new Set<string>();
  const ruleKey = (r: Rule | null): string => (r === null ? '-' : `${r.pid}.${r.line}`);

  const startPids: number[] = [];
  const startStates: number[] = [];
  for (let pid = 0; pid < n; pid++) {
    startPids.push(pid);
    startStates.push(automata[pid]!.start);
  }
  const root = make(startPids, startStates, [null, null, null, null], '');
  // Every path starts with `/`.
  let queue: Node[] = [advance(root, 0x2f)];
  const keyOf = (node: Node): string => {
    let key = node.best.map(ruleKey).join(' ');
    for (let k = 0; k < node.pids.length; k++) key += ` ${node.pids[k]}:${node.states[k]}`;
    return key;
  };
  seen.add(keyOf(queue[0]!));
  let explored = 0;
  let complete = true;
  outer: while (queue.length > 0) {
    const next: Node[] = [];
    for (const node of queue) {
      if (explored >= maxStates || (explored % 16 === 0 && Date.now() > deadline)) {
        complete = false;
        break outer;
      }
      explored++;
      // The verdicts for the path itself.
      const b = decideAt(node, 0);
      const a = decideAt(node, 2);
      if (b.allowed !== a.allowed) {
        const id = `${ruleKey(b.rule)}/${ruleKey(a.rule)}`;
        if (!regions.has(id)) regions.set(id, changedRegion(b.rule, a.rule, a.allowed, node.path, automata));
      }
      // Stop when both files hold the same candidates (by kind and length) for every longer path: the patterns
      // folded into `best` agree in length, and every live pattern is used alike by both.
      const open =
        priority(node.best[0]!) !== priority(node.best[2]!) ||
        priority(node.best[1]!) !== priority(node.best[3]!) ||
        node.pids.some(differs);
      if (!open) continue;
      // Stop, too, when each file's verdict is settled for every longer path, and the same: no region lies below.
      const settledBefore = settled(node, 0);
      if (settledBefore !== null && settledBefore === settled(node, 2)) continue;
      // Only the characters some live pattern tells apart, and one stand-in for all the others.
      const significant = new Set<number>([standIn]);
      for (let k = 0; k < node.pids.length; k++) {
        for (const c of automata[node.pids[k]!]!.significant(node.states[k]!)) significant.add(c);
      }
      const codes = [...significant].sort((x, y) => x - y);
      for (const code of codes) {
        const child = advance(node, code);
        const key = keyOf(child);
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(child);
      }
    }
    queue = next;
  }
  return { regions: [...regions.values()], complete, states: explored };
}

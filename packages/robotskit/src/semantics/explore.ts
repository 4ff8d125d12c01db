/**
 * The exploration of the product automaton that `compareRobots` uses: breadth-first from `/`, like the plain one
 * (`test/reference/explore-plain.ts`), and with the same answer (same regions, same witnesses, in the same order), at
 * far less cost. Its parts:
 *
 * - `explore-states.ts`: the states found, each a row of ints in one arena found again through a hash table (no string
 *   key), numbered in breadth-first order with parent links that rebuild witnesses;
 * - `explore-rules.ts`: the rules of both files as numbers in flat tables;
 * - `explore-node.ts`: the node being explored: each file's verdict for its path, whether the verdicts are settled
 *   below it, and how a child state is composed;
 * - `explore-cut.ts`: the cut of a branch whose possible regions are all known already;
 * - here: the loop, and which characters a node's children take (see {@link Children}).
 *
 * The cut depends only on a node's key and on the regions found so far, and the set of possible pairs only shrinks from
 * a node to its children, so every key reached first by the plain exploration is either reached first here by the same
 * path, or lies under a cut branch whose regions are all known: the regions and their witnesses are the same.
 */

import type { RobotsRule } from '../model/types.js';
import type { PatternAutomaton } from './automaton.js';
import { RegionCut } from './explore-cut.js';
import { compose, ExploreNode } from './explore-node.js';
import { RuleTables } from './explore-rules.js';
import { HEADER, ProductStates } from './explore-states.js';
import { type ChangedRegion, changedRegion, type Outcome, type Product, productOf } from './product.js';

/** Past this many numbers held for the states found, an exploration gives up (`complete: false`) to bound memory. */
const MAX_ARENA = 32_000_000;
/** States explored before cutting branches whose regions are all known (small explorations finish sooner without). */
const CUT_AFTER = 64;
/** `/`: every path starts with it. */
const SLASH = 0x2f;

/**
 * The children of a node: one per character that leads somewhere else, each composed and added to the store. The
 * per-character bookkeeping is kept between nodes, so expanding allocates nothing.
 */
class Children {
  private readonly automata: readonly PatternAutomaton[];
  /** Per live pattern: the state it goes to on a character it does not tell apart. */
  private readonly fallback: Int32Array;
  private readonly childStates: Int32Array;
  /** Per character: the live patterns that tell it apart. */
  private readonly byCode: number[][] = Array.from({ length: 128 }, () => []);
  private readonly marked = new Uint8Array(128);
  private readonly codes: number[] = [];

  constructor(
    private readonly product: Product,
    private readonly t: RuleTables,
  ) {
    this.automata = product.automata;
    this.fallback = new Int32Array(product.automata.length);
    this.childStates = new Int32Array(product.automata.length);
  }

  /** Adds every child of `node` (state `id`) to the store that does not hold it yet. */
  expand(node: ExploreNode, id: number, store: ProductStates): void {
    const { automata, childStates, fallback, byCode } = this;
    const codes = this.codesAfter(node);
    for (const code of codes) {
      for (let k = 0; k < node.live; k++) childStates[k] = fallback[k]!;
      for (const k of byCode[code]!) childStates[k] = automata[node.pids[k]!]!.step(node.states[k]!, code);
      compose(this.t, node.pids, childStates, node.live, node.best, false, store.scratch);
      store.add(id, code);
    }
    for (const c of codes) {
      this.marked[c] = 0;
      byCode[c]!.length = 0;
    }
  }

  /**
   * The characters the children take, ascending: those some live pattern tells apart, and the product's stand-in for
   * every character no pattern contains (noting, per live pattern, where the stand-in leads and which characters it
   * tells apart). A stand-in always exists (`productOf`), so every path is reached through these characters.
   */
  private codesAfter(node: ExploreNode): readonly number[] {
    const standIn = this.product.standIn;
    const { automata, codes, marked, byCode, fallback } = this;
    codes.length = 0;
    for (let k = 0; k < node.live; k++) {
      const automaton = automata[node.pids[k]!]!;
      const state = node.states[k]!;
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
    return codes;
  }
}

/** Adds the start state: every pattern before any character, then `/`. The node's arrays serve as scratch. */
function addStart(product: Product, t: RuleTables, node: ExploreNode, store: ProductStates): void {
  const { automata } = product;
  const { pids, states, best } = node;
  const scratch = store.scratch;
  for (let pid = 0; pid < automata.length; pid++) {
    pids[pid] = pid;
    states[pid] = automata[pid]!.start;
  }
  best.fill(-1);
  compose(t, pids, states, automata.length, best, true, scratch);
  const live = scratch[0]!;
  for (let k = 0; k < live; k++) {
    pids[k] = scratch[HEADER + 2 * k]!;
    states[k] = automata[pids[k]!]!.step(scratch[HEADER + 1 + 2 * k]!, SLASH);
  }
  best.set(scratch.subarray(1, HEADER));
  compose(t, pids, states, live, best, false, scratch);
  store.add(-1, SLASH);
}

/** Whether each file's verdict is settled for every path below the node, and the same: no region lies below. */
function settledAlike(node: ExploreNode): boolean {
  const before = node.settled(0);
  return before !== null && before === node.settled(2);
}

/** Explores the product of both rule sets breadth-first from `/`. */
export function explore(
  beforeRules: readonly RobotsRule[],
  afterRules: readonly RobotsRule[],
  maxStates: number,
  deadline: number,
): Outcome {
  const product = productOf(beforeRules, afterRules);
  const t = new RuleTables(product);
  const store = new ProductStates(product.automata.length);
  const node = new ExploreNode(t, product.automata);
  const regions = new Map<number, ChangedRegion>();
  const cut = new RegionCut(product, t, regions);
  const children = new Children(product, t);
  addStart(product, t, node, store);

  let explored = 0;
  let complete = true;
  for (let id = 0; id < store.count; id++) {
    if (explored >= maxStates || store.arenaLength > MAX_ARENA || (explored % 16 === 0 && Date.now() > deadline)) {
      complete = false;
      break;
    }
    explored++;
    const open = node.load(store, id);
    // The verdicts for the path itself.
    const allowedBefore = node.decide(0);
    const ruleBefore = t.ruleAt(node.decidedRule);
    const allowedAfter = node.decide(2);
    if (allowedBefore !== allowedAfter) {
      const ruleAfter = t.ruleAt(node.decidedRule);
      const rid = t.pairId(ruleBefore, ruleAfter);
      if (!regions.has(rid)) {
        regions.set(rid, changedRegion(ruleBefore, ruleAfter, allowedAfter, store.pathOf(id), product.automata));
      }
    }
    // Stop when both files hold the same candidates for every longer path, or their verdicts are settled alike, or
    // (not worth asking in a small exploration) every region that may lie below is known already.
    if (!open || settledAlike(node) || (explored > CUT_AFTER && !cut.open(node))) continue;
    children.expand(node, id, store);
  }
  return { regions: [...regions.values()], complete, states: explored };
}

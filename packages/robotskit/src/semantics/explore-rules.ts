/**
 * The two files' rules as the exploration's inner loops read them: numbers (a rule's `index`, -1 for none) into flat
 * tables, so that folding a pattern in, deciding a path and comparing candidates read ints, not objects; and which
 * rule decides over which (`beats`, `top`), shared with the cut (`explore-cut.ts`).
 */

import type { Product, Rule } from './product.js';

/** Whether `x` decides over `y` when both match: longer; as long and an allow; same kind and length, earlier. */
export function beats(x: Rule, y: Rule): boolean {
  if (x.priority !== y.priority) return x.priority > y.priority;
  if (x.allow !== y.allow) return x.allow;
  return x.line < y.line;
}

/** The one of two rules (either may be null: none) that decides when both match. */
export function top(x: Rule | null, y: Rule | null): Rule | null {
  if (x === null) return y;
  if (y === null) return x;
  return beats(y, x) ? y : x;
}

/**
 * The slots of a node's best rules folded in so far, in this order: best allow before, best disallow before, best
 * allow after, best disallow after. A file's pair starts at its `side` (0 before, 2 after).
 */
export type Side = 0 | 2;

/** The rules of both files, numbered (before's first), with what the exploration asks of them per pattern. */
export class RuleTables {
  readonly rules: readonly Rule[];
  readonly priorityOf: Int32Array;
  readonly lineOf: Int32Array;
  /**
   * Per slot (see {@link Side}), per pattern: the pattern's first rule of that kind in that file (-1: none), the only
   * one that can improve on a best of its kind (a pattern's rules are all as long).
   */
  readonly first: readonly Int32Array[];
  /** Per slot, per pattern: that first rule's length (-1: none), for `settled`. */
  readonly length: readonly Int32Array[];
  /** Per pattern, the rule of each file that decides among the pattern's own rules (null: the file has none). */
  readonly topBefore: readonly (Rule | null)[];
  readonly topAfter: readonly (Rule | null)[];
  /** Per pattern, 1 when the two files use it differently (by kind). */
  readonly differs: Uint8Array;

  constructor(product: Product) {
    const { before, after, use, usersBefore, usersAfter } = product;
    this.rules = [...before, ...after];
    this.priorityOf = Int32Array.from(this.rules, (r) => r.priority);
    this.lineOf = Int32Array.from(this.rules, (r) => r.line);
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
    this.first = first;
    this.length = length;
    this.topBefore = usersBefore.map((list) => list.reduce<Rule | null>(top, null));
    this.topAfter = usersAfter.map((list) => list.reduce<Rule | null>(top, null));
    this.differs = Uint8Array.from(use, (u) => ((u & 3) !== u >> 2 ? 1 : 0));
  }

  /** The rule numbered `i`, or null for -1. */
  ruleAt(i: number): Rule | null {
    return i < 0 ? null : this.rules[i]!;
  }

  /** The length of rule `r` (-1: none). */
  priority(r: number): number {
    return r < 0 ? -1 : this.priorityOf[r]!;
  }

  /** Whether rule `r` would beat `best` (-1: none), the best matching rule of its kind so far. */
  improvesOn(r: number, best: number): boolean {
    const priorityOf = this.priorityOf;
    return (
      best < 0 ||
      priorityOf[r]! > priorityOf[best]! ||
      (priorityOf[r] === priorityOf[best] && this.lineOf[r]! < this.lineOf[best]!)
    );
  }

  /** A number for the pair of deciding rules (before, after), null meaning none: the key of a region. */
  pairId(before: Rule | null, after: Rule | null): number {
    return (before === null ? 0 : before.index + 1) * (this.rules.length + 1) + (after === null ? 0 : after.index + 1);
  }
}

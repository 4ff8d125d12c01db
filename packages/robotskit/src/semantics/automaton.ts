/**
 * One allow/disallow pattern as a deterministic automaton over the characters of a path, for the semantic comparison.
 *
 * A normalised pattern is `P*S1*…*Sk*T` with an optional final `$` (see `match/pattern.ts`): `P` must be a prefix of
 * the path, each `Si` is found at its leftmost occurrence after the previous one, and then either nothing more is
 * needed (no `$`) or the path must end with `T` after everything matched before. Leftmost occurrences decide exactly
 * what any other choice would, so one state per (stage, characters of the current literal matched) suffices: the
 * prefix is compared position by position, the segments and the anchored tail are followed with KMP failure links.
 * States are small integers; {@link DEAD} (can never match) and {@link ACCEPT} (matches whatever follows) absorb.
 */

import { compilePattern } from '../match/pattern.js';

/** The pattern can no longer match, whatever follows. */
export const DEAD = -1;
/** The pattern matches, whatever follows. */
export const ACCEPT = -2;
/** Marks a transition not computed yet. */
const UNKNOWN = -9;
/** An anchored pattern without `*` matched the whole path so far: it matches now, and nothing longer. */
const END_OK = -3;

type Stage =
  | { readonly kind: 'prefix'; readonly text: string; readonly offset: number }
  | { readonly kind: 'find'; readonly text: string; readonly offset: number; readonly fail: Int32Array }
  | { readonly kind: 'tail'; readonly text: string; readonly offset: number; readonly fail: Int32Array };

/** `fail[j]`: length of the longest proper border of `text.slice(0, j)`, for j in 0..text.length. */
function failureLinks(text: string): Int32Array {
  const fail = new Int32Array(text.length + 1);
  let k = 0;
  for (let j = 1; j < text.length; j++) {
    while (k > 0 && text.charCodeAt(j) !== text.charCodeAt(k)) k = fail[k]!;
    if (text.charCodeAt(j) === text.charCodeAt(k)) k++;
    fail[j + 1] = k;
  }
  return fail;
}

/** A pattern's automaton; transitions are computed on demand and cached per alphabet class. */
export class PatternAutomaton {
  /** The normalised pattern; its length is the rule's priority. */
  readonly source: string;
  private readonly stages: Stage[] = [];
  /** After the last stage: ACCEPT, or END_OK for an anchored pattern without `*`. */
  private readonly done: number;
  /** The tail stage of an anchored pattern with `*` and a non-empty tail, or null. */
  private readonly tail: Stage | null = null;
  /** Transitions computed so far: a row of 128 per state reached ({@link UNKNOWN} where not yet computed). */
  private readonly rows: (Int32Array | undefined)[] = [];
  private readonly significantCache = new Map<number, readonly number[]>();
  /** The state before any character. */
  readonly start: number;

  constructor(source: string) {
    this.source = source;
    const p = compilePattern(source);
    let offset = 0;
    const push = (stage: Stage): void => {
      this.stages.push(stage);
      offset += stage.text.length + 1;
    };
    if (p.prefix.length > 0) push({ kind: 'prefix', text: p.prefix, offset });
    if (p.segments === null) {
      this.done = p.anchored ? END_OK : ACCEPT;
    } else {
      for (const s of p.segments) push({ kind: 'find', text: s, offset, fail: failureLinks(s) });
      if (p.tail.length === 0) this.done = ACCEPT;
      else if (p.anchored) {
        const tail: Stage = { kind: 'tail', text: p.tail, offset, fail: failureLinks(p.tail) };
        push(tail);
        this.tail = tail;
        this.done = ACCEPT; // never reached: the tail stage is never left
      } else {
        push({ kind: 'find', text: p.tail, offset, fail: failureLinks(p.tail) });
        this.done = ACCEPT;
      }
    }
    this.start = this.enter(0);
  }

  /** The state at the start of stage `i` (or past the last stage). */
  private enter(i: number): number {
    const stage = this.stages[i];
    return stage === undefined ? this.done : stage.offset;
  }

  private stageOf(state: number): number {
    // Stages are few for ordinary patterns; a linear scan keeps this simple and cached transitions make it rare.
    let i = this.stages.length - 1;
    while (this.stages[i]!.offset > state) i--;
    return i;
  }

  /**
   * The characters that lead anywhere from `state` other than where a character absent from the pattern leads: the
   * next expected character, and for a searched literal those along its failure links.
   */
  significant(state: number): readonly number[] {
    if (state < 0) return [];
    let codes = this.significantCache.get(state);
    if (codes !== undefined) return codes;
    const stage = this.stages[this.stageOf(state)]!;
    const text = stage.text;
    let j = state - stage.offset;
    const found = new Set<number>();
    if (stage.kind === 'prefix') found.add(text.charCodeAt(j));
    else {
      for (;;) {
        if (j < text.length) found.add(text.charCodeAt(j));
        if (j === 0) break;
        j = stage.fail[j]!;
      }
    }
    codes = [...found];
    this.significantCache.set(state, codes);
    return codes;
  }

  /** Whether the pattern matches a path that ends in this state. */
  matches(state: number): boolean {
    if (state === ACCEPT || state === END_OK) return true;
    if (state < 0 || this.tail === null) return false;
    return state === this.tail.offset + this.tail.text.length;
  }

  /** The state after reading character `code` (below 128: patterns are ASCII after normalisation). */
  step(state: number, code: number): number {
    if (state === DEAD || state === ACCEPT) return state;
    if (state === END_OK) return DEAD;
    let row = this.rows[state];
    if (row === undefined) {
      row = new Int32Array(128).fill(UNKNOWN);
      this.rows[state] = row;
    }
    const cached = row[code]!;
    if (cached !== UNKNOWN) return cached;
    const i = this.stageOf(state);
    const stage = this.stages[i]!;
    let j = state - stage.offset;
    const text = stage.text;
    let next: number;
    if (stage.kind === 'prefix') {
      if (text.charCodeAt(j) !== code) next = DEAD;
      else next = j + 1 === text.length ? this.enter(i + 1) : state + 1;
    } else {
      while (j > 0 && (j === text.length || text.charCodeAt(j) !== code)) j = stage.fail[j]!;
      if (text.charCodeAt(j) === code) j++;
      if (stage.kind === 'find' && j === text.length) next = this.enter(i + 1);
      else next = stage.offset + j;
    }
    row[code] = next;
    return next;
  }
}

/**
 * Applying fixes to the linted input.
 */

import type { Diagnostic } from './diagnostic.js';
import type { TextEdit } from './rule.js';

function overlaps(a: TextEdit, b: TextEdit): boolean {
  const { start: as, end: ae } = a.range;
  const { start: bs, end: be } = b.range;
  // Two insertions at one point would be applied in an arbitrary order; an insertion touching a replaced range is fine.
  if (as === ae && bs === be) return as === bs;
  return as < be && bs < ae;
}

/** The edits of the fixes that can be applied together: a fix whose edits overlap an earlier fix's is left out. */
function compatibleEdits(diagnostics: readonly Pick<Diagnostic, 'fix'>[]): TextEdit[] {
  const accepted: TextEdit[] = [];
  for (const d of diagnostics) {
    if (d.fix === undefined) continue;
    const edits = d.fix.edits;
    if (edits.some((e) => accepted.some((a) => overlaps(a, e)))) continue;
    accepted.push(...edits);
  }
  // Later edits first, so earlier offsets stay valid; at one offset, an insertion goes before a replacement starting there.
  return accepted.sort((a, b) => b.range.start - a.range.start || b.range.end - a.range.end);
}

/**
 * Applies the fixes of `diagnostics` (as {@link lint} returned them for `input`) and returns the corrected input, of
 * the same type. Fixes are applied in order; one that overlaps a fix already applied is skipped (lint the result
 * again to get the rest).
 * @example applyFixes(text, lint(text)) // every obvious correction at once
 */
export function applyFixes(input: string, diagnostics: readonly Pick<Diagnostic, 'fix'>[]): string;
export function applyFixes(input: Uint8Array, diagnostics: readonly Pick<Diagnostic, 'fix'>[]): Uint8Array;
export function applyFixes(
  input: string | Uint8Array,
  diagnostics: readonly Pick<Diagnostic, 'fix'>[],
): string | Uint8Array {
  const edits = compatibleEdits(diagnostics);
  if (typeof input === 'string') {
    let out = input;
    for (const e of edits) out = out.slice(0, e.range.start) + e.text + out.slice(e.range.end);
    return out;
  }
  const encoder = new TextEncoder();
  let out = input;
  for (const e of edits) {
    const text = encoder.encode(e.text);
    const next = new Uint8Array(out.length - (e.range.end - e.range.start) + text.length);
    next.set(out.subarray(0, e.range.start), 0);
    next.set(text, e.range.start);
    next.set(out.subarray(e.range.end), e.range.start + text.length);
    out = next;
  }
  return out;
}

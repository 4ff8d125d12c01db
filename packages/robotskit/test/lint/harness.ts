/**
 * Checks shared by the lint tests: where each diagnostic must point, computed independently of the engine.
 */
import { expect } from 'vitest';
import type { Diagnostic } from '../../src/lint/index.js';

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The text of a diagnostic's range, decoded for bytes. */
export function sliceOf(input: string | Uint8Array, d: Diagnostic): string {
  return typeof input === 'string'
    ? input.slice(d.range.start, d.range.end)
    : utf8.decode(input.subarray(d.range.start, d.range.end));
}

/** Line starts of an input, counted independently of the engine: CR, LF and CRLF each end a line. */
function lineStarts(input: string | Uint8Array): number[] {
  const at = typeof input === 'string' ? (i: number) => input.charCodeAt(i) : (i: number) => input[i] ?? Number.NaN;
  const starts = [0];
  for (let i = 0; i < input.length; i++) {
    const c = at(i);
    if (c === 0x0d && at(i + 1) === 0x0a) i++;
    if (c === 0x0a || c === 0x0d) starts.push(i + 1);
  }
  return starts;
}

/** Invariants of every diagnostic: an in-bounds range; line and column derived from its offsets. */
export function checkPositions(input: string | Uint8Array, diagnostics: readonly Diagnostic[], name: string): void {
  const starts = lineStarts(input);
  const position = (offset: number): [number, number] => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, offset - starts[lo]! + 1];
  };
  // Collected, then asserted once: a file can have tens of thousands of diagnostics.
  const wrong: string[] = [];
  for (const d of diagnostics) {
    const where = `${name}: ${d.code} at ${d.line}:${d.column}`;
    const inBounds = d.range.start >= 0 && d.range.start <= d.range.end && d.range.end <= input.length;
    if (!inBounds) wrong.push(`${where}: range ${d.range.start}-${d.range.end} of ${input.length}`);
    const [line, column] = position(d.range.start);
    const [endLine, endColumn] = position(d.range.end);
    if (d.line !== line || d.column !== column || d.endLine !== endLine || d.endColumn !== endColumn)
      wrong.push(
        `${where}: expected ${line}:${column}-${endLine}:${endColumn}, got ${d.endLine}:${d.endColumn} at the end`,
      );
    if (d.message.length < 10) wrong.push(`${where}: message ${JSON.stringify(d.message)}`);
    for (const edit of d.fix?.edits ?? []) {
      if (edit.range.start > edit.range.end || edit.range.end > input.length) wrong.push(`${where}: fix range`);
    }
  }
  expect(wrong).toEqual([]);
}

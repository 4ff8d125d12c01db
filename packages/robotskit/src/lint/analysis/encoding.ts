/**
 * Facts about the file's encoding that only bytes can show.
 */

import type { Range } from '../../model/types.js';
import { byteAt } from '../../parse/input.js';
import type { LintContext } from '../rule.js';

/** Whether the input bytes are UTF-16, and the bytes that show it. */
export function utf16Encoding(context: LintContext): { name: string; range: Range } | null {
  if (context.unit !== 'byte') return null;
  const bin = context.units;
  const at = (i: number): number => (i < bin.length ? byteAt(bin, i) : -1);
  if (at(0) === 0xff && at(1) === 0xfe)
    return { name: 'UTF-16 (little-endian, with a byte order mark)', range: { start: 0, end: 2 } };
  if (at(0) === 0xfe && at(1) === 0xff)
    return { name: 'UTF-16 (big-endian, with a byte order mark)', range: { start: 0, end: 2 } };
  // Without a byte order mark: ASCII text in UTF-16 has a NUL in every other byte.
  if (bin.length >= 8) {
    let evenNul = 0;
    let oddNul = 0;
    const n = Math.min(bin.length & ~1, 64);
    for (let i = 0; i < n; i++) {
      if (at(i) !== 0) continue;
      if (i % 2 === 0) evenNul++;
      else oddNul++;
    }
    const half = n / 2;
    if (oddNul === half && evenNul === 0) return { name: 'UTF-16 (little-endian)', range: { start: 0, end: n } };
    if (evenNul === half && oddNul === 0) return { name: 'UTF-16 (big-endian)', range: { start: 0, end: n } };
  }
  return null;
}

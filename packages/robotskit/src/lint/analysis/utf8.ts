/**
 * Finding bytes that are not UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
 */

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the bytes there are not UTF-8. */
function sequenceLength(bytes: Uint8Array, i: number, end: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  let n: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) n = 2;
  else if (b >= 0xe0 && b <= 0xef) {
    n = 3;
    if (b === 0xe0) lo = 0xa0;
    if (b === 0xed) hi = 0x9f;
  } else if (b >= 0xf0 && b <= 0xf4) {
    n = 4;
    if (b === 0xf0) lo = 0x90;
    if (b === 0xf4) hi = 0x8f;
  } else return 0;
  if (i + n > end) return 0;
  for (let k = 1; k < n; k++) {
    const c = bytes[i + k]!;
    if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return 0;
  }
  return n;
}

/** The first run of bytes in `[start, end)` that is not UTF-8, as `[from, to)`, or null when all of it is UTF-8. */
export function firstInvalidUtf8(bytes: Uint8Array, start: number, end: number): [number, number] | null {
  let i = start;
  while (i < end) {
    const n = sequenceLength(bytes, i, end);
    if (n > 0) {
      i += n;
      continue;
    }
    let j = i + 1;
    while (j < end && sequenceLength(bytes, j, end) === 0) j++;
    return [i, j];
  }
  return null;
}

/**
 * The scan that builds the model: the same reading of every line as {@link scanLines}, but written into rows of a
 * reused integer table instead of handed to a visitor, and only for the lines the model uses (directives, and blank
 * lines, which end groups in the legacy dialect). No call per line and no shared object to fill: on real files this
 * is the largest part of parsing. `scanLines` stays the plain reading (records and tools use it); the two are checked
 * against each other over generated files (test/fast-paths.test.ts).
 *
 * One more shortcut: a line whose content starts with a field name spelt in full and directly followed by a colon
 * (`Disallow:`, `user-agent:`) has that name as its key and that colon as its separator, so the colon is not searched.
 */

import { LineFlag } from './fields.js';
import { classifyKey, EXACT_DISALLOW, exactKeyWithColon, KEY_FIELD_MASK, startsWithDisallowColon } from './keys.js';
import { bomLength, isAsciiSpace, MAX_LINE_BYTES, whitespaceSeparator } from './lines.js';

/** Ints per row of a {@link DirectiveRows} table. */
export const ROW_INTS = 6;
/** Row layout: first `field | flags << 3` (a {@link Field} code and {@link LineFlag} bits), then the 1-based line, ... */
export const ROW_LINE = 1;
/** ... the key's and the value's trimmed bounds (byte offsets; -1 for a blank line). */
export const ROW_KEY_START = 2;
export const ROW_KEY_END = 3;
export const ROW_VALUE_START = 4;
export const ROW_VALUE_END = 5;
/** Bits of a row's code below the flags. */
export const ROW_FLAGS_SHIFT = 3;

/** A table of rows, {@link ROW_INTS} ints each; the scan grows `data` as needed. */
export interface DirectiveRows {
  data: Int32Array;
  /** Rows written. */
  count: number;
}

const LF = 0x0a;
const CR = 0x0d;
const L_BLANK = LineFlag.Blank;
const L_HAS_COMMENT = LineFlag.HasComment;
const L_TOO_LONG = LineFlag.TooLong;
const L_NUL = LineFlag.Nul;
const L_MISSING_COLON = LineFlag.MissingColon;

function grow(rows: DirectiveRows): Int32Array {
  const next = new Int32Array(Math.max(rows.data.length * 2, 64 * ROW_INTS));
  next.set(rows.data);
  rows.data = next;
  return next;
}

/**
 * Scans robots.txt bytes and writes one row per directive line and per blank line, in line order,
 * with the facts {@link scanLines} reports for them. Comment-only lines and lines without a directive get no row.
 * Returns the number of lines. `bin` and `bytes` are the same bytes (see `input.ts`; `bytes` may run on past the end
 * of `bin`, which ends the text): searches use the string, single reads the bytes, each the faster for it.
 */
export function scanDirectives(bin: string, bytes: Uint8Array, rows: DirectiveRows): number {
  const b = bytes;
  const n = bin.length;
  let data = rows.data;
  let at = 0;
  let pos = bomLength(bin);
  let line = 0;
  let nextLf = bin.indexOf('\n', pos);
  let nextCr = bin.indexOf('\r', pos);
  let nextHash = bin.indexOf('#', pos);
  let nextNul = bin.indexOf('\0', pos);
  // -2: not searched yet (searched on the first line that needs it; -1 means there is none).
  let nextColon = -2;
  for (;;) {
    if (nextLf >= 0 && nextLf < pos) nextLf = bin.indexOf('\n', pos);
    if (nextCr >= 0 && nextCr < pos) nextCr = bin.indexOf('\r', pos);
    let end = nextLf < 0 ? n : nextLf;
    if (nextCr >= 0 && nextCr < end) end = nextCr;
    line++;

    let flags = 0;
    let stop = end;
    if (stop - pos > MAX_LINE_BYTES) {
      stop = pos + MAX_LINE_BYTES;
      flags = L_TOO_LONG;
    }
    if (nextHash >= 0 && nextHash < pos) nextHash = bin.indexOf('#', pos);
    if (nextNul >= 0 && nextNul < pos) nextNul = bin.indexOf('\0', pos);
    if (nextNul >= 0 && nextNul < stop && (nextHash < 0 || nextNul < nextHash)) {
      stop = nextNul;
      flags |= L_NUL;
    } else if (nextHash >= 0 && nextHash < stop) {
      stop = nextHash;
      flags |= L_HAS_COMMENT;
    }

    let ts = pos;
    while (ts < stop && isAsciiSpace(b[ts]!)) ts++;
    let te = stop;
    while (te > ts && isAsciiSpace(b[te - 1]!)) te--;
    if (ts === te) {
      if ((flags & L_HAS_COMMENT) === 0) {
        if (at + ROW_INTS > data.length) data = grow(rows);
        data[at] = (flags | L_BLANK) << ROW_FLAGS_SHIFT;
        data[at + 1] = line;
        data[at + 2] = -1;
        data[at + 3] = -1;
        data[at + 4] = -1;
        data[at + 5] = -1;
        at += ROW_INTS;
      }
    } else {
      let field = 0;
      let ke = -1;
      let sep = -1;
      const exact = startsWithDisallowColon(b, ts, te) ? EXACT_DISALLOW : exactKeyWithColon(b, ts, te);
      if (exact !== 0) {
        field = exact & KEY_FIELD_MASK;
        sep = ke = ts + (exact >> 3);
      } else {
        if (nextColon !== -1 && nextColon < ts) nextColon = bin.indexOf(':', ts);
        sep = nextColon >= 0 && nextColon < te ? nextColon : -1;
        if (sep < 0) sep = whitespaceSeparator(bin, ts, te);
        if (sep >= 0) {
          if (bin.charCodeAt(sep) !== 0x3a) flags |= L_MISSING_COLON;
          ke = sep;
          while (ke > ts && isAsciiSpace(bin.charCodeAt(ke - 1))) ke--;
          if (ke > ts) {
            const key = classifyKey(bin, ts, ke);
            field = key & KEY_FIELD_MASK;
            flags |= key & ~KEY_FIELD_MASK;
          }
        }
      }
      if (field !== 0) {
        let vs = sep + 1;
        while (vs < te && isAsciiSpace(b[vs]!)) vs++;
        if (at + ROW_INTS > data.length) data = grow(rows);
        data[at] = field | (flags << ROW_FLAGS_SHIFT);
        data[at + 1] = line;
        data[at + 2] = ts;
        data[at + 3] = ke;
        data[at + 4] = vs;
        data[at + 5] = te;
        at += ROW_INTS;
      }
    }

    if (end >= n) break;
    pos = end + (end + 1 < n && b[end] === CR && b[end + 1] === LF ? 2 : 1);
  }
  rows.count = at / ROW_INTS;
  return line;
}

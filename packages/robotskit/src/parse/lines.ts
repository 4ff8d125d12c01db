/**
 * The one pass over the input: BOM, line breaks, the line-length cap, NUL, comments and the key/value split, exactly
 * as Google's reference parser (google/robotstxt `RobotsTxtParser::Parse`) reads a file. Nothing here decides groups or
 * matches URLs; each line's facts go to a visitor (the model builder, the record builder), as the reference's
 * streaming parser feeds its handlers.
 *
 * The input is a `bin` string, one char per byte (see `input.ts`), so every offset here is a byte offset. Line breaks,
 * `#`, NUL and `:` are found with native `indexOf`, each next position remembered until the scan passes it; only the
 * few chars around a line's key are looked at one by one. Every char is examined a bounded number of times, so the
 * scan is linear in the input.
 */

import { Field, LineFlag } from './fields.js';
import { classifyKey, KEY_FIELD_MASK } from './keys.js';

/**
 * Google keeps at most this many bytes of a line (`2083 * 8 - 1`: a buffer of 2083 * 8 with room for the final NUL)
 * and parses the kept prefix.
 */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

/**
 * What the scanner reports for one line. Offsets are byte offsets (chars of the `bin` string). The scanner reuses one
 * object for every line: copy what you keep.
 */
export interface LineFacts {
  /** 1-based line number. */
  line: number;
  /** Where the line starts. */
  start: number;
  /** Where the line ends, before its line break (the whole line, beyond any cap). */
  end: number;
  /** The key, trimmed; -1 when the line has no directive. */
  keyStart: number;
  keyEnd: number;
  /** The value, trimmed; -1 when the line has no directive. */
  valueStart: number;
  valueEnd: number;
  /** A {@link Field} code. */
  field: number;
  /** {@link LineFlag} bits. */
  flags: number;
  /** Where a `#` comment starts, or -1. */
  comment: number;
}

/** Receives each line as it is scanned. */
type LineVisitor = (facts: LineFacts) => void;

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/** ASCII whitespace as `absl::ascii_isspace` and C `isspace` define it: space, \t, \n, \v, \f, \r. */
export function isAsciiSpace(c: number): boolean {
  return c === SPACE || (c >= TAB && c <= CR);
}

/** Length of the leading (possibly partial) UTF-8 BOM that Google skips: `EF BB BF`, `EF BB` or `EF`. */
export function bomLength(bin: string): number {
  // Bytes 0xA0-0xFF read as the chars of the same code in every "latin1" decoding.
  if (bin.charCodeAt(0) !== 0xef) return 0;
  if (bin.charCodeAt(1) !== 0xbb) return 1;
  return bin.charCodeAt(2) === 0xbf ? 3 : 2;
}

// Flag and field codes as plain constants: the hot loop below should not look them up on objects.
const F_NONE = Field.None;
const L_BLANK = LineFlag.Blank;
const L_COMMENT_ONLY = LineFlag.CommentOnly;
const L_HAS_COMMENT = LineFlag.HasComment;
const L_TOO_LONG = LineFlag.TooLong;
const L_NUL = LineFlag.Nul;
const L_MISSING_COLON = LineFlag.MissingColon;
const L_EMPTY_KEY = LineFlag.EmptyKey;

/**
 * Scans robots.txt bytes (as a `bin` string) line by line and hands each line's facts to `visit`, the way the
 * reference's streaming parser feeds its handlers. CR, LF and CRLF each end a line; the text after the last line
 * break is always one more (possibly empty) line. Returns the number of lines.
 */
export function scanLines(bin: string, visit: LineVisitor): number {
  const n = bin.length;
  const facts: LineFacts = {
    line: 0,
    start: 0,
    end: 0,
    keyStart: -1,
    keyEnd: -1,
    valueStart: -1,
    valueEnd: -1,
    field: F_NONE,
    flags: 0,
    comment: -1,
  };
  let pos = bomLength(bin);
  let line = 0;
  let nextLf = bin.indexOf('\n', pos);
  let nextCr = bin.indexOf('\r', pos);
  let nextHash = bin.indexOf('#', pos);
  let nextNul = bin.indexOf('\0', pos);
  let nextColon = bin.indexOf(':', pos);
  for (;;) {
    if (nextLf >= 0 && nextLf < pos) nextLf = bin.indexOf('\n', pos);
    if (nextCr >= 0 && nextCr < pos) nextCr = bin.indexOf('\r', pos);
    let end = nextLf < 0 ? n : nextLf;
    if (nextCr >= 0 && nextCr < end) end = nextCr;

    facts.line = ++line;
    facts.start = pos;
    facts.end = end;
    facts.keyStart = -1;
    facts.keyEnd = -1;
    facts.valueStart = -1;
    facts.valueEnd = -1;
    facts.field = F_NONE;

    // The reference keeps a line in a C string of at most MAX_LINE_BYTES: a NUL ends it, and so does a '#'.
    let flags = 0;
    let stop = end;
    if (stop - pos > MAX_LINE_BYTES) {
      stop = pos + MAX_LINE_BYTES;
      flags |= L_TOO_LONG;
    }
    if (nextHash >= 0 && nextHash < pos) nextHash = bin.indexOf('#', pos);
    if (nextNul >= 0 && nextNul < pos) nextNul = bin.indexOf('\0', pos);
    let comment = -1;
    if (nextNul >= 0 && nextNul < stop && (nextHash < 0 || nextNul < nextHash)) {
      stop = nextNul;
      flags |= L_NUL;
    } else if (nextHash >= 0 && nextHash < stop) {
      comment = nextHash;
      stop = nextHash;
      flags |= L_HAS_COMMENT;
    }
    facts.comment = comment;

    let ts = pos;
    while (ts < stop && isAsciiSpace(bin.charCodeAt(ts))) ts++;
    let te = stop;
    while (te > ts && isAsciiSpace(bin.charCodeAt(te - 1))) te--;
    if (ts === te) {
      flags |= comment >= 0 ? L_COMMENT_ONLY : L_BLANK;
    } else {
      if (nextColon >= 0 && nextColon < ts) nextColon = bin.indexOf(':', ts);
      let sep = nextColon >= 0 && nextColon < te ? nextColon : -1;
      if (sep < 0) sep = whitespaceSeparator(bin, ts, te);
      if (sep < 0) {
        flags |= -sep;
      } else {
        if (bin.charCodeAt(sep) !== 0x3a) flags |= L_MISSING_COLON;
        let ke = sep;
        while (ke > ts && isAsciiSpace(bin.charCodeAt(ke - 1))) ke--;
        if (ke === ts) {
          flags |= L_EMPTY_KEY;
        } else {
          let vs = sep + 1;
          while (vs < te && isAsciiSpace(bin.charCodeAt(vs))) vs++;
          const key = classifyKey(bin, ts, ke);
          facts.keyStart = ts;
          facts.keyEnd = ke;
          facts.valueStart = vs;
          facts.valueEnd = te;
          facts.field = key & KEY_FIELD_MASK;
          flags |= key & ~KEY_FIELD_MASK;
        }
      }
    }
    facts.flags = flags;
    visit(facts);

    if (end >= n) return line;
    pos = end + (end + 1 < n && bin.charCodeAt(end) === CR && bin.charCodeAt(end + 1) === LF ? 2 : 1);
  }
}

/**
 * For a line without a colon (content `[ts, te)`, trimmed): Google accepts whitespace in place of the colon, but only
 * between exactly two tokens. Returns the separator's position, or minus the {@link LineFlag} saying why there is none.
 */
export function whitespaceSeparator(bin: string, ts: number, te: number): number {
  let sep = ts;
  while (sep < te && bin.charCodeAt(sep) !== SPACE && bin.charCodeAt(sep) !== TAB) sep++;
  if (sep === te) return -LineFlag.NoSeparator;
  let v = sep;
  while (v < te && (bin.charCodeAt(v) === SPACE || bin.charCodeAt(v) === TAB)) v++;
  for (; v < te; v++) {
    const c = bin.charCodeAt(v);
    if (c === SPACE || c === TAB) return -LineFlag.TooManyTokens;
  }
  return sep;
}

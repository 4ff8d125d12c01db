/**
 * Turning what callers hand us (a string, bytes, an ArrayBuffer) into what the parser reads: a string with exactly
 * one char per input byte (`bin`).
 *
 * The reference parser works on bytes, so we do too: the line-length cap, pattern escaping and the BOM rule are all
 * defined in bytes. Reading bytes through a one-char-per-byte string lets the scanner use the engine's native string
 * search, which is several times faster than a loop over a Uint8Array. For ASCII text (most robots.txt files) the
 * input string itself is that string, with no copy at all.
 */

/** What {@link parseRobotsTxt} accepts: the text of a robots.txt, or its raw bytes. */
export type RobotsInput = string | Uint8Array | ArrayBuffer;

/** The default and recommended parse limit: Google parses the first 500 KiB. */
export const DEFAULT_MAX_BYTES = 512_000;

/** The bytes to parse, with what we know about where they came from. */
export interface SourceBytes {
  /** One char per parsed byte (at most `maxBytes` of them); see {@link byteAt}. Equal to the input for ASCII text. */
  readonly bin: string;
  /** The parsed bytes as UTF-8, when the input has any byte >= 0x80; null for ASCII (then `bin` is the text). */
  readonly bytes: Uint8Array | null;
  /** Size of the whole input in bytes (UTF-8 bytes for string input); null until asked for a truncated string. */
  readonly totalBytes: number | null;
  /** True when the input was longer than `maxBytes` and only a prefix is parsed. */
  readonly truncated: boolean;
  /** The original string, when the input was one; offsets reported to the caller are then UTF-16 offsets. */
  readonly text: string | null;
  /** True when every parsed byte is ASCII: byte offsets equal UTF-16 offsets and `bin` is the text. */
  readonly ascii: boolean;
}

const encoder = new TextEncoder();
// Node's "latin1" decoder maps each byte to the char of the same code; browsers follow the Encoding Standard, where
// "latin1" means windows-1252 and bytes 0x80-0x9F become other chars. Either way it is one char per byte and a
// bijection, so the byte behind any char can be recovered with the table below.
const binDecoder = new TextDecoder('latin1');
/** UTF-8 as the engine decodes it everywhere: a BOM is kept as U+FEFF (the parser skips it itself), bad bytes become U+FFFD. */
export const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const BYTE_OF_CHAR = new Map<number, number>();
{
  const all = new Uint8Array(256);
  for (let i = 0; i < 256; i++) all[i] = i;
  const chars = binDecoder.decode(all);
  for (let i = 0; i < 256; i++) BYTE_OF_CHAR.set(chars.charCodeAt(i), i);
  if (chars.length !== 256 || BYTE_OF_CHAR.size !== 256)
    throw new Error('TextDecoder("latin1") is not one char per byte');
}

/** The byte behind a char of a `bin` string. */
export function byteAt(bin: string, index: number): number {
  const c = bin.charCodeAt(index);
  return c < 0x80 ? c : (BYTE_OF_CHAR.get(c) ?? 0);
}

/** Whether a UTF-16 code unit is a high (leading) surrogate. */
function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** UTF-8 length of a string, counting lone surrogates as the 3 bytes of U+FFFD like TextEncoder does. */
export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (isHighSurrogate(c) && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

let scratch = new Uint8Array(4096);
/** The ASCII text whose bytes `scratch` holds from its start, if any. */
let scratchText: string | null = null;

/** Whether a string is all ASCII, using the native encoder into a reused buffer. */
function isAscii(text: string): boolean {
  if (scratch.length < text.length * 3) scratch = new Uint8Array(Math.max(text.length * 3, scratch.length * 2));
  const ascii = encoder.encodeInto(text, scratch).written === text.length;
  scratchText = ascii ? text : null;
  return ascii;
}

/**
 * The parsed bytes of `source` as an array, for a scan that reads them one by one (the engine reads an array's bytes
 * faster than a string's chars). `input` is what `source` was read from, or null. The array may be longer than the
 * parsed bytes (`source.bin.length` of them), and may be a reused buffer: use it before the next parse.
 */
export function parsedBytes(input: RobotsInput | null, source: SourceBytes): Uint8Array {
  if (source.bytes !== null) return source.bytes;
  if (input instanceof Uint8Array) return input;
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  const bin = source.bin;
  // ASCII: the chars are the bytes. A string input was just encoded into the scratch buffer to see that it is ASCII.
  if (bin !== scratchText) isAscii(bin);
  return scratch;
}

/**
 * Reads the input, keeping at most `maxBytes` bytes of it.
 * @throws TypeError when the input is not a string, Uint8Array or ArrayBuffer (a programmer error).
 */
export function toSourceBytes(input: RobotsInput, maxBytes: number): SourceBytes {
  if (typeof input === 'string') {
    let slice = input;
    // Chars never encode to fewer bytes than there are chars, so `maxBytes` chars are enough to fill the limit.
    if (input.length > maxBytes) {
      let end = maxBytes;
      if (end > 0 && isHighSurrogate(input.charCodeAt(end - 1))) end++;
      slice = input.slice(0, end);
    }
    if (isAscii(slice)) {
      const bin = slice.length > maxBytes ? slice.slice(0, maxBytes) : slice;
      // Longer than maxBytes chars, hence longer than maxBytes bytes: truncated, and its size is computed on demand.
      const whole = slice === input;
      return { bin, bytes: null, totalBytes: whole ? input.length : null, truncated: !whole, text: input, ascii: true };
    }
    const encoded = encoder.encode(slice);
    const bytes = encoded.length > maxBytes ? encoded.subarray(0, maxBytes) : encoded;
    const whole = slice === input;
    return {
      bin: binDecoder.decode(bytes),
      bytes,
      totalBytes: whole ? encoded.length : null,
      truncated: !whole || encoded.length > bytes.length,
      text: input,
      ascii: false,
    };
  }
  let all: Uint8Array;
  if (input instanceof Uint8Array) all = input;
  else if (input instanceof ArrayBuffer) all = new Uint8Array(input);
  else throw new TypeError('robots.txt input must be a string, Uint8Array or ArrayBuffer');
  const bytes = all.length > maxBytes ? all.subarray(0, maxBytes) : all;
  // Most files are ASCII, and the UTF-8 decoder is the engine's fastest: when its output has one char per byte and no
  // replacement char, every byte was ASCII (any other byte either shortens the text or becomes U+FFFD).
  const text = utf8Decoder.decode(bytes);
  const ascii = text.length === bytes.length && text.indexOf('\uFFFD') < 0;
  const bin = ascii ? text : binDecoder.decode(bytes);
  return {
    bin,
    // Keep a copy of non-ASCII bytes: the caller may reuse their buffer, and records decode from these later.
    bytes: ascii ? null : bytes.slice(),
    totalBytes: all.length,
    truncated: all.length > bytes.length,
    text: null,
    ascii,
  };
}

/**
 * Text and offsets of the parsed input. The parser works in bytes; callers get strings and offsets in the units of
 * what they passed in (UTF-16 for strings, bytes for bytes).
 */

import { type SourceBytes, utf8Decoder as utf8, utf8Length } from '../parse/input.js';

/** Slices text out of the parsed bytes and converts byte offsets into input offsets. */
export class SourceText {
  readonly source: SourceBytes;
  /** Byte offset → UTF-16 offset, built on first use for non-ASCII string input. */
  private charAt: Uint32Array | null = null;

  constructor(source: SourceBytes) {
    this.source = source;
  }

  /** Size of the whole input in bytes. */
  totalBytes(): number {
    const { totalBytes, text } = this.source;
    return totalBytes ?? utf8Length(text ?? '');
  }

  /** The text of bytes `[start, end)`, decoded as UTF-8 (invalid bytes become U+FFFD). */
  slice(start: number, end: number): string {
    const { bytes, bin } = this.source;
    if (bytes !== null) {
      for (let i = start; i < end; i++) {
        if (bin.charCodeAt(i) >= 0x80) return utf8.decode(bytes.subarray(start, end));
      }
    }
    return bin.slice(start, end);
  }

  /** The whole parsed text. */
  text(): string {
    const { text, bytes, bin, truncated } = this.source;
    if (text !== null && !truncated) return text;
    return bytes === null ? bin : utf8.decode(bytes);
  }

  /** Converts a byte offset into an offset in the caller's input units. */
  offset(byteOffset: number): number {
    const { text, ascii } = this.source;
    if (text === null || ascii) return byteOffset;
    this.charAt ??= this.buildCharMap();
    return this.charAt[byteOffset] ?? byteOffset;
  }

  private buildCharMap(): Uint32Array {
    const bytes = this.source.bytes ?? new Uint8Array(0);
    const map = new Uint32Array(bytes.length + 1);
    let units = 0;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      // Lead bytes start a char; a 4-byte sequence is a surrogate pair (two units). TextEncoder output is valid UTF-8.
      if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
      map[i + 1] = units;
    }
    return map;
  }
}

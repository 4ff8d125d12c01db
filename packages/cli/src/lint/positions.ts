/**
 * Lines and columns for people and tools. The engine reports offsets in bytes for the bytes we give it; editors and
 * SARIF count columns in UTF-16 code units, so columns here are those of the decoded line (the same columns `lint()`
 * gives for the decoded text).
 */

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** A 1-based position, its column in UTF-16 code units. */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

/** Positions of byte offsets in one file. */
export class BytePositions {
  private readonly bytes: Uint8Array;
  /** Byte offset where each line starts; CR, LF and CRLF each end a line, as for the parser. */
  private readonly starts: number[] = [0];

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i];
      if (b === 0x0d && bytes[i + 1] === 0x0a) i++;
      if (b === 0x0a || b === 0x0d) this.starts.push(i + 1);
    }
  }

  private lineIndex(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The line and UTF-16 column of a byte offset. */
  position(offset: number): TextPosition {
    const index = this.lineIndex(offset);
    const start = this.starts[index]!;
    return { line: index + 1, column: utf8.decode(this.bytes.subarray(start, offset)).length + 1 };
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    const start = this.starts[line - 1] ?? this.bytes.length;
    let end = this.starts[line] ?? this.bytes.length;
    while (end > start && (this.bytes[end - 1] === 0x0a || this.bytes[end - 1] === 0x0d)) end--;
    return utf8.decode(this.bytes.subarray(start, end));
  }
}

/** A diagnostic's span in UTF-16 columns. */
export interface TextSpan {
  readonly start: TextPosition;
  readonly end: TextPosition;
}

/** The span of a byte range. */
export function spanOf(positions: BytePositions, range: { start: number; end: number }): TextSpan {
  return { start: positions.position(range.start), end: positions.position(range.end) };
}

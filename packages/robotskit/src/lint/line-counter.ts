/**
 * Line and column from offsets. Offsets are the truth; a line counter derives 1-based positions from them, counting
 * CR, LF and CRLF as one line break each, like the parser.
 */

/** A 1-based position. */
export interface Position {
  readonly line: number;
  /** 1-based, in the input's units. */
  readonly column: number;
}

/** Text to count line breaks in: a string, or anything that reads like one (bytes). */
export interface CharCodes {
  readonly length: number;
  charCodeAt(index: number): number;
}

/** Converts input offsets into 1-based lines and columns. */
export class LineCounter {
  /** Offset where each line starts; index 0 is line 1. */
  private readonly starts: number[];

  /**
   * @param starts Offsets where lines start, ascending, the first being 0.
   * @param tail Text after `from` whose line breaks start more lines (the part of a truncated input that was not
   *   parsed), with indices that are input offsets; null when there is none or it is not available.
   */
  constructor(starts: number[], tail: { text: CharCodes; from: number } | null) {
    this.starts = starts;
    if (tail !== null) this.addTail(tail.text, tail.from);
  }

  private addTail(text: CharCodes, from: number): void {
    const starts = this.starts;
    let i = from;
    // The parse may have stopped between the CR and the LF of one CRLF: the line after it starts past the LF.
    if (text.charCodeAt(i - 1) === 0x0d && text.charCodeAt(i) === 0x0a) {
      if (starts[starts.length - 1] === i) starts[starts.length - 1] = i + 1;
      i++;
    }
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x0a || c === 0x0d) {
        if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
        starts.push(i + 1);
      }
    }
  }

  /** The 1-based line and column of an offset. */
  position(offset: number): Position {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  }
}

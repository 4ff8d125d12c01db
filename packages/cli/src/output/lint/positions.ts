/**
 * Lines and columns for people and tools. The engine reports offsets in bytes for the bytes we give it; editors and
 * SARIF count columns in UTF-16 code units. The engine's `TextLines` knows both; this module only names the span.
 */

import { type Position, TextLines } from 'robotskit';

/** A file's lines over its bytes (the engine's line counter). */
export { TextLines as BytePositions };

/** A diagnostic's span in UTF-16 columns. */
interface TextSpan {
  readonly start: Position;
  readonly end: Position;
}

/** The span of a byte range. */
export function spanOf(positions: TextLines, range: { start: number; end: number }): TextSpan {
  return { start: positions.utf16Position(range.start), end: positions.utf16Position(range.end) };
}

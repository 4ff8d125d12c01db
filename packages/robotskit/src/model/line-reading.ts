/**
 * One line of a robots.txt as Google's parser splits it: where its key, value and comment are, and how the key reads
 * ({@link readKey}). For tools that colour or annotate a file line by line (an editor's tokenizer), so that they split
 * a line exactly as the parser does (`user agent: *` is one key with a space in it, `Disallow /x` a directive without
 * its colon, `a b c` no directive) without a rule of their own. Built on the parser's own line scanner.
 */

import { toSourceBytes } from '../parse/input.js';
import { scanLines } from '../parse/lines.js';
import { type KeyReading, readKey } from './key-reading.js';
import { SourceText } from './source-text.js';
import type { Range } from './types.js';

/**
 * Where the parts of one line are, in UTF-16 offsets into the line as given. Text outside them and their separator
 * (after a NUL, or beyond the `MAX_LINE_BYTES` bytes of a line Google keeps) is text the parser never reads.
 */
export interface LineReading {
  /** The key, trimmed; null when the line holds no directive (blank, comment only, no separator, empty key). */
  readonly key: Range | null;
  /** The value, trimmed, comment excluded; null when the line holds no directive (it may be empty otherwise). */
  readonly value: Range | null;
  /** From `#` to the end of the line; null when there is no comment. */
  readonly comment: Range | null;
  /** How Google reads the key; null when the line holds no directive. */
  readonly reading: KeyReading | null;
}

/**
 * How Google's parser splits `line` (the text up to its first line break), read as a line after the first: a leading
 * U+FEFF is part of the line, not a byte order mark.
 * @example readLine('Dissallow: /x # old') // key {0, 9}, value {11, 13}, comment {14, 19}, reading.field 'disallow'
 * @example readLine('user agent *').reading?.field // undefined: three tokens without a colon are no directive
 */
export function readLine(line: string): LineReading {
  if (typeof line !== 'string') throw new TypeError('readLine: the line must be a string');
  // A line break in front makes it the second line of a text: no byte order mark is skipped, and offsets shift by one.
  const text = new SourceText(toSourceBytes(`\n${line}`, Number.MAX_SAFE_INTEGER));
  const at = (byte: number): number => text.offset(byte) - 1;
  const found: LineReading[] = [];
  scanLines(text.source.bin, (facts) => {
    if (facts.line !== 2) return;
    const directive = facts.keyStart >= 0;
    found.push({
      key: directive ? { start: at(facts.keyStart), end: at(facts.keyEnd) } : null,
      value: directive ? { start: at(facts.valueStart), end: at(facts.valueEnd) } : null,
      comment: facts.comment >= 0 ? { start: at(facts.comment), end: at(facts.end) } : null,
      reading: directive ? readKey(text.slice(facts.keyStart, facts.keyEnd)) : null,
    });
  });
  return found[0]!;
}

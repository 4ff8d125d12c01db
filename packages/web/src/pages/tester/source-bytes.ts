/**
 * A robots.txt the tester loaded as bytes (a live file, a stored version): the engine decides on those bytes, exactly
 * as the crawler, the CLI and the service do, while the editor shows their text. Once the text is edited the bytes no
 * longer describe it, and the text is what is tested. Plain data (tested in Node).
 */

import { showStoredLint } from '../../components/stored-lint.js';

/** Bytes and the text the editor shows for them. */
export interface SourceBytes {
  readonly bytes: Uint8Array;
  /** The bytes as the editor holds them: lines joined with `\n`, invalid UTF-8 as U+FFFD, no UTF-8 byte order mark. */
  readonly text: string;
}

/** The bytes with their text for the editor. */
export function sourceOf(bytes: Uint8Array): SourceBytes {
  return { bytes, text: showStoredLint(bytes, [], '').text };
}

/** The bytes to test for `text`: the loaded bytes while the text is still theirs, else null (test the text). */
export function bytesFor(source: SourceBytes | null, text: string): Uint8Array | null {
  return source !== null && source.text === text ? source.bytes : null;
}

/** Whether the UTF-8 encoding of `text` is not exactly `bytes` (so the bytes must travel with the text). */
export function needsBytes(bytes: Uint8Array, text: string): boolean {
  const encoded = new TextEncoder().encode(text);
  if (encoded.length !== bytes.length) return true;
  for (let i = 0; i < bytes.length; i++) if (encoded[i] !== bytes[i]) return true;
  return false;
}

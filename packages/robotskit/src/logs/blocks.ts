/**
 * A log's bytes, as they arrive in chunks, cut into blocks of whole lines for a {@link LogReader} (no Node API: a
 * `TextDecoder`, so a server's upload or a browser's file reads the same way). UTF-8, a byte order mark dropped; a
 * line feed byte is never inside a UTF-8 sequence, so each chunk is decoded up to its last line feed and the rest
 * waits for the next. A line over {@link MAX_LINE} characters becomes {@link OVERLONG}, so memory stays bounded. The
 * CLI has a faster Node reader of its own for files (`Buffer`'s Latin-1 for ASCII); this one is for streams.
 */

import { MAX_LINE, OVERLONG } from './read.js';

/** The blocks of whole lines in `chunks`; a last line without an end is included. */
export async function* logBlocksOf(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  // Whole lines only: each decode starts and ends on a line boundary (a BOM at the start of one is dropped).
  const decoder = new TextDecoder('utf-8');
  let rest: Uint8Array[] = [];
  let restBytes = 0;
  let overlong = false;
  const joined = (tail: Uint8Array): Uint8Array => {
    const all = new Uint8Array(restBytes + tail.length);
    let at = 0;
    for (const part of rest) {
      all.set(part, at);
      at += part.length;
    }
    all.set(tail, at);
    rest = [];
    restBytes = 0;
    return all;
  };
  for await (const chunk of chunks) {
    const cut = chunk.lastIndexOf(0x0a);
    if (cut < 0) {
      if (!overlong) {
        rest.push(chunk.slice());
        restBytes += chunk.length;
        // More bytes than MAX_LINE * 3 is surely over MAX_LINE characters; fewer may be too, checked at the end.
        if (restBytes > MAX_LINE * 3) {
          overlong = true;
          rest = [];
          restBytes = 0;
        }
      }
      continue;
    }
    const first = chunk.indexOf(0x0a);
    let from = 0;
    if (overlong) {
      overlong = false;
      from = first + 1;
      yield OVERLONG;
    } else if (restBytes > 0) {
      from = first + 1;
      const line = decoder.decode(joined(chunk.subarray(0, first)));
      yield line.length > MAX_LINE ? OVERLONG : line;
    }
    if (from <= cut) yield decoder.decode(chunk.subarray(from, cut));
    if (cut + 1 < chunk.length) {
      rest.push(chunk.slice(cut + 1));
      restBytes += chunk.length - cut - 1;
    }
  }
  if (overlong) yield OVERLONG;
  else if (restBytes > 0) {
    const line = decoder.decode(joined(new Uint8Array(0)));
    yield line.length > MAX_LINE ? OVERLONG : line;
  }
}

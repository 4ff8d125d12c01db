/**
 * Reading a response body as a stream, keeping at most `maxBytes`. The rest is never downloaded: the stream is
 * cancelled as soon as the limit is passed, so a 10 GB robots.txt costs 512,000 bytes, and decompression bombs stop at
 * the limit too (the bytes counted are the decoded ones, the ones that would be parsed).
 */

import type { Deadline } from './deadline.js';
import { classifyFetchError } from './errors.js';
import type { RetrievalError } from './types.js';

/** What was read from a body. */
export interface BodyRead {
  /** The kept bytes (at most `maxBytes`). */
  readonly bytes: Uint8Array;
  /** Bytes received and kept. */
  readonly size: number;
  /** True when the body went on past `maxBytes`. */
  readonly truncated: boolean;
  /** Set when the stream failed or a timeout ended it before its end. */
  readonly error: RetrievalError | null;
}

const ignore = (): void => {};

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.length === size) return chunks[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * Reads `body` until its end, `maxBytes`, an error, or a timeout (a stall of `idleMs` between chunks, or the
 * deadline's total timeout). Never throws.
 */
export async function readBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  idleMs: number,
  deadline: Deadline,
): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  let error: RetrievalError | null = null;
  if (body === null) return { bytes: new Uint8Array(0), size: 0, truncated: false, error: null };
  let reader: ReadableStreamDefaultReader<Uint8Array>;
  try {
    reader = body.getReader();
  } catch (e) {
    return { bytes: new Uint8Array(0), size: 0, truncated: false, error: classifyFetchError(e, 'body') };
  }
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await deadline.step(reader.read(), idleMs, 'no body data');
      if (done) {
        finished = true;
        break;
      }
      if (value === undefined || value.length === 0) continue;
      if (size + value.length > maxBytes) {
        // Copy the kept part: the chunk's buffer may be large and is not ours to keep alive.
        if (maxBytes > size) chunks.push(value.slice(0, maxBytes - size));
        size = maxBytes;
        truncated = true;
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } catch (e) {
    error = deadline.reason ?? classifyFetchError(e, 'body');
  }
  if (!finished) {
    // Do not await: a stalled or hostile stream may never settle its cancel either.
    try {
      reader.cancel().catch(ignore);
    } catch {
      // A reader that cannot cancel has nothing left to release.
    }
  }
  return { bytes: concat(chunks, size), size, truncated, error };
}

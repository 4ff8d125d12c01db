/**
 * Reading a response body as a stream, keeping at most `maxBytes`. The rest is never downloaded: the stream is
 * cancelled as soon as the limit is passed, so a 10 GB robots.txt costs 512,000 bytes, and decompression bombs stop at
 * the limit too (the bytes counted are the decoded ones, the ones that would be parsed).
 */

import type { RetrievalError } from '../shared/types.js';
import type { Deadline } from './deadline.js';
import { classifyFetchError } from './errors.js';

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

/** A response body: a web stream (fetch's), or any async iterable of bytes (e.g. a Node stream). */
export type BodySource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** One body being read, whatever its kind: the next chunk, and a release that does not wait. */
export interface BodyCursor {
  next(): Promise<IteratorResult<Uint8Array, unknown>>;
  /** Stops reading and releases the body, without waiting (a stalled or hostile body may never settle). */
  cancel(): void;
}

/**
 * Opens `body` for reading: a web stream through its reader, anything else through its async iterator (its `return`
 * releases it). A web stream that is also async-iterable is read as a web stream.
 * @throws when the body cannot be opened (a locked stream, an object that is neither).
 */
export function openBody(body: BodySource): BodyCursor {
  if (typeof (body as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (body as ReadableStream<Uint8Array>).getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<Uint8Array, unknown>>,
      cancel: () => {
        try {
          reader.cancel().catch(ignore);
        } catch {
          // A reader that cannot cancel has nothing left to release.
        }
      },
    };
  }
  const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  return {
    next: () => iterator.next(),
    cancel: () => {
      try {
        iterator.return?.()?.catch(ignore);
      } catch {
        // Nothing left to release.
      }
    },
  };
}

/** Releases a body that will not be read, without waiting for it. */
export function releaseBody(body: BodySource | null): void {
  if (body === null) return;
  if (typeof (body as ReadableStream<Uint8Array>).cancel === 'function') {
    try {
      (body as ReadableStream<Uint8Array>).cancel().catch(ignore);
    } catch {
      // Already locked or closed: nothing to release.
    }
    return;
  }
  try {
    openBody(body).cancel();
  } catch {
    // Nothing to release.
  }
}

/** The chunks as one array of `size` bytes (the one chunk itself when it is all). */
export function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
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
  body: BodySource | null,
  maxBytes: number,
  idleMs: number,
  deadline: Deadline,
): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  let error: RetrievalError | null = null;
  if (body === null) return { bytes: new Uint8Array(0), size: 0, truncated: false, error: null };
  let reader: BodyCursor;
  try {
    reader = openBody(body);
  } catch (e) {
    return { bytes: new Uint8Array(0), size: 0, truncated: false, error: classifyFetchError(e, 'body') };
  }
  let finished = false;
  try {
    for (;;) {
      const step = await deadline.step(reader.next(), idleMs, 'no body data');
      if (step.done) {
        finished = true;
        break;
      }
      const value = step.value as Uint8Array | undefined;
      if (value === undefined || (value as Uint8Array).length === 0) continue;
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
    reader.cancel();
  }
  return { bytes: concat(chunks, size), size, truncated, error };
}

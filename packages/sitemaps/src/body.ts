/**
 * A sitemap body as uncompressed bytes: gzip recognised by its magic bytes (1f 8b) whatever the URL or headers say,
 * decompressed as a stream, and every byte counted against the per-file cap, so a gzip bomb stops at the cap like a
 * plain file does. Chunks handed on are at most {@link MAX_CHUNK} bytes, which bounds what a parser holds at once.
 */

import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

/** The largest chunk handed to a parser. */
export const MAX_CHUNK = 65_536;

/** What happened to a body, filled in while it is read. */
export interface BodyState {
  gzip: boolean;
  /** Uncompressed bytes handed on. */
  bytes: number;
  /** True when the body went on past the cap (the rest was not read). */
  overCap: boolean;
  /** Set when the gzip stream was corrupt. */
  gzipError: string | null;
}

async function* sliced(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; at += MAX_CHUNK) yield chunk.subarray(at, at + MAX_CHUNK);
  }
}

/** The first chunks of `raw`, enough to see two bytes, and the rest of `raw` after them. */
async function sniff(raw: AsyncIterator<Uint8Array>): Promise<{ head: Uint8Array[]; ended: boolean }> {
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < 2) {
    const next = await raw.next();
    if (next.done) return { head, ended: true };
    head.push(next.value);
    size += next.value.length;
  }
  return { head, ended: false };
}

function firstBytes(head: readonly Uint8Array[]): [number | undefined, number | undefined] {
  const bytes: number[] = [];
  for (const chunk of head) for (let i = 0; i < chunk.length && bytes.length < 2; i++) bytes.push(chunk[i]!);
  return [bytes[0], bytes[1]];
}

/**
 * Uncompressed chunks of a body, cut at `maxBytes`. Never throws: a corrupt gzip stream ends the iteration with
 * `state.gzipError` set.
 */
export async function* uncompressed(
  raw: AsyncIterable<Uint8Array>,
  maxBytes: number,
  state: BodyState,
): AsyncGenerator<Uint8Array> {
  const iterator = raw[Symbol.asyncIterator]();
  const { head, ended } = await sniff(iterator);
  const [b0, b1] = firstBytes(head);
  const gzip = b0 === 0x1f && b1 === 0x8b;
  async function* rest(): AsyncGenerator<Uint8Array> {
    // Compressed bytes are capped too: a gzip stream of empty members would otherwise be read forever.
    let rawBytes = 0;
    const count = (chunk: Uint8Array): boolean => {
      rawBytes += chunk.length;
      return !gzip || rawBytes <= maxBytes;
    };
    for (const chunk of head) {
      if (!count(chunk)) {
        state.overCap = true;
        return;
      }
      yield chunk;
    }
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      if (!count(next.value)) {
        state.overCap = true;
        return;
      }
      yield next.value;
    }
  }
  let source: AsyncIterable<Uint8Array> = rest();
  let gunzip: ReturnType<typeof createGunzip> | null = null;
  if (gzip) {
    state.gzip = true;
    gunzip = createGunzip();
    source = Readable.from(rest(), { objectMode: false }).pipe(gunzip);
  }
  try {
    for await (const chunk of sliced(source)) {
      const room = maxBytes - state.bytes;
      if (chunk.length > room) {
        if (room > 0) {
          state.bytes += room;
          yield chunk.subarray(0, room);
        }
        state.overCap = true;
        return;
      }
      state.bytes += chunk.length;
      yield chunk;
    }
  } catch (e) {
    state.gzipError = e instanceof Error ? e.message : String(e);
  } finally {
    gunzip?.destroy();
    // Not awaited: a read may be pending on a stalled stream; the caller cancels the body, which settles it.
    iterator.return?.().catch(() => {});
  }
}

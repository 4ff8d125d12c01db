/**
 * A sitemap body as uncompressed bytes: gzip recognised by its magic bytes (1f 8b) whatever the URL or headers say,
 * decompressed as a stream, and every byte counted against the per-file cap, so a gzip bomb stops at the cap like a
 * plain file does. Chunks handed on are at most {@link MAX_CHUNK} bytes, which bounds what a parser holds at once.
 */

import { createGunzip } from 'node:zlib';

/** The largest chunk handed to a parser. */
const MAX_CHUNK = 65_536;

/**
 * Compressed bytes handed to zlib at a time. Deflate expands at most about 1,032 to 1, so one slice yields at most about
 * 1 MB: that bounds what is held between two reads, gzip bombs included.
 */
const GZIP_SLICE = 1024;

/**
 * Decompresses `raw` as a stream. Output is taken in flowing mode as zlib produces it, slice by slice, so what was
 * decoded before a corruption is handed on (a zlib stream that fails discards what it buffered). Never throws: a
 * corrupt stream ends the iteration with `state.gzipError` set.
 */
async function* gunzipped(raw: AsyncIterable<Uint8Array>, state: BodyState): AsyncGenerator<Uint8Array> {
  const zlib = createGunzip();
  const out: Buffer[] = [];
  let error: Error | null = null;
  let ended = false;
  let closed = false;
  /** Wakes the pending wait: a write's callback is never called when zlib fails while processing it. */
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  zlib.on('data', (chunk: Buffer) => out.push(chunk));
  zlib.on('error', (e: Error) => {
    error ??= e;
    signal();
  });
  zlib.on('end', () => {
    ended = true;
    signal();
  });
  zlib.on('close', () => {
    closed = true;
    signal();
  });
  const wait = (start: () => void) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      if (error !== null || ended || closed) return signal();
      start();
    });
  try {
    for await (const chunk of raw) {
      for (let at = 0; at < chunk.length; at += GZIP_SLICE) {
        await wait(() => zlib.write(chunk.subarray(at, at + GZIP_SLICE), signal));
        while (out.length > 0) yield out.shift()!;
        if (error !== null || ended) break;
      }
      if (error !== null || ended) break;
    }
    if (error === null && !ended) await wait(() => zlib.end());
    while (out.length > 0) yield out.shift()!;
    if (error !== null) state.gzipError = (error as Error).message;
  } finally {
    zlib.destroy();
  }
}

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
 * `state.gzipError` set, after what was decoded before the damage.
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
  state.gzip = gzip;
  const source = gzip ? gunzipped(rest(), state) : rest();
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
  } finally {
    // Not awaited: a read may be pending on a stalled stream; the caller cancels the body, which settles it.
    iterator.return?.().catch(() => {});
  }
}

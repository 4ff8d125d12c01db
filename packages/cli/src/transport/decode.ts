/**
 * The one content decoder of the CLI's HTTP transport: a response body as the fetch standard decodes it, for every
 * command that reads one (robots.txt for `check`, `batch`, `lint <url>`, `audit`; the page for `audit`). `gzip` and
 * `x-gzip`, `deflate` in both its zlib-wrapped and raw forms (some servers send raw deflate under that name), `br`,
 * and lists of them (`gzip, br`: decoded last first); a body under a coding it does not know is left as sent, as
 * fetch leaves it. Decoding flushes what it has when the input ends early (a body cut off is read as far as it goes,
 * as fetch reads it) rather than failing on a truncated stream.
 */

import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';

/** What a client announces it can decode (`accept-encoding`), as fetch announces it: `br` over TLS only. */
export function acceptEncoding(https: boolean): string {
  return https ? 'br, gzip, deflate' : 'gzip, deflate';
}

/** At most this many codings in one `Content-Encoding`, as fetch (undici) allows. */
const MAX_CODINGS = 5;

const SYNC = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };

/** `deflate` as fetch reads it: zlib-wrapped, or raw when the first byte says it is not (some servers send that). */
class Inflate extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | null = null;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.inner === null) {
      if (chunk.length === 0) {
        done();
        return;
      }
      // A zlib header's first byte is CMF: compression method 8 in its low four bits.
      this.inner = (chunk[0]! & 0x0f) === 0x08 ? zlib.createInflate(SYNC) : zlib.createInflateRaw(SYNC);
      this.inner.on('data', (data: Buffer) => this.push(data));
      this.inner.on('error', (error) => this.destroy(error));
    }
    this.inner.write(chunk, done);
  }
  override _flush(done: TransformCallback): void {
    if (this.inner === null) {
      done();
      return;
    }
    this.inner.once('end', () => done());
    this.inner.end();
  }
  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    // The inner decompressor stops with its wrapper, so a reader that gives up stops the inflating too.
    this.inner?.destroy();
    done(error);
  }
}

/**
 * The decoders of a `Content-Encoding` value, in the order the body goes through them (the last coding applied is
 * undone first); none when one of the codings is unknown (the body is then read as sent).
 * @throws Error for more than five codings (fetch's limit).
 */
export function contentDecoders(contentEncoding: string): Transform[] {
  const codings = contentEncoding.toLowerCase().split(',');
  if (codings.length > MAX_CODINGS) {
    throw new Error(`too many content-encodings in response: ${codings.length}, maximum allowed is ${MAX_CODINGS}`);
  }
  const decoders: Transform[] = [];
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!.trim();
    if (coding === 'gzip' || coding === 'x-gzip') decoders.push(zlib.createGunzip(SYNC));
    else if (coding === 'deflate') decoders.push(new Inflate());
    else if (coding === 'br') {
      const flush = zlib.constants.BROTLI_OPERATION_FLUSH;
      decoders.push(zlib.createBrotliDecompress({ flush, finishFlush: flush }));
    } else return [];
  }
  return decoders;
}

/**
 * `body` decoded as its `Content-Encoding` says (null or an unknown coding: as it is). Destroying the result destroys
 * the whole chain, the response included; an error anywhere in it is the result's error.
 * @throws Error for more than five codings.
 */
export function decodedBody(body: Readable, contentEncoding: string | null): Readable {
  if (contentEncoding === null) return body;
  const decoders = contentDecoders(contentEncoding);
  if (decoders.length === 0) return body;
  // The chain's error reaches the last stream, whose reader handles it; the callback only keeps it from being thrown.
  return pipeline([body, ...decoders], () => {}) as unknown as Readable;
}

/**
 * The tester's state in the page URL: `#s=` followed by the state as JSON, deflated (the browser's own
 * `CompressionStream`) and base64url-encoded, so a link carries the file, the URLs, the crawler and the reading (and the
 * file's exact bytes, `b`, when they are not the UTF-8 of its text: the engine decides on bytes), and the purpose shown
 * when the "By purpose" view is open (`p`).
 */

import { CRAWLER_PURPOSES, type DialectName } from 'robotskit';
import type { PurposeChoice } from '../../engine/protocol.js';
import { sourceOf } from './source-bytes.js';

/** Everything a link restores. */
export interface TesterState {
  readonly text: string;
  /** The file's exact bytes when the text is only their display (a stored version that is not plain UTF-8). */
  readonly bytes?: Uint8Array | null;
  readonly urls: string;
  readonly crawler: string;
  readonly dialect: DialectName;
  /** The purpose the "By purpose" view shows; absent or null when that view is not open. */
  readonly purpose?: PurposeChoice | null;
}

/** A purpose a link may name: every AI crawler, or a purpose of the catalogue; anything else is not restored. */
function purposeOf(value: unknown): PurposeChoice | null {
  if (value === 'ai') return 'ai';
  return CRAWLER_PURPOSES.find((p) => p === value) ?? null;
}

/** Links longer than this are not written to the address bar (browsers and chat tools cut long URLs). */
export const MAX_HASH_LENGTH = 64 * 1024;

/**
 * The most a link's state may unpack to: more than any link the tester writes holds (a 500 KiB file, its bytes and
 * its URLs), far less than a hostile link could (a few hundred KB of deflate can unpack to gigabytes and hang the
 * tab). Inflating stops as soon as it is passed.
 */
export const MAX_STATE_BYTES = 2 * 1024 * 1024;

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The link's state is larger than {@link MAX_STATE_BYTES} once unpacked. */
class StateTooLargeError extends Error {}

/** Inflates `bytes`, giving up as soon as the output passes `limit` bytes. */
async function inflateAtMost(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new StateTooLargeError();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The hash (with `#`) for a state. */
export async function encodeState(state: TesterState): Promise<string> {
  const json = new TextEncoder().encode(
    JSON.stringify({
      v: 1,
      t: state.text,
      u: state.urls,
      c: state.crawler,
      d: state.dialect,
      ...(state.bytes ? { b: toBase64Url(state.bytes) } : {}),
      ...(state.purpose ? { p: state.purpose } : {}),
    }),
  );
  return `#s=${toBase64Url(await pipe(json, new CompressionStream('deflate-raw')))}`;
}

/** The state in a hash, or null when there is none; throws with a readable message when it is damaged. */
export async function decodeState(hash: string): Promise<TesterState | null> {
  const m = /^#?s=([A-Za-z0-9_-]*)$/.exec(hash);
  if (!m) return null;
  let data: Record<string, unknown>;
  try {
    const json = new TextDecoder().decode(await inflateAtMost(fromBase64Url(m[1]!), MAX_STATE_BYTES));
    data = JSON.parse(json) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof StateTooLargeError) {
      throw new Error(
        `The link unpacks to more than ${MAX_STATE_BYTES / (1024 * 1024)} MiB, more than any link the tester writes, so it was not opened.`,
      );
    }
    throw new Error('The link is damaged (it was probably cut short), so the shared state could not be restored.');
  }
  let bytes: Uint8Array | null = null;
  try {
    if (typeof data.b === 'string') bytes = fromBase64Url(data.b);
  } catch {
    bytes = null;
  }
  const purpose = purposeOf(data.p);
  return {
    // With bytes, the text shown is theirs (whatever `t` says): what is shown is what is tested.
    text: bytes !== null ? sourceOf(bytes).text : typeof data.t === 'string' ? data.t : '',
    ...(bytes === null ? {} : { bytes }),
    urls: typeof data.u === 'string' ? data.u : '',
    crawler: typeof data.c === 'string' ? data.c : '',
    dialect: data.d === 'legacy' ? 'legacy' : 'google',
    ...(purpose === null ? {} : { purpose }),
  };
}

/**
 * The tester's state in the page URL: `#s=` followed by the state as JSON, deflated (the browser's own
 * `CompressionStream`) and base64url-encoded, so a link carries the file, the URLs, the crawler and the reading (and the
 * file's exact bytes, `b`, when they are not the UTF-8 of its text: the engine decides on bytes).
 */

import type { DialectName } from 'robotskit';
import { sourceOf } from './source-bytes.js';

/** Everything a link restores. */
export interface TesterState {
  readonly text: string;
  /** The file's exact bytes when the text is only their display (a stored version that is not plain UTF-8). */
  readonly bytes?: Uint8Array | null;
  readonly urls: string;
  readonly crawler: string;
  readonly dialect: DialectName;
}

/** Links longer than this are not written to the address bar (browsers and chat tools cut long URLs). */
export const MAX_HASH_LENGTH = 64 * 1024;

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

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
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
    const json = new TextDecoder().decode(await pipe(fromBase64Url(m[1]!), new DecompressionStream('deflate-raw')));
    data = JSON.parse(json) as Record<string, unknown>;
  } catch {
    throw new Error('The link is damaged (it was probably cut short), so the shared state could not be restored.');
  }
  let bytes: Uint8Array | null = null;
  try {
    if (typeof data.b === 'string') bytes = fromBase64Url(data.b);
  } catch {
    bytes = null;
  }
  return {
    // With bytes, the text shown is theirs (whatever `t` says): what is shown is what is tested.
    text: bytes !== null ? sourceOf(bytes).text : typeof data.t === 'string' ? data.t : '',
    ...(bytes === null ? {} : { bytes }),
    urls: typeof data.u === 'string' ? data.u : '',
    crawler: typeof data.c === 'string' ? data.c : '',
    dialect: data.d === 'legacy' ? 'legacy' : 'google',
  };
}

/**
 * How both stores lay an origin's record out: the engine's own JSON form of each fetch (bodies apart, as bytes) and
 * the time the engine would fetch again, kept beside the record for people and queries ("which origins are due").
 */

import {
  type RetrievalJson,
  type RetrievalResult,
  refreshSchedule,
  retrievalFromJson,
  retrievalToJson,
} from 'robotskit/fetch';

/** A fetch as JSON without its body. */
export function fetchToJson(result: RetrievalResult): RetrievalJson {
  return retrievalToJson({ ...result, body: null });
}

/** A fetch back from {@link fetchToJson}'s JSON and its body bytes. */
export function fetchFromJson(json: unknown, body: Uint8Array | null): RetrievalResult {
  return { ...retrievalFromJson(json), body };
}

/** When the engine's default policy fetches this history again (epoch ms): its cache lifetime or retry time. */
export function nextFetchAt(history: readonly RetrievalResult[]): number {
  return refreshSchedule(history).at;
}

/** A view of a Node Buffer (or any byte array) as a plain Uint8Array, without copying. */
export function bytesOf(buffer: Uint8Array): Uint8Array {
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

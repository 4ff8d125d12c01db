/**
 * How both stores lay an origin's record out: the engine's own JSON form of each fetch (bodies apart, as bytes) and
 * the time the engine would fetch again, kept beside the record for people and queries ("which origins are due").
 */

import {
  availabilityRules,
  type RetrievalJson,
  type RetrievalResult,
  refreshSchedule,
  retrievalFromJson,
  retrievalToJson,
  type StoredOrigin,
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

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a record outlives the 30-day rule before a store forgets it: a margin for clocks and late readers. */
const EXPIRY_MARGIN_MS = DAY_MS;

/**
 * When a store may forget an origin's record (epoch ms): once nobody has fetched it for the engine's last-good-version
 * period (the 30-day rule) plus {@link EXPIRY_MARGIN_MS}, and never before the engine would fetch it again. Each write
 * sets it anew, so an origin the fleet keeps asking about stays; one nobody asks about goes.
 */
export function expiresAt(history: readonly RetrievalResult[], now: number): number {
  const keep = availabilityRules().lastGoodVersionPeriod + EXPIRY_MARGIN_MS;
  const latest = history.reduce((at, r) => Math.max(at, r.fetchedAt), Number.NEGATIVE_INFINITY);
  const at = Math.max(nextFetchAt(history) + EXPIRY_MARGIN_MS, Number.isFinite(latest) ? latest + keep : now);
  return Math.min(Math.max(at, now + 60_000), now + keep);
}

/** A record as one JSON text (Redis values, wake-up messages): fetches, bodies as base64, when it is due, last. */
interface StoredJson {
  readonly origin: string;
  readonly history: readonly unknown[];
  readonly bodies: readonly (string | null)[];
  readonly nextFetchAt: number;
}

/** The record as JSON text; `nextFetchAt` is the client's when it gave one, else the default policy's, and comes last. */
export function recordToJson(record: StoredOrigin): string {
  const json: StoredJson = {
    origin: record.origin,
    history: record.history.map(fetchToJson),
    bodies: record.history.map((r) =>
      r.body === null ? null : Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength).toString('base64'),
    ),
    nextFetchAt: record.nextFetchAt ?? nextFetchAt(record.history),
  };
  return JSON.stringify(json);
}

/** A record back from {@link recordToJson}'s text. */
export function recordFromJson(text: string): StoredOrigin {
  const json = JSON.parse(text) as StoredJson;
  const history = json.history.map((entry, i) => {
    const body = json.bodies[i] ?? null;
    return fetchFromJson(entry, body === null ? null : bytesOf(Buffer.from(body, 'base64')));
  });
  return { origin: json.origin, history, nextFetchAt: json.nextFetchAt };
}

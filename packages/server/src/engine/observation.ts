/**
 * The bridge between the service's stored fetches and the engine's availability timeline: the engine reads fetches
 * as `FetchObservation`s (outcome `rules` / `allow-all` / `disallow-all`, status, error kind, the caching headers);
 * the service stores them as `fetched` / `not-found` / `error` rows with a lowercase header map.
 */

import type { FetchObservation, RetrievalErrorKind, RetrievalOutcome } from 'robotskit';
import type { FetchOutcome } from '../db/schema.js';

/** The engine's outcome of a stored one. */
export function engineOutcomeOf(outcome: FetchOutcome): RetrievalOutcome {
  return outcome === 'fetched' ? 'rules' : outcome === 'not-found' ? 'allow-all' : 'disallow-all';
}

/** The stored outcome of an engine one. */
export function storedOutcomeOf(outcome: RetrievalOutcome): FetchOutcome {
  return outcome === 'rules' ? 'fetched' : outcome === 'allow-all' ? 'not-found' : 'error';
}

/** The stored facts of one fetch the timeline needs. */
export interface StoredFetchFacts {
  readonly fetchedAt: number;
  readonly outcome: FetchOutcome;
  readonly status: number | null;
  readonly errorKind: string | null;
  /** Lowercase header names. */
  readonly headers: Readonly<Record<string, string>>;
}

/** A stored fetch as the engine's timeline reads it. */
export function observationOf(facts: StoredFetchFacts): FetchObservation {
  const h = facts.headers;
  return {
    fetchedAt: facts.fetchedAt,
    outcome: engineOutcomeOf(facts.outcome),
    status: facts.status,
    // Only `aborted` changes what the timeline does; other kinds are carried for its messages.
    error: facts.errorKind === null ? null : { kind: facts.errorKind as RetrievalErrorKind },
    headers: {
      cacheControl: h['cache-control'] ?? null,
      retryAfter: h['retry-after'] ?? null,
      date: h.date ?? null,
    },
  };
}

/** Parses a stored header map, tolerating anything odd (an empty map then). */
export function headersFromJson(text: string | null): Record<string, string> {
  if (text === null) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}

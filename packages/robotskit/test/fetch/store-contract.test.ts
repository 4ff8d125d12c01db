/**
 * The RobotsStore contract (`robotskit/testing`) run on the memory store and on a store that keeps JSON text, as an
 * external store (Redis, a database) would.
 */

import { describe, expect, it } from 'vitest';
import {
  createMemoryRobotsStore,
  type RobotsStore,
  retrievalFromJson,
  retrievalToJson,
} from '../../src/fetch/index.js';
import { robotsStoreContract } from '../../src/testing/index.js';

/** A store that serialises each record to JSON text, with async methods. */
function createJsonStore(): RobotsStore {
  const texts = new Map<string, string>();
  return {
    async get(origin) {
      const text = texts.get(origin);
      if (text === undefined) return undefined;
      const json = JSON.parse(text) as { origin: string; history: unknown[] };
      return { origin: json.origin, history: json.history.map(retrievalFromJson) };
    },
    async set(origin, record) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      texts.set(origin, JSON.stringify({ origin: record.origin, history: record.history.map(retrievalToJson) }));
    },
  };
}

describe('RobotsStore contract: memory store', () => {
  for (const c of robotsStoreContract(() => createMemoryRobotsStore())) it(c.name, c.run);
});

describe('RobotsStore contract: a JSON store', () => {
  for (const c of robotsStoreContract(createJsonStore)) it(c.name, c.run);
});

describe('RobotsStore contract: catches a broken store', () => {
  it('fails a store that loses bodies', async () => {
    const inner = createMemoryRobotsStore();
    const lossy: RobotsStore = {
      get: (origin) => inner.get(origin),
      set: (origin, record) =>
        inner.set(origin, { ...record, history: record.history.map((r) => ({ ...r, body: null })) }),
    };
    const failures: string[] = [];
    for (const c of robotsStoreContract(() => lossy)) {
      await c.run().catch(() => failures.push(c.name));
    }
    expect(failures).toEqual([
      'gives back what was set: every field, bodies as the same bytes',
      'replaces the record of an origin on each set',
      'keeps origins apart',
      'keeps an empty body apart from no body',
      'ends with one whole record when an origin is written concurrently',
    ]);
  });
});

/**
 * `robotskit/testing`: the contract every {@link RobotsStore} must keep, as cases any test runner can run. A store
 * implementation (Redis, SQLite, PostgreSQL…) runs them against fresh instances of itself:
 *
 * @example
 * import { robotsStoreContract } from 'robotskit/testing';
 * for (const c of robotsStoreContract(() => createMyStore())) it(c.name, c.run);
 *
 * The cases need no test framework: each `run` resolves when the store keeps the contract and rejects with an `Error`
 * saying what differed. Each case asks the factory for a new, empty store.
 */

import { effectivePolicy } from '../fetch/policy/availability.js';
import { retrievalToJson } from '../fetch/retrieval/serialize.js';
import type { RetrievalResult } from '../fetch/shared/types.js';
import type { RobotsStore, StoredOrigin } from '../fetch/store/store.js';

/** One case of the contract. */
export interface StoreContractCase {
  readonly name: string;
  run(): Promise<void>;
}

const HOUR = 3_600_000;

/** A retrieval result as a store might be given it. */
function result(origin: string, at: number, outcome: RetrievalResult['outcome'], body: Uint8Array | null) {
  const headers = {
    cacheControl: outcome === 'rules' ? 'max-age=3600' : null,
    contentType: outcome === 'rules' ? 'text/plain' : null,
    retryAfter: outcome === 'disallow-all' ? '120' : null,
    lastModified: null,
    etag: outcome === 'rules' ? '"v1"' : null,
    contentLength: body === null ? null : String(body.length),
    date: new Date(at).toUTCString(),
  };
  const value: RetrievalResult = {
    origin,
    robotsUrl: `${origin}/robots.txt`,
    finalUrl: `${origin}/robots.txt`,
    outcome,
    status: outcome === 'rules' ? 200 : outcome === 'allow-all' ? 404 : 503,
    redirects: [],
    headers,
    body,
    size: body?.length ?? 0,
    truncated: false,
    html: false,
    error: null,
    fetchedAt: at,
    timings: { headersMs: 12, totalMs: 15 },
  };
  return value;
}

/** A record of an origin with a history of three fetches: rules, then failures. */
export function sampleRecord(origin: string, start = Date.UTC(2025, 0, 1)): StoredOrigin {
  // Bytes that are not UTF-8 and a NUL: a store must keep bodies as bytes, not text.
  const body = new Uint8Array([0x55, 0x73, 0x65, 0x72, 0x2d, 0x61, 0x67, 0x65, 0x6e, 0x74, 0x3a, 0x20, 0x2a, 0x0a]);
  const odd = new Uint8Array([...body, 0x44, 0x69, 0x73, 0x61, 0x6c, 0x6c, 0x6f, 0x77, 0x3a, 0x20, 0x2f, 0xff, 0x00]);
  return {
    origin,
    history: [
      result(origin, start, 'rules', odd),
      result(origin, start + HOUR, 'disallow-all', null),
      result(origin, start + 2 * HOUR, 'disallow-all', null),
    ],
  };
}

/** The record as comparable text: every field, bodies as base64. */
function canonical(record: StoredOrigin | undefined): string {
  if (record === undefined) return 'undefined';
  return JSON.stringify({ origin: record.origin, history: record.history.map(retrievalToJson) });
}

function expectSame(actual: StoredOrigin | undefined, expected: StoredOrigin | undefined, what: string): void {
  const a = canonical(actual);
  const e = canonical(expected);
  if (a !== e) throw new Error(`${what}: the store returned\n${a}\nbut was given\n${e}`);
}

function checkBodies(record: StoredOrigin | undefined): void {
  for (const entry of record?.history ?? []) {
    if (entry.body !== null && !(entry.body instanceof Uint8Array)) {
      throw new Error(`a stored body came back as ${typeof entry.body}, not a Uint8Array`);
    }
  }
}

/**
 * The contract of a {@link RobotsStore}, as runnable cases. `createStore` makes a new, empty store (it may return a
 * promise); `dispose`, when given, is called with each store after its case.
 */
export function robotsStoreContract<S extends RobotsStore>(
  createStore: () => S | Promise<S>,
  dispose?: (store: S) => void | Promise<void>,
): StoreContractCase[] {
  const withStore = (name: string, body: (store: S) => Promise<void>): StoreContractCase => ({
    name,
    async run() {
      const store = await createStore();
      try {
        await body(store);
      } finally {
        await dispose?.(store);
      }
    },
  });
  const a = 'https://a.example.invalid';
  const b = 'http://b.example.invalid:8080';
  return [
    withStore('answers undefined for an origin it has no record of', async (store) => {
      const got = await store.get(a);
      if (got !== undefined) throw new Error(`get of an unknown origin returned ${canonical(got)}, not undefined`);
    }),
    withStore('gives back what was set: every field, bodies as the same bytes', async (store) => {
      const record = sampleRecord(a);
      await store.set(a, record);
      const got = await store.get(a);
      checkBodies(got);
      expectSame(got, record, 'get after set');
    }),
    withStore('replaces the record of an origin on each set', async (store) => {
      await store.set(a, sampleRecord(a));
      const newer = sampleRecord(a, Date.UTC(2025, 5, 1));
      await store.set(a, newer);
      expectSame(await store.get(a), newer, 'get after a second set');
    }),
    withStore('keeps origins apart', async (store) => {
      const first = sampleRecord(a);
      const second = sampleRecord(b, Date.UTC(2024, 0, 1));
      await store.set(a, first);
      await store.set(b, second);
      expectSame(await store.get(a), first, `the record of ${a}`);
      expectSame(await store.get(b), second, `the record of ${b}`);
      const other = await store.get('https://c.example.invalid');
      if (other !== undefined) throw new Error('an origin never set has a record');
    }),
    withStore('keeps a history the engine reads as it read the original', async (store) => {
      const record = sampleRecord(a);
      await store.set(a, record);
      const got = await store.get(a);
      if (got === undefined) throw new Error('the record is gone');
      const now = record.history[record.history.length - 1]!.fetchedAt + 13 * HOUR;
      const expected = effectivePolicy(record.history, now);
      const actual = effectivePolicy(got.history, now);
      if (actual.mode !== expected.mode || actual.reason !== expected.reason || actual.until !== expected.until) {
        throw new Error(`the stored history reads as ${actual.reason}, the original as ${expected.reason}`);
      }
    }),
    withStore('keeps an empty body apart from no body', async (store) => {
      const record: StoredOrigin = {
        origin: a,
        history: [result(a, Date.UTC(2025, 0, 1), 'rules', new Uint8Array(0))],
      };
      await store.set(a, record);
      const got = await store.get(a);
      checkBodies(got);
      expectSame(got, record, 'a record with an empty body');
    }),
    withStore('ends with one whole record when an origin is written concurrently', async (store) => {
      const records = [0, 1, 2, 3].map((i) => sampleRecord(a, Date.UTC(2025, i, 1)));
      await Promise.all(records.map((r) => store.set(a, r)));
      const got = canonical(await store.get(a));
      if (!records.some((r) => canonical(r) === got)) throw new Error(`after concurrent sets the record is ${got}`);
    }),
    ...leaseCases(withStore, a, b),
    ...claimCases(withStore, a),
  ];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The lease cases, for a store with fetch leases ({@link RobotsStore.acquireLease}); a store without both lease
 * methods passes them trivially. Expiry is checked only from below (a lease still held well before its end is not
 * asserted to the millisecond; one long expired must be free), so a slow machine cannot fail them.
 */
function leaseCases<S extends RobotsStore>(
  withStore: (name: string, body: (store: S) => Promise<void>) => StoreContractCase,
  a: string,
  b: string,
): StoreContractCase[] {
  const leasing = (store: S) => {
    const { acquireLease, releaseLease } = store;
    if (acquireLease === undefined || releaseLease === undefined) return null;
    return {
      acquire: (origin: string, holder: string, ttl: number) =>
        Promise.resolve(acquireLease.call(store, origin, holder, ttl)),
      release: (origin: string, holder: string) => Promise.resolve(releaseLease.call(store, origin, holder)),
    };
  };
  const expect = (value: boolean, wanted: boolean, what: string) => {
    if (value !== wanted) throw new Error(`${what}: acquireLease resolved ${value}, expected ${wanted}`);
  };
  return [
    withStore('leases: one holder per origin at a time, origins apart', async (store) => {
      const l = leasing(store);
      if (l === null) return;
      expect(await l.acquire(a, 'one', 60_000), true, 'a free lease');
      expect(await l.acquire(a, 'two', 60_000), false, 'a lease held by another holder');
      expect(await l.acquire(a, 'one', 60_000), true, 'the holder taking its own lease again');
      expect(await l.acquire(b, 'two', 60_000), true, 'the lease of another origin');
    }),
    withStore('leases: exactly one of many concurrent takers wins', async (store) => {
      const l = leasing(store);
      if (l === null) return;
      const won = await Promise.all(Array.from({ length: 8 }, (_, i) => l.acquire(a, `holder-${i}`, 60_000)));
      const winners = won.filter(Boolean).length;
      if (winners !== 1) throw new Error(`${winners} of 8 concurrent acquireLease calls won the lease`);
    }),
    withStore('leases: released by their holder only', async (store) => {
      const l = leasing(store);
      if (l === null) return;
      expect(await l.acquire(a, 'one', 60_000), true, 'a free lease');
      await l.release(a, 'two');
      expect(await l.acquire(a, 'two', 60_000), false, 'after another holder released it');
      await l.release(a, 'one');
      expect(await l.acquire(a, 'two', 60_000), true, 'after its holder released it');
    }),
    withStore('leases: an expired lease is free', async (store) => {
      const l = leasing(store);
      if (l === null) return;
      expect(await l.acquire(a, 'one', 50), true, 'a free lease');
      await sleep(1_000);
      expect(await l.acquire(a, 'two', 60_000), true, 'a lease expired long ago');
    }),
  ];
}

/**
 * The cases of the optional fleet calls ({@link RobotsStore.claimLease}, {@link RobotsStore.publish},
 * {@link RobotsStore.subscribe}); a store without one passes its cases trivially. A wake-up is awaited up to 10 s (a
 * message between processes), and a lease's time left is checked only against the bounds it was given.
 */
function claimCases<S extends RobotsStore>(
  withStore: (name: string, body: (store: S) => Promise<void>) => StoreContractCase,
  a: string,
): StoreContractCase[] {
  const due = Date.UTC(2025, 0, 2);
  const record: StoredOrigin = { ...sampleRecord(a), nextFetchAt: due };
  const lease = (claim: { lease: string }, wanted: string, what: string) => {
    if (claim.lease !== wanted) throw new Error(`${what}: claimLease said ${claim.lease}, expected ${wanted}`);
  };
  return [
    withStore(
      'claims: a lease when there is no record, held elsewhere with its time left, none while fresh',
      async (store) => {
        if (store.claimLease === undefined || store.acquireLease === undefined) return;
        const first = await store.claimLease(a, 'one', 60_000, due, 60_000);
        lease(first, 'held', 'an origin without a record');
        if (first.record !== undefined) throw new Error('a claim found a record that was never set');
        const second = await store.claimLease(a, 'two', 60_000, due, 60_000);
        lease(second, 'elsewhere', 'a lease held by another holder');
        if (!(second.leaseLeftMs > 0 && second.leaseLeftMs <= 60_000)) {
          throw new Error(`a lease of 60000 ms has ${second.leaseLeftMs} ms left`);
        }
        await store.set(a, record);
        const fresh = await store.claimLease(a, 'three', 60_000, due - 1, 60_000);
        lease(fresh, 'fresh', 'a record whose nextFetchAt is after now');
        expectSame(fresh.record, record, 'the record a claim returned');
        lease(await store.claimLease(a, 'one', 60_000, due, 60_000), 'held', 'a due record, by the lease holder');
        if (await store.acquireLease(a, 'three', 60_000)) throw new Error('a fresh claim took the lease');
      },
    ),
    withStore('publish: writes the record, gives the lease up and wakes a waiter', async (store) => {
      const { claimLease, publish, subscribe, acquireLease } = store;
      if (claimLease === undefined || publish === undefined || acquireLease === undefined) return;
      const woken: { origin: string; record: StoredOrigin | undefined }[] = [];
      let wake = () => {};
      const wakeUp = new Promise<void>((resolve) => {
        wake = resolve;
      });
      const unsubscribe = await subscribe?.call(store, (origin, written) => {
        woken.push({ origin, record: written });
        wake();
      });
      try {
        lease(await claimLease.call(store, a, 'one', 60_000, due, 60_000), 'held', 'a free lease');
        lease(await claimLease.call(store, a, 'two', 60_000, due, 60_000), 'elsewhere', 'a lease held elsewhere');
        await publish.call(store, a, record, 'one');
        expectSame(await store.get(a), record, 'get after publish');
        if (!(await acquireLease.call(store, a, 'two', 60_000))) throw new Error('publish kept the lease');
        if (unsubscribe === undefined) return;
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([wakeUp, new Promise((resolve) => (timer = setTimeout(resolve, 10_000)))]);
        clearTimeout(timer);
        const got = woken.find((w) => w.origin === a);
        if (got === undefined) throw new Error('no wake-up within 10 s of a publish an origin was waited for');
        if (got.record !== undefined) expectSame(got.record, record, 'the record a wake-up carried');
      } finally {
        unsubscribe?.();
      }
    }),
  ];
}

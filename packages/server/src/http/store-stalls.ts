/**
 * What `POST /api/decide` says of its shared store's failures (`serve --cache`): one warning when the store first
 * fails, then nothing per request while it keeps failing, and one line when it answers again, with the counts of the
 * stall (store calls failed, origins answered from memory). `GET /api/health` has the store's state at any moment.
 */

import type { RobotsStore, StoreErrorHandler } from 'robotskit/fetch';

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.split('\n')[0]!;
}

/** The store as the client sees it, and the client's error handler, both feeding one stall report. */
export interface StoreStalls {
  readonly store: RobotsStore;
  readonly onStoreError: StoreErrorHandler;
  /** Says, once, that the service stops while the store still fails. */
  close(): void;
}

/**
 * Watches `store`: a failure starts a stall (logged once), and the first call started after that which the store
 * answers ends it (logged once, with the counts). Calls under way when the stall began do not end it.
 */
export function watchStoreStalls(store: RobotsStore, log: (line: string) => void): StoreStalls {
  // Calls are numbered as they start; a stall ends with an answer to a call numbered after it began.
  let started = 0;
  let stall: { since: number; from: number; failed: number; origins: Set<string> } | null = null;
  const answered = (call: number) => {
    if (stall === null || call <= stall.from) return;
    log(
      `robots store answers again after failing since ${new Date(stall.since).toISOString()}: ${stall.failed} store call${stall.failed === 1 ? '' : 's'} failed, ${stall.origins.size} origin${stall.origins.size === 1 ? '' : 's'} answered from memory`,
    );
    stall = null;
  };
  const watched = <A extends unknown[], R>(call: (...args: A) => R) =>
    ((...args: A) => {
      const n = ++started;
      const result = call(...args);
      if (result instanceof Promise)
        result.then(
          () => answered(n),
          () => {},
        );
      else answered(n);
      return result;
    }) as (...args: A) => R;
  const s = store;
  const wrapped: RobotsStore = {
    get: watched((origin) => s.get(origin)),
    set: watched((origin, record) => s.set(origin, record)),
    ...(s.acquireLease === undefined ? {} : { acquireLease: watched(s.acquireLease.bind(s)) }),
    ...(s.releaseLease === undefined ? {} : { releaseLease: watched(s.releaseLease.bind(s)) }),
    ...(s.claimLease === undefined ? {} : { claimLease: watched(s.claimLease.bind(s)) }),
    ...(s.publish === undefined ? {} : { publish: watched(s.publish.bind(s)) }),
    ...(s.subscribe === undefined ? {} : { subscribe: watched(s.subscribe.bind(s)) }),
  };
  return {
    store: wrapped,
    onStoreError(error, operation, origin) {
      if (stall === null) {
        stall = { since: Date.now(), from: started, failed: 0, origins: new Set() };
        log(
          `robots store ${operation} ${origin} failed (${messageOf(error)}); POST /api/decide answers from memory (fetching what it lacks) until the store answers again (said once; GET /api/health has its state)`,
        );
      }
      stall.failed++;
      // A failed read or lease claim: the origin was answered without the store.
      if (operation === 'get' || operation === 'lease') stall.origins.add(origin);
    },
    close() {
      if (stall === null) return;
      log(
        `robots store still failing at shutdown (since ${new Date(stall.since).toISOString()}): ${stall.failed} store call${stall.failed === 1 ? '' : 's'} failed, ${stall.origins.size} origin${stall.origins.size === 1 ? '' : 's'} answered from memory`,
      );
      stall = null;
    },
  };
}

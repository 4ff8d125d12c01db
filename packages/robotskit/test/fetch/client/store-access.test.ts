/** The crawl client's store calls: records checked, failures counted and reported, or thrown without a handler. */

import { describe, expect, it } from 'vitest';
import { StoreAccess } from '../../../src/fetch/client/store-access.js';
import { createMemoryRobotsStore, type RobotsStore } from '../../../src/fetch/index.js';
import { fetched, T0 } from './fetches.js';

const A = 'https://a.test';
const counters = () => ({ storeReads: 0, storeWrites: 0, storeErrors: 0 });
const down = (): never => {
  throw new Error('store down');
};

describe('StoreAccess', () => {
  it('reads and writes histories, counting each call', async () => {
    const c = counters();
    const access = new StoreAccess(createMemoryRobotsStore(), undefined, c);
    expect(await access.read(A)).toEqual([]);
    const history = [fetched(A, T0, 'User-agent: *\nDisallow: /\n')];
    await access.write({ origin: A, history });
    expect(await access.read(A)).toEqual(history);
    expect(c).toEqual({ storeReads: 2, storeWrites: 1, storeErrors: 0 });
  });

  it('reports a failed call and goes on without it when there is a handler', async () => {
    const c = counters();
    const seen: string[] = [];
    const store: RobotsStore = { get: down, set: down };
    const access = new StoreAccess(
      store,
      (error, operation, origin) => seen.push(`${operation} ${origin}: ${(error as Error).message}`),
      c,
    );
    expect(await access.read(A)).toEqual([]);
    await access.write({ origin: A, history: [] });
    expect(seen).toEqual([`get ${A}: store down`, `set ${A}: store down`]);
    expect(c).toEqual({ storeReads: 1, storeWrites: 1, storeErrors: 2 });
  });

  it('throws a failed call to the question without a handler, uncounted', async () => {
    const c = counters();
    const access = new StoreAccess({ get: down, set: down }, undefined, c);
    await expect(access.read(A)).rejects.toThrow('store down');
    await expect(access.write({ origin: A, history: [] })).rejects.toThrow('store down');
    expect(c.storeErrors).toBe(0);
  });

  it('refuses a record that is no history as a failed read', async () => {
    const bogus: RobotsStore = {
      get: () => ({ origin: A, history: [{ fetchedAt: 'yesterday' }] }) as never,
      set: () => {},
    };
    await expect(new StoreAccess(bogus, undefined, counters()).read(A)).rejects.toThrow(`invalid record for ${A}`);
    const seen: unknown[] = [];
    expect(await new StoreAccess(bogus, (error) => seen.push(error), counters()).read(A)).toEqual([]);
    expect(seen[0]).toBeInstanceOf(TypeError);
  });

  it('notes a failure that changes nothing: counted, reported if asked, never thrown', () => {
    const c = counters();
    new StoreAccess({ get: down, set: down }, undefined, c).noted(new Error('gone'), 'renew', A);
    const seen: string[] = [];
    new StoreAccess({ get: down, set: down }, (_e, operation) => seen.push(operation), c).noted(
      new Error('gone'),
      'renew',
      A,
    );
    expect([c.storeErrors, seen]).toEqual([2, ['renew']]);
  });
});

/** The fetch slots of the crawl client: at most so many tasks at once, the rest in arrival order. */

import { describe, expect, it } from 'vitest';
import { Limiter } from '../../../src/fetch/client/limiter.js';
import { deferred } from './fetches.js';

describe('Limiter', () => {
  it('runs at most `limit` tasks at once and starts the others in arrival order as slots free', async () => {
    const limiter = new Limiter(2);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => deferred<number>());
    const runs = gates.map((gate, i) =>
      limiter.run(() => {
        started.push(i);
        return gate.promise;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect([limiter.active, limiter.queued]).toEqual([2, 3]);
    gates[1]!.resolve(1);
    await runs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    // The slot went to the first waiter: still two active.
    expect([limiter.active, limiter.queued]).toEqual([2, 2]);
    for (const [i, gate] of gates.entries()) gate.resolve(i);
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });

  it('gives the slot back when a task rejects', async () => {
    const limiter = new Limiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('failed fetch')))).rejects.toThrow('failed fetch');
    expect(limiter.active).toBe(0);
    expect(await limiter.run(() => Promise.resolve('next'))).toBe('next');
  });

  it('takes a free slot at once, without a promise, and hands a released one to the first waiter', async () => {
    const limiter = new Limiter(1);
    expect(limiter.acquire()).toBeUndefined();
    const order: string[] = [];
    const first = limiter.acquire()!.then(() => order.push('first'));
    const second = limiter.acquire()!.then(() => order.push('second'));
    expect(limiter.queued).toBe(2);
    limiter.release();
    await first;
    expect([order, limiter.active, limiter.queued]).toEqual([['first'], 1, 1]);
    limiter.release();
    await second;
    limiter.release();
    expect([order, limiter.active, limiter.queued]).toEqual([['first', 'second'], 0, 0]);
  });

  it('keeps its order over a queue long enough to be compacted', async () => {
    const limiter = new Limiter(1);
    const done: number[] = [];
    await Promise.all(
      Array.from({ length: 3000 }, (_, i) =>
        limiter.run(async () => {
          done.push(i);
        }),
      ),
    );
    expect(done).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    expect([limiter.active, limiter.queued]).toEqual([0, 0]);
  });
});

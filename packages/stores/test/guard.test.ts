/**
 * The call guard alone, on calls that answer, fail or never settle: a call that never answers fails after the
 * timeout and stalls the store; later calls and calls waiting for a slot fail at once; a probe that answers makes the
 * store usable again; waiting for a slot is not counted against the timeout.
 */

import { describe, expect, it } from 'vitest';
import { RobotsStoreError } from '../src/errors.js';
import { CallGuard } from '../src/guard.js';

const never = () => new Promise<never>(() => {});
const after = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('CallGuard', () => {
  it('fails a call that never answers, then refuses calls at once until a probe answers', async () => {
    let serverBack = false;
    const guard = new CallGuard({
      timeoutMs: 50,
      what: 'the test server',
      probe: () => (serverBack ? Promise.resolve('PONG') : never()),
      probeEveryMs: 10,
    });
    try {
      expect(await guard.run(() => Promise.resolve(1))).toBe(1);
      await expect(guard.run(never)).rejects.toThrow(
        new RobotsStoreError('the test server did not answer within 50 ms'),
      );
      expect(guard.health()).toMatchObject({ state: 'stalled', stalls: 1, failedCalls: 1, cameBackAt: null });
      let called = false;
      await expect(
        guard.run(async () => {
          called = true;
        }),
      ).rejects.toThrow(/^the test server has not answered since \S+; store calls fail at once until it does$/);
      expect(called).toBe(false);
      serverBack = true;
      while (guard.health().state === 'stalled') await after(10, null);
      expect(guard.health()).toMatchObject({ state: 'ok', stalls: 1, failedCalls: 2 });
      expect(guard.health().cameBackAt).not.toBeNull();
      expect(await guard.run(() => Promise.resolve(2))).toBe(2);
    } finally {
      guard.close();
    }
  });

  it('passes a call’s own failure through, counted, without stalling', async () => {
    const guard = new CallGuard({ timeoutMs: 1000, what: 'the test server', probe: () => Promise.resolve() });
    await expect(guard.run(() => Promise.reject(new Error('connection refused')))).rejects.toThrow(
      'connection refused',
    );
    expect(guard.health()).toMatchObject({ state: 'ok', failedCalls: 1, lastError: 'connection refused' });
    guard.close();
  });

  it('does not count waiting for a slot against the timeout', async () => {
    const guard = new CallGuard({ timeoutMs: 3000, what: 'the test server', probe: () => Promise.resolve(), slots: 1 });
    // Six calls of 700 ms through one slot: 4.2 s in all, each well within its 3 s.
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => guard.run(() => after(700, i))));
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
    expect(guard.health()).toMatchObject({ state: 'ok', failedCalls: 0 });
    guard.close();
  });

  it('fails the calls waiting for a slot at once when the store stalls', async () => {
    const guard = new CallGuard({ timeoutMs: 50, what: 'the test server', probe: never, slots: 1, probeEveryMs: 10 });
    const stuck = guard.run(never);
    const waiting = Array.from({ length: 3 }, () => guard.run(() => Promise.resolve('ran')));
    await expect(stuck).rejects.toThrow('did not answer within 50 ms');
    for (const w of waiting) await expect(w).rejects.toThrow('has not answered since');
    guard.close();
  });
});

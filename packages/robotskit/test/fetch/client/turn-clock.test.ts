/**
 * The clock of the crawl client's answers from memory: one reading for several answers, never past the turn of the
 * event loop it was taken in.
 */

import { describe, expect, it } from 'vitest';
import { afterTurn, READS_PER_TURN_READING, turnClock } from '../../../src/fetch/client/turn-clock.js';

/** A source that counts its readings (the nth reading is n * 1000) and callbacks kept until the test runs them. */
function parts() {
  let readings = 0;
  const callbacks: (() => void)[] = [];
  return {
    read: () => ++readings * 1000,
    afterTurn: (callback: () => void) => callbacks.push(callback),
    readings: () => readings,
    callbacks,
  };
}

describe('turnClock', () => {
  it('returns one reading for `reads` calls, then reads again', () => {
    const p = parts();
    const clock = turnClock(p.read, 3, p.afterTurn);
    expect(Array.from({ length: 7 }, () => clock.now())).toEqual([1000, 1000, 1000, 2000, 2000, 2000, 3000]);
    expect(p.readings()).toBe(3);
    // Asked once: its callback has not run yet.
    expect(p.callbacks).toHaveLength(1);
  });

  it('reads again at the first call after the turn ends, whatever reads are left', () => {
    const p = parts();
    const clock = turnClock(p.read, 64, p.afterTurn);
    expect(clock.now()).toBe(1000);
    expect(clock.now()).toBe(1000);
    p.callbacks.shift()!();
    expect(clock.now()).toBe(2000);
    expect(p.callbacks).toHaveLength(1);
    p.callbacks.shift()!();
    // A turn without a call reads nothing.
    expect(p.readings()).toBe(2);
    expect(clock.now()).toBe(3000);
  });

  it('with the real event loop: a reading serves its turn and no later one', async () => {
    const p = parts();
    const clock = turnClock(p.read, READS_PER_TURN_READING, afterTurn);
    expect(clock.now()).toBe(1000);
    // Promises settle within the turn.
    await Promise.resolve();
    expect(clock.now()).toBe(1000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(clock.now()).toBe(2000);
    expect(p.readings()).toBe(2);
  });
});

/**
 * A clock for answers from memory that reads the system clock less often. Reading it costs 40 to 50 ns on a virtual
 * machine (about a twentieth of a cached answer), while the times it is compared with (when a robots.txt is due again,
 * when a policy changes) are minutes to days away. One reading serves several answers, but never past the turn of the
 * event loop it was taken in: a reading is never older than the answers of that turn took.
 */

import type { Clock } from '../shared/types.js';

/**
 * A clock that returns one reading of `read` for up to `reads` calls, and reads again at the first call after
 * `afterTurn` has called back (it is asked once per reading, and only when its previous callback has run).
 */
export function turnClock(read: () => number, reads: number, afterTurn: (callback: () => void) => void): Clock {
  // Fields, not closure variables: V8 boxes each new number stored in a closure's variable, but writes a field in place.
  const state = { at: 0, left: 0, waiting: false };
  const expire = (): void => {
    state.left = 0;
    state.waiting = false;
  };
  return {
    now() {
      if (state.left === 0) {
        state.at = read();
        state.left = reads;
        if (!state.waiting) {
          state.waiting = true;
          afterTurn(expire);
        }
      }
      state.left--;
      return state.at;
    },
  };
}

interface Immediate {
  unref?(): unknown;
}

/**
 * Calls `callback` once the event loop has turned: `setImmediate` where there is one (unreferenced: it keeps no
 * process alive), else a zero timeout.
 */
export function afterTurn(callback: () => void): void {
  const immediate = (globalThis as { setImmediate?: (callback: () => void) => Immediate }).setImmediate;
  if (immediate === undefined) setTimeout(callback, 0);
  else immediate(callback).unref?.();
}

/** How many answers one reading of the system clock serves at most: its cost falls below a nanosecond per answer. */
export const READS_PER_TURN_READING = 64;

/** The system clock as {@link turnClock} reads it, for the crawl client's answers from memory. */
export function systemTurnClock(): Clock {
  // `Date.now` looked up at each reading, as `systemClock` does (a test may replace it).
  return turnClock(() => Date.now(), READS_PER_TURN_READING, afterTurn);
}

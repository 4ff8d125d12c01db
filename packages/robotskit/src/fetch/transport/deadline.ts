/**
 * Timeouts for one retrieval that hold even when the injected `fetch` ignores its `AbortSignal`. The engine's one
 * deadline: `fetchRobotsTxt` and `httpGet` (and through it the sitemaps package) use it.
 *
 * Every await of the retrieval goes through {@link Deadline.step}, which races the awaited promise against a per-step
 * timer, the total timer and the caller's signal. When one fires, the retrieval's `AbortController` is aborted (so a
 * cooperative fetch releases its socket) and the step rejects with a {@link Stop} at once, without waiting for the
 * fetch to notice: a hostile server or a non-cooperative fetch can never make a retrieval hang.
 *
 * The total counts either all the time since the start (`elapsed`, for a retrieval read in one go) or only the time
 * spent waiting in steps (`waiting`): a stream read at its consumer's pace pauses the clock between steps, so a slow
 * consumer cannot make a healthy server look slow.
 */

import type { RetrievalError } from '../shared/types.js';

/** Thrown by {@link Deadline.step} when a timer or the caller's signal ended the retrieval. */
export class Stop {
  constructor(readonly error: RetrievalError) {}
}

const ignore = (): void => {};

/**
 * The longest delay a timer can wait: runtimes store it as a signed 32-bit number of milliseconds and fire a longer one
 * at once (Node warns and waits 1 ms). About 24.8 days, longer than any retrieval runs, so a longer timeout waits this.
 */
const MAX_TIMER_MS = 2_147_483_647;

/** `setTimeout` for any delay: one beyond {@link MAX_TIMER_MS} waits that long rather than firing at once. */
function timer(callback: () => void, ms: number): ReturnType<typeof setTimeout> {
  return setTimeout(callback, Math.min(ms, MAX_TIMER_MS));
}

/** How a {@link Deadline}'s total is counted and reported. */
export interface TotalTimeout {
  readonly ms: number;
  /**
   * `elapsed`: all the time since the deadline was made; `waiting`: only the time spent in steps.
   * @default 'elapsed'
   */
  readonly counts?: 'elapsed' | 'waiting';
  /** The timeout's message. */
  readonly message: string;
}

/** The timers and the caller's signal of one retrieval; see the module comment. */
export class Deadline {
  /** Why the retrieval was stopped; null while it runs. */
  reason: RetrievalError | null = null;
  private readonly stopped: Promise<never>;
  private rejectStopped: (stop: Stop) => void = ignore;
  private totalTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly onAbort: () => void;
  private readonly total: TotalTimeout;
  /** Time spent in steps so far (`waiting` totals). */
  private spent = 0;

  constructor(
    private readonly controller: AbortController,
    total: number | TotalTimeout,
    private readonly signal: AbortSignal | undefined,
    /** Which phase the retrieval is in, for the error a timer reports. */
    private readonly phase: () => 'request' | 'body',
  ) {
    this.total =
      typeof total === 'number'
        ? { ms: total, message: `robots.txt retrieval not finished within ${total} ms (total timeout)` }
        : total;
    this.stopped = new Promise<never>((_, reject) => {
      this.rejectStopped = reject;
    });
    // Nobody may be awaiting a step when the deadline fires; the rejection is still handled.
    this.stopped.catch(ignore);
    this.onAbort = () =>
      this.stop({ kind: 'aborted', message: 'aborted by the caller', phase: this.phase(), code: null });
    if (signal !== undefined) {
      if (signal.aborted) this.onAbort();
      else signal.addEventListener('abort', this.onAbort, { once: true });
    }
    if (this.reason === null && this.total.counts !== 'waiting') {
      this.totalTimer = timer(
        () => this.stop({ kind: 'timeout', message: this.total.message, phase: this.phase(), code: null }),
        this.total.ms,
      );
    }
  }

  /** The signal a cooperative `fetch` is given; aborted when the deadline stops. */
  get abortSignal(): AbortSignal {
    return this.controller.signal;
  }

  /** Ends the retrieval with `error` (the first reason wins). */
  stop(error: RetrievalError): void {
    if (this.reason !== null) return;
    this.reason = error;
    this.rejectStopped(new Stop(error));
    this.controller.abort();
  }

  /**
   * Awaits `promise`, unless `stepMs` pass first (then the retrieval stops with a timeout described by `what`), the
   * total timeout runs out, or the caller aborts.
   * @throws Stop when the retrieval was stopped; whatever `promise` rejects with otherwise.
   */
  async step<T>(promise: Promise<T>, stepMs: number, what: string): Promise<T> {
    // The losing promise may reject later (an aborted fetch does); that rejection is expected and handled here.
    promise.catch(ignore);
    if (this.reason !== null) throw new Stop(this.reason);
    const waiting = this.total.counts === 'waiting';
    const budget = waiting ? this.total.ms - this.spent : Number.POSITIVE_INFINITY;
    const started = waiting ? Date.now() : 0;
    // The step's timer stops the whole retrieval, which rejects `stopped`: no promise of its own to race.
    const stepTimer = timer(
      () => {
        const message = budget <= stepMs ? this.total.message : `${what} within ${stepMs} ms`;
        this.stop({ kind: 'timeout', message, phase: this.phase(), code: null });
      },
      Math.max(0, Math.min(stepMs, budget)),
    );
    try {
      return await Promise.race([promise, this.stopped]);
    } catch (error) {
      // A fetch that rejects because we aborted it reports an AbortError; the reason we stopped is the truth.
      if (this.reason !== null) throw new Stop(this.reason);
      throw error;
    } finally {
      clearTimeout(stepTimer);
      if (waiting) this.spent += Date.now() - started;
    }
  }

  /** Clears the timers and the signal listener. */
  dispose(): void {
    clearTimeout(this.totalTimer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}

/**
 * How long the event loop waits, as `GET /api/health` reports it: a stall of the loop (synchronous work on it) holds up
 * every request, health checks included, so a monitor sees it here with a number rather than as a slow answer only.
 * Two measures: Node's `monitorEventLoopDelay` (sampled every 10 ms, never reset) for the whole run (longest, 99th
 * percentile, mean), and the longest delay of the last 2 s, from a timer of its own every 20 ms noting how late it
 * fires, kept in 1-s buckets (Node's histogram drops the stall right after a reset, so it cannot give a window). A
 * stall shows in the recent figure from the first answer after it (its late tick comes first) until 1–2 s later.
 */

import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** The sampler's period. */
const TICK_MS = 20;
/** One bucket of the recent window. */
const BUCKET_MS = 1000;

/** What the health route says of the event loop, in milliseconds. */
export interface EventLoopDelays {
  /** The longest delay in the last 2 s (a stall shows from the first answer after it). */
  readonly recentMaxMs: number;
  /** Since the service started (Node's `monitorEventLoopDelay`, 10 ms resolution). */
  readonly maxMs: number;
  readonly p99Ms: number;
  readonly meanMs: number;
}

/** Node's histogram records the whole interval between its samples: its 10 ms period is taken off. */
const ms = (ns: number) => Math.round(Math.max(0, ns - 1e7) / 1e4) / 100;

/** Watches the event loop until {@link EventLoopWatch.close}; its timers keep no process alive. */
export class EventLoopWatch {
  readonly #histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  readonly #timer: NodeJS.Timeout;
  #last = performance.now();
  #bucketStart = this.#last;
  #current = 0;
  #previous = 0;

  constructor() {
    this.#histogram.enable();
    this.#timer = setInterval(() => this.#tick(), TICK_MS);
    this.#timer.unref();
  }

  #tick(): void {
    const now = performance.now();
    const late = Math.max(0, now - this.#last - TICK_MS);
    this.#last = now;
    if (now - this.#bucketStart >= BUCKET_MS) {
      this.#previous = this.#current;
      this.#current = 0;
      this.#bucketStart = now;
    }
    this.#current = Math.max(this.#current, late);
  }

  /** The delays now. */
  delays(): EventLoopDelays {
    const h = this.#histogram;
    return {
      recentMaxMs: Math.round(Math.max(this.#current, this.#previous) * 100) / 100,
      maxMs: h.count === 0 ? 0 : ms(h.max),
      p99Ms: h.count === 0 ? 0 : ms(h.percentile(99)),
      meanMs: h.count === 0 ? 0 : ms(h.mean),
    };
  }

  close(): void {
    clearInterval(this.#timer);
    this.#histogram.disable();
  }
}

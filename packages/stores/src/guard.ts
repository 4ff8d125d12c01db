/**
 * Every call of a store bounded in time. A call that has not answered after the store's timeout fails, and the store
 * counts as stalled (a frozen server, a partition, a port that accepts and never answers): from then on its calls
 * fail at once, so a crawl client goes on from memory instead of waiting on each origin, while one probe at a time asks
 * the server whether it is back. The first probe that answers makes the store usable again. Calls wait for a free
 * slot first (a connection of the pool) when the store has fewer connections than callers; that wait is not counted
 * against the timeout and is not a failure, unless the store stalls meanwhile.
 */

import type { RobotsStoreHealth } from 'robotskit/fetch';
import { RobotsStoreError } from './errors.js';

/** The guard's settings: the timeout of one call, what the store is called in messages, and how to probe it. */
interface GuardOptions {
  readonly timeoutMs: number;
  /** `Redis at redis://…`, `PostgreSQL at postgres://…`. */
  readonly what: string;
  /** One cheap round trip to the server (PING, SELECT 1). */
  readonly probe: () => Promise<unknown>;
  /** How long to wait between probes while stalled. */
  readonly probeEveryMs?: number;
  /** Calls that may run at once (a pool's size); the rest wait their turn. */
  readonly slots?: number;
}

/** The message of an error, in one line. */
export function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.split('\n')[0]!;
}

/** Rejects with `onTimeout()` unless `promise` settles within `ms`; the promise's own late failure is swallowed. */
export function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  promise.catch(() => {});
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/** Bounds the calls of one store in time and keeps its health (see the module comment). */
export class CallGuard {
  private state: 'ok' | 'stalled' = 'ok';
  private since = Date.now();
  private stalls = 0;
  private failedCalls = 0;
  private cameBackAt: number | null = null;
  private lastError: string | null = null;
  private probeTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private running = 0;
  private readonly waiting: { start: () => void; fail: (error: Error) => void }[] = [];

  constructor(private readonly options: GuardOptions) {}

  /** The store's health now. */
  health(): RobotsStoreHealth {
    return {
      state: this.state,
      since: this.since,
      stalls: this.stalls,
      failedCalls: this.failedCalls,
      cameBackAt: this.cameBackAt,
      lastError: this.lastError,
    };
  }

  /**
   * Runs one call of the store: at once when a slot is free (else after those before it), failing after the timeout.
   * @throws RobotsStoreError when the store is stalled or the call timed out; the call's own error otherwise.
   */
  async run<T>(call: () => Promise<T>): Promise<T> {
    if (this.state === 'stalled') {
      this.failedCalls++;
      throw this.refused();
    }
    await this.slot().catch((error: unknown) => {
      this.failedCalls++;
      throw error;
    });
    try {
      // The store may have stalled while this call waited for its slot.
      if (this.isStalled()) throw this.refused();
      return await withDeadline(call(), this.options.timeoutMs, () => this.timedOut());
    } catch (error) {
      this.failedCalls++;
      this.lastError = messageOf(error);
      throw error;
    } finally {
      this.running--;
      this.waiting.shift()?.start();
    }
  }

  private isStalled(): boolean {
    return this.state === 'stalled';
  }

  /** Whether a call is under way or the store is stalled: then closing must not wait for answers. */
  busy(): boolean {
    return this.state === 'stalled' || this.running > 0;
  }

  /** Stops probing (the store is closing). */
  close(): void {
    this.closed = true;
    if (this.probeTimer !== null) clearTimeout(this.probeTimer);
    this.probeTimer = null;
  }

  private slot(): Promise<void> {
    if (this.running < (this.options.slots ?? Number.POSITIVE_INFINITY)) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({
        start: () => {
          this.running++;
          resolve();
        },
        fail: reject,
      });
    });
  }

  private refused(): RobotsStoreError {
    return new RobotsStoreError(
      `${this.options.what} has not answered since ${new Date(this.since).toISOString()}; store calls fail at once until it does`,
    );
  }

  private timedOut(): RobotsStoreError {
    const error = new RobotsStoreError(`${this.options.what} did not answer within ${this.options.timeoutMs} ms`);
    if (this.state === 'ok') {
      this.state = 'stalled';
      this.since = Date.now();
      this.stalls++;
      // Those waiting for a slot would only time out in turn.
      for (const w of this.waiting.splice(0)) w.fail(this.refused());
      this.scheduleProbe();
    }
    return error;
  }

  private scheduleProbe(): void {
    if (this.closed) return;
    this.probeTimer = setTimeout(() => {
      this.probeTimer = null;
      withDeadline(this.options.probe(), this.options.timeoutMs, () => new Error('probe timed out')).then(
        () => {
          if (this.closed || this.state === 'ok') return;
          this.state = 'ok';
          this.since = Date.now();
          this.cameBackAt = this.since;
        },
        () => this.scheduleProbe(),
      );
    }, this.options.probeEveryMs ?? 1000);
    // A stalled store does not keep a finished process alive.
    this.probeTimer.unref?.();
  }
}

/**
 * At most so many robots.txt fetches at once over all origins; the others wait their turn, first come first served.
 * A slot ends by being handed to the next waiter (which counts as active already), so a fetch that ends never lets a
 * newcomer pass the queue.
 */

const noop = (): void => {};

/** A counting limiter with a FIFO queue. */
export class Limiter {
  /** Tasks holding a slot now (at most the limit). */
  active = 0;
  private readonly waiting: (() => void)[] = [];
  /** Index of the first waiter still waiting: the queue is consumed from the front without shifting the array. */
  private head = 0;

  constructor(private readonly limit: number) {}

  /** Whether every slot is taken (a task would wait). */
  get full(): boolean {
    return this.active >= this.limit;
  }

  /** Tasks waiting for a slot now. */
  get queued(): number {
    return this.waiting.length - this.head;
  }

  /**
   * Takes a slot: at once (undefined) when one is free, else a promise that resolves when one is handed over. Each
   * slot taken must be given back with {@link release}.
   */
  acquire(): Promise<void> | undefined {
    if (this.active < this.limit) {
      this.active++;
      return undefined;
    }
    return new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Gives a slot back: to the next waiter, or free. */
  release(): void {
    if (this.head < this.waiting.length) {
      const next = this.waiting[this.head]!;
      this.waiting[this.head++] = noop;
      // Drop the consumed front now and then, so that a long run does not keep every resolver ever queued.
      if (this.head > 1024 && this.head * 2 > this.waiting.length) {
        this.waiting.splice(0, this.head);
        this.head = 0;
      }
      next();
    } else {
      this.active--;
    }
  }

  /** Runs `task` in a slot, waiting for one first when all are taken. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    const wait = this.acquire();
    if (wait !== undefined) await wait;
    try {
      return await task();
    } finally {
      this.release();
    }
  }
}

/**
 * Stopping a batch run (Ctrl-C in the command): once its signal is aborted, whatever the run waits for (the next
 * line, a robots.txt, the output draining) ends in {@link Interrupted}, and the run writes what is complete.
 */

/** Thrown into a wait of the run when its signal is aborted. */
export class Interrupted {}

const ignore = (): void => {};

/** The run's view of its abort signal: whether a stop was asked for, and waits that end when it is. */
export class Interruption {
  /** True once the signal is aborted (or when it already was). */
  requested: boolean;
  /** Rejects the one wait in progress. */
  private wake: ((stop: Interrupted) => void) | null = null;

  constructor(private readonly signal?: AbortSignal) {
    this.requested = signal?.aborted === true;
    signal?.addEventListener(
      'abort',
      () => {
        this.requested = true;
        this.wake?.(new Interrupted());
      },
      { once: true },
    );
  }

  /**
   * `promise`, unless a stop comes first: then it rejects with {@link Interrupted}. The run waits for one thing at a
   * time, so one wait is tracked; racing every wait against one long-lived promise instead would leave a reaction on
   * that promise per line (memory growing with the input).
   */
  until<T>(promise: Promise<T>): Promise<T> {
    if (this.signal === undefined) return promise;
    if (this.requested) {
      promise.catch(ignore);
      return Promise.reject(new Interrupted());
    }
    return new Promise<T>((resolve, reject) => {
      const mine = reject;
      this.wake = mine;
      // Once interrupted, this promise may still reject (an input stream destroyed): that is expected.
      promise.then(
        (value) => {
          if (this.wake === mine) this.wake = null;
          resolve(value);
        },
        (error: unknown) => {
          if (this.wake === mine) this.wake = null;
          reject(error);
        },
      );
    });
  }
}

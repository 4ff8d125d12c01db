/**
 * One job at a time beside the workers' rounds (the daily host discovery): started without being awaited, so a
 * long job never holds up a round, and aborted through its signal when the workers stop, which waits for it to end.
 */

export class BackgroundTask {
  #running: Promise<void> | null = null;
  readonly #stop = new AbortController();

  /** Whether a job is running now. */
  get running(): boolean {
    return this.#running !== null;
  }

  /**
   * Starts `job` unless one is running or the task was stopped; returns whether it started. The job gets the
   * stop signal; what it throws goes to `onError` (nothing when it was stopped).
   */
  start(job: (signal: AbortSignal) => Promise<void>, onError: (error: unknown) => void): boolean {
    if (this.#running !== null || this.#stop.signal.aborted) return false;
    const signal = this.#stop.signal;
    this.#running = job(signal)
      .catch((error: unknown) => {
        if (!signal.aborted) onError(error);
      })
      .finally(() => {
        this.#running = null;
      });
    return true;
  }

  /** Aborts the running job and waits for it to end; no job starts afterwards. */
  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#running;
  }
}

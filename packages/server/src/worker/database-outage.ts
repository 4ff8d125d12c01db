/**
 * What the workers of one process say about their database: an outage (PostgreSQL stalled or gone, SQLite locked
 * past its busy timeout) once when it begins and once when the database answers again, with how long and how many
 * rounds failed, never once per round; any other error every time, as it is.
 */

import { isDatabaseTimeout, isDatabaseUnavailable } from '../storage/connection-errors.js';

export class DatabaseOutage {
  #since: number | null = null;
  #failedRounds = 0;

  constructor(
    private readonly log: (line: string) => void,
    private readonly now: () => number,
  ) {}

  /** A round of a worker failed with `error`. */
  failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    if (!isDatabaseUnavailable(error)) {
      this.log(`worker error: ${message}`);
      return;
    }
    this.#failedRounds++;
    if (this.#since !== null) return;
    this.#since = this.now();
    const why = isDatabaseTimeout(error)
      ? `the database did not answer in time (${message}; the URL's query_timeout and connect_timeout are the limits)`
      : `the database cannot be reached (${message})`;
    this.log(`workers paused: ${why}; each worker tries again every round`);
  }

  /** A round of a worker reached the database. */
  answered(): void {
    if (this.#since === null) return;
    const seconds = Math.round((this.now() - this.#since) / 1000);
    const rounds = this.#failedRounds;
    this.#since = null;
    this.#failedRounds = 0;
    this.log(
      `workers fetching again: the database answers after ${seconds} s (${rounds} round${rounds === 1 ? '' : 's'} failed)`,
    );
  }
}

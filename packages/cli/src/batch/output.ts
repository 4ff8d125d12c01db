/**
 * The output of a batch run, with backpressure: records are appended to a buffer and handed to the writer a chunk
 * (64 KiB) at a time, or sooner when the run is about to wait or a record has waited {@link PATIENCE_MS}; when the
 * writer returns a promise (a pipe that is full), the run waits for it, so reading the input waits too.
 */

import type { Interruption } from './interruption.js';

/** A chunk handed to the writer, at least (unless forced). */
export const CHUNK = 64 * 1024;

/** How long a complete record waits in the buffer for more to fill a chunk, at most, ms (while the run reads). */
const PATIENCE_MS = 5;

/** What a wait for patience resolves with. */
export const LATE = Symbol('late');

const ignore = (): void => {};

/** The records written and waiting to be written. */
export class OutputBuffer {
  /** Records written to the buffer (URLs and errors). */
  written = 0;
  /** The `index` of the last record written to the buffer; 0 when none was. */
  lastIndex = 0;
  private buffer = '';
  /** When the buffer last became non-empty (performance.now()). */
  private since = 0;
  /** Once the run is interrupted, chunks are handed over without waiting for the writer. */
  private handingOver = false;
  private patienceTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * @param write The writer: a returned promise is awaited (through `stop`) before more is produced.
   * @param onThousand Called after every 1,024th record (progress reports).
   */
  constructor(
    private readonly write: (chunk: string) => unknown,
    private readonly stop: Interruption,
    private readonly onThousand?: () => void,
  ) {}

  /** Nothing waits in the buffer. */
  get empty(): boolean {
    return this.buffer === '';
  }

  /** A chunk's worth waits: it should be written before more is read. */
  get due(): boolean {
    return this.buffer.length >= CHUNK;
  }

  /** Appends the record of line `index`. */
  emit(index: number, text: string): void {
    if (this.buffer === '') this.since = performance.now();
    this.buffer += text;
    this.lastIndex = index;
    this.written++;
    if ((this.written & 1023) === 0) this.onThousand?.();
  }

  /** How much longer the oldest record in the buffer may wait, ms (0 or less: write it now). */
  patienceLeft(): number {
    return PATIENCE_MS - (performance.now() - this.since);
  }

  /** Resolves with {@link LATE} after `ms`, unless {@link cancelPatience} comes first. */
  patience(ms: number): Promise<typeof LATE> {
    return new Promise((resolve) => {
      this.patienceTimer = setTimeout(resolve, ms, LATE);
    });
  }

  /** Clears the timer of the last {@link patience}. */
  cancelPatience(): void {
    clearTimeout(this.patienceTimer);
  }

  /** Writes the buffer when a chunk is full, or when `force` and anything waits; then waits for the writer. */
  async flush(force: boolean): Promise<void> {
    if (this.buffer.length < CHUNK && !(force && this.buffer !== '')) return;
    const chunk = this.buffer;
    this.buffer = '';
    const pending = this.write(chunk);
    if (this.handingOver) Promise.resolve(pending).catch(ignore);
    else await this.stop.until(Promise.resolve(pending));
  }

  /** The run was interrupted: from now on, the last records are handed over without waiting for the writer. */
  handOver(): void {
    this.handingOver = true;
  }
}

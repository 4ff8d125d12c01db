/**
 * The window of a batch run: the URLs read whose record is not written yet, which `window` bounds, in one of the two
 * orders. In input order ({@link InputOrderWindow}) a record is written after those of every earlier line, so an
 * interrupted run leaves a prefix of the full output; in completion order ({@link CompletionOrderWindow}) each record
 * is written as soon as it is complete, so a slow robots.txt holds back only its own site's records.
 */

import type { Interruption } from './interruption.js';
import type { OutputBuffer } from './output.js';

/** A URL read: its line, and its record once complete. */
export interface Slot {
  readonly index: number;
  /** Its record is complete (in completion order: and written, unless the run was interrupted first). */
  done: boolean;
  text: string;
  /** Settles when the record may be complete (the answer of its origin's robots.txt). */
  promise: Promise<void> | null;
  /** For a URL that waits for its robots.txt: its origin, and when it started waiting (ms since the epoch). */
  readonly origin?: string;
  readonly since?: number;
}

/** What a wait for a URL in flight resolves with. */
export const SETTLED = Symbol('settled');

/** The URLs in flight or waiting to be written, and how their records reach the output. */
export interface RecordWindow {
  /** URLs read whose record is not written yet: what the window bounds. */
  readonly size: number;
  /** A record complete at once goes to the output (or waits for earlier ones); true when {@link flush} has work. */
  ready(index: number, text: string): boolean;
  /** Takes a URL that waits for its robots.txt; writes what is due. */
  add(slot: Slot): Promise<void>;
  /** `slot`'s record is complete (`slot.done` is set): writes it when its order says so, and wakes a waiting run. */
  settle(slot: Slot): void;
  /** Moves what is complete to the output buffer and writes it when a chunk is full, or when `force`. */
  flush(force: boolean): Promise<void>;
  /** Waits for room: for the first record (input order), or for any (completion order). */
  advance(): Promise<void>;
  /** Resolves with {@link SETTLED} when a URL in flight completes. */
  settled(): Promise<typeof SETTLED>;
  /** What to do after {@link settled} woke the run (input order: write what is now complete). */
  afterSettled(): Promise<void>;
  /** The input line a later run resumes from, once this one has stopped. */
  resumeFrom(linesRead: number, fromLine: number): number;
  /**
   * The URL the output waits for, if any: in input order the first record not complete (it holds back every later
   * one), in completion order the oldest URL in flight.
   */
  oldestWaiting(): Slot | null;
}

/** What both orders share: the output, the stop, and the run waiting for a URL in flight. */
abstract class WindowBase {
  private onSettle: (() => void) | null = null;

  constructor(
    protected readonly output: OutputBuffer,
    protected readonly stop: Interruption,
  ) {}

  settled(): Promise<typeof SETTLED> {
    return new Promise((resolve) => {
      this.onSettle = () => resolve(SETTLED);
    });
  }

  protected wake(): void {
    const wake = this.onSettle;
    this.onSettle = null;
    wake?.();
  }
}

/** Records in input order: slots in a list, `head` the first not yet written. */
export class InputOrderWindow extends WindowBase implements RecordWindow {
  private slots: (Slot | undefined)[] = [];
  private head = 0;

  get size(): number {
    return this.slots.length - this.head;
  }

  ready(index: number, text: string): boolean {
    // With nothing waiting before it (the usual case once origins are loaded), it goes straight to the output.
    if (this.head < this.slots.length) {
      this.slots.push({ index, done: true, text, promise: null });
      return this.slots[this.head]!.done;
    }
    this.output.emit(index, text);
    return this.output.due;
  }

  async add(slot: Slot): Promise<void> {
    this.slots.push(slot);
    if (this.slots[this.head]!.done) await this.flush(false);
  }

  settle(_slot: Slot): void {
    this.wake();
  }

  flush(force: boolean): Promise<void> {
    const slots = this.slots;
    while (this.head < slots.length && slots[this.head]!.done) {
      const slot = slots[this.head]!;
      slots[this.head] = undefined;
      this.head++;
      this.output.emit(slot.index, slot.text);
    }
    // Drop the written slots now and then, so the list does not grow with the input.
    if (this.head > 4096 && this.head * 2 > slots.length) {
      this.slots = slots.slice(this.head);
      this.head = 0;
    }
    return this.output.flush(force);
  }

  async advance(): Promise<void> {
    const first = this.slots[this.head]!;
    if (!first.done) {
      // About to wait (for a robots.txt): hand over the records complete so far rather than keep them until a chunk
      // is full, so a record follows its robots.txt's answer by the time of a wait, not of a chunk.
      if (!this.output.empty) await this.flush(true);
      await this.stop.until(first.promise!);
    }
    await this.flush(false);
  }

  afterSettled(): Promise<void> {
    return this.flush(false);
  }

  resumeFrom(_linesRead: number, fromLine: number): number {
    const last = this.output.lastIndex;
    return last > 0 ? last + 1 : fromLine;
  }

  oldestWaiting(): Slot | null {
    const first = this.slots[this.head];
    return first === undefined || first.done ? null : first;
  }
}

/** Records as they complete: the window is the URLs still in flight. */
export class CompletionOrderWindow extends WindowBase implements RecordWindow {
  private readonly inFlight = new Set<Slot>();

  get size(): number {
    return this.inFlight.size;
  }

  ready(index: number, text: string): boolean {
    this.output.emit(index, text);
    return this.output.due;
  }

  async add(slot: Slot): Promise<void> {
    this.inFlight.add(slot);
    if (this.output.due) await this.flush(false);
  }

  settle(slot: Slot): void {
    // Once the run is stopping, the record is not written (an aborted fetch's verdict is not the site's): it stays in
    // flight, a line to resume from.
    if (this.stop.requested) return;
    this.inFlight.delete(slot);
    this.output.emit(slot.index, slot.text);
    this.wake();
  }

  flush(force: boolean): Promise<void> {
    return this.output.flush(force);
  }

  async advance(): Promise<void> {
    if (!this.output.empty) await this.flush(true);
    else await this.stop.until(this.settled());
  }

  async afterSettled(): Promise<void> {}

  resumeFrom(linesRead: number, fromLine: number): number {
    // The first line whose record was not written; else the line after the last one read.
    let from = Math.max(linesRead + 1, fromLine);
    for (const slot of this.inFlight) from = Math.min(from, slot.index);
    return from;
  }

  oldestWaiting(): Slot | null {
    // A set iterates in insertion order: the first is the oldest.
    for (const slot of this.inFlight) return slot;
    return null;
  }
}

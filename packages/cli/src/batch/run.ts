/**
 * The core of `robotskit batch`, usable in-process (tests, the bench): URL lines in, NDJSON verdicts out, in input
 * order or as they complete, with bounded memory whatever the input's length. It composes the parts of this folder:
 *
 * - **One robots.txt fetch per origin**: the engine's crawl client shares each origin's fetch and caches the result
 *   (an LRU of `maxOrigins` origins; beyond that an origin forgotten may be fetched again); the URLs of an origin
 *   being fetched wait together for its first URL's answer (`origins.ts`).
 * - **Bounded concurrency**: at most `concurrency` robots.txt fetches at once over all origins (the client's
 *   `maxConcurrentFetches`), and at most one per origin (the client never fetches an origin twice at once).
 * - **Bounded memory**: at most `window` URLs are in flight or waiting to be written (`window.ts`), and at most
 *   `perOrigin` of them for one origin (`origins.ts`), so URLs waiting on one slow robots.txt cannot take the whole
 *   window; reading the input (`input.ts`, a chunk of lines at a time) pauses until there is room. Output is written
 *   in chunks, and what is complete whenever the run is about to wait for a robots.txt (so records follow their
 *   robots.txt's answer); `write` may return a promise (backpressure, `output.ts`): reading waits for it.
 * - **Output order is input order** by default: the record of input line k is written after those of every earlier
 *   line, so an interrupted run leaves a prefix of the full output and can be resumed from the line after the last
 *   `index` written (`--from-line`). Aborting `signal` (Ctrl-C in the command; `interruption.ts`,
 *   `abortable-fetch.ts`) stops reading, writes the records already complete in input order, and resolves with
 *   `interrupted` and the line to resume from. The price is head-of-line waiting: the URLs of a site that answered
 *   wait for every earlier line's robots.txt, up to the window and the fetch timeout.
 * - **`order: 'completion'`** writes each record as soon as it is complete, so a site's records follow its own
 *   robots.txt's answer whatever earlier sites do. The window and per-origin bounds count the URLs still in flight.
 *   An interrupted run then resumes from its first line without a record (`resumeFrom`), and records of later lines
 *   written before the interruption come again: a reader keeps one record per `index`.
 * - **Every non-blank line gets exactly one record** (`records.ts`); a line that is not a URL with a robots.txt gets
 *   an error record. Blank lines and lines starting with `#` are skipped (their numbers still count in `index`).
 */

import { type CrawlerInput, originOf, RobotsUrlError } from 'robotskit';
import type { AnyFetchLike, RobotsClient, UrlVerdict } from 'robotskit/fetch';
import { crawlClient } from '../crawl/client.js';
import { BATCH_ORDERS } from '../options/choices.js';
import { crawlerOfUa } from '../options/ua.js';
import { robotsRequest } from '../transport/fetch.js';
import { abortableFetch } from './abortable-fetch.js';
import { InputLines } from './input.js';
import { Interrupted, Interruption } from './interruption.js';
import { OriginQuestions, OriginShare } from './origins.js';
import { LATE, OutputBuffer } from './output.js';
import { invalidReason, RecordMaker } from './records.js';
import type { BatchOptions, BatchProgress, BatchSummary } from './types.js';
import { CompletionOrderWindow, InputOrderWindow, type RecordWindow, SETTLED, type Slot } from './window.js';

/** Input lines between two turns of the event loop (see {@link BatchRun.read}). */
const TURN_LINES = 4096;

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/**
 * Checks every URL of `lines` and writes one NDJSON record per non-blank line, in input order:
 * `{"index","url","allowed","line","rule","robotsUrl","fetch","policy"}`, or `{"index","url","error"}` for a line
 * that is not a URL with a robots.txt. Resolves with the final counters once everything is written (or, when `signal`
 * stops it, once the records complete by then are).
 */
export async function runBatch(options: BatchOptions): Promise<BatchSummary> {
  // Bad options reject the promise, as everything else the run meets does.
  return new BatchRun(options).run();
}

/** One run: its parts, and the loop that reads lines into them. */
class BatchRun {
  private readonly windowSize: number;
  private readonly fromLine: number;
  private readonly client: RobotsClient;
  private readonly crawler: CrawlerInput;
  private readonly stop: Interruption;
  private readonly input: InputLines;
  private readonly output: OutputBuffer;
  private readonly window: RecordWindow;
  private readonly share: OriginShare;
  private readonly questions: OriginQuestions;
  private readonly records: RecordMaker;
  /** Set by {@link take} when it stopped at a line that waits for its robots.txt. */
  private heldIndex = 0;
  private heldText: string | null = null;
  /** Set by {@link take} when it stopped with records to write. */
  private mustFlush = false;

  constructor(private readonly options: BatchOptions) {
    const crawler = typeof options.crawler === 'object' ? options.crawler : crawlerOfUa(options.crawler);
    this.windowSize = positive(options.window, 4096, 'window');
    const perOrigin = Math.min(this.windowSize, positive(options.perOrigin, 512, 'perOrigin'));
    this.fromLine = positive(options.fromLine, 1, 'fromLine');
    const order = options.order ?? 'input';
    if (!BATCH_ORDERS.includes(order)) throw new RangeError(`order must be one of ${BATCH_ORDERS.join(', ')}`);
    const every = options.progressEveryMs;
    if (every !== undefined && (typeof every !== 'number' || !(every > 0))) {
      throw new RangeError('progressEveryMs must be a positive number');
    }
    const signal = options.signal;
    const baseFetch = options.fetch ?? robotsRequest;
    // Fetches in flight end when the run is stopped, so nothing keeps the process waiting for a slow site.
    const fetch: AnyFetchLike = signal === undefined ? baseFetch : abortableFetch(baseFetch, signal);
    this.client = crawlClient(crawler, options.timeoutMs ?? 10_000, options.version ?? '0', {
      fetch,
      maxConcurrentFetches: positive(options.concurrency, 32, 'concurrency'),
      maxOrigins: positive(options.maxOrigins, 100_000, 'maxOrigins'),
      ...(options.store === undefined ? {} : { store: options.store }),
      ...(options.onStoreError === undefined ? {} : { onStoreError: options.onStoreError }),
    });
    this.crawler = crawler.input;
    this.records = new RecordMaker(options.timeoutMs ?? 10_000);
    this.stop = new Interruption(signal);
    this.input = new InputLines(options.lines, this.fromLine);
    const onProgress = options.onProgress;
    this.output = new OutputBuffer(
      options.write,
      this.stop,
      onProgress === undefined ? undefined : () => onProgress(this.progress()),
    );
    this.window =
      order === 'input'
        ? new InputOrderWindow(this.output, this.stop)
        : new CompletionOrderWindow(this.output, this.stop);
    this.share = new OriginShare(perOrigin);
    this.questions = new OriginQuestions(this.client, this.crawler, (slot, text, origin, verdict, error) =>
      this.complete(slot, text, origin, verdict, error),
    );
  }

  /** Reads, checks and writes everything; resolves with the summary. */
  async run(): Promise<BatchSummary> {
    const { window, output, options } = this;
    const onProgress = options.onProgress;
    const every = options.progressEveryMs;
    const ticker =
      onProgress !== undefined && every !== undefined
        ? setInterval(() => onProgress(this.progress()), every)
        : undefined;
    // A display must never keep the process alive.
    ticker?.unref?.();
    let interrupted = false;
    try {
      if (this.stop.requested) throw new Interrupted();
      await this.read();
      while (window.size > 0) await window.advance();
      await window.flush(true);
    } catch (error) {
      if (!(error instanceof Interrupted)) throw error;
      // Write what is complete (in input order: up to the first record still waiting).
      interrupted = true;
      output.handOver();
      await window.flush(true);
    } finally {
      clearInterval(ticker);
      this.input.release();
    }
    const resumeFrom = window.resumeFrom(this.input.lines, this.fromLine);
    const final: BatchSummary = { ...this.progress(), interrupted, lastIndex: output.lastIndex, resumeFrom };
    onProgress?.(final);
    return final;
  }

  /** The counters now. */
  private progress(): BatchProgress {
    const stats = this.client.stats();
    const records = this.records;
    return {
      lines: this.input.lines,
      written: this.output.written,
      allowed: records.allowed,
      blocked: records.blocked,
      invalid: records.invalid,
      pending: this.window.size,
      fetches: stats.fetches,
      activeFetches: stats.activeFetches,
      queuedFetches: stats.queuedFetches,
      unreachable: records.unreachable,
      waitingFor: this.waitingFor(),
    };
  }

  /** The robots.txt the output waits for, if any. */
  private waitingFor(): BatchProgress['waitingFor'] {
    const slot = this.window.oldestWaiting();
    if (slot === null || slot.origin === undefined) return null;
    return { origin: slot.origin, line: slot.index, ms: Date.now() - (slot.since ?? Date.now()) };
  }

  /**
   * Reads the input to its end: the lines of each item read are taken at once while they can be answered; between
   * reads, records complete by then are written, a record waiting at most the output's patience.
   */
  private async read(): Promise<void> {
    const { input, window, output, stop } = this;
    let linesAtTurn = 0;
    for (;;) {
      if (input.buffered) {
        // Lines already read are taken at once while they can be answered; a look at the signal before each.
        if (stop.requested) throw new Interrupted();
        this.take();
        const held = this.heldText;
        if (held !== null) {
          this.heldText = null;
          await this.enqueue(this.heldIndex, held);
        } else if (this.mustFlush) {
          this.mustFlush = false;
          await window.flush(false);
        } else if (input.buffered && !stop.requested) await window.advance();
        continue;
      }
      if (window.size > 0 && !input.reading && input.lines - linesAtTurn >= TURN_LINES) {
        // Lines answered from memory take no I/O, nor does an input already in memory: while URLs wait for robots.txt
        // fetches, let the event loop turn now and then, or the fetches' answers would wait for the end of the input.
        // (Not otherwise: a turn costs more than it seems when the heap is small, GC work being done in it.)
        linesAtTurn = input.lines;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const next = input.read();
      if (!output.empty || window.size > 0) {
        // A record waits at most the output's patience for the records after it to fill a chunk: the input may come
        // slowly (a pipe), and records may complete slowly (sites being fetched) while it comes fast.
        const left = output.empty ? 0 : output.patienceLeft();
        if (!output.empty && left <= 0) {
          await window.flush(true);
          continue;
        }
        const waited = await stop.until(Promise.race([next, output.empty ? window.settled() : output.patience(left)]));
        output.cancelPatience();
        if (waited === LATE) await window.flush(true);
        else if (waited === SETTLED) await window.afterSettled();
        if (waited === LATE || waited === SETTLED) continue;
      }
      if (!input.load(await stop.until(next))) return;
    }
  }

  /**
   * Takes the lines read while the window has room and each is answered at once, as most are (URLs of origins
   * already loaded, without a promise each; for URLs already in canonical form, without parsing them: see the
   * client's `peek`). Stops at a line that waits for its robots.txt (`heldText`), when the output buffer is due
   * (`mustFlush`), when the window is full, or when the run is stopped.
   */
  private take(): void {
    const { input, window, records, client, crawler, stop, windowSize } = this;
    while (window.size < windowSize && !stop.requested) {
      const text = input.nextLine();
      if (text === null) return;
      if (text === '') continue;
      const index = input.lines;
      // A line that is not an absolute http, https or ftp URL with a host makes the client throw a RobotsUrlError: it
      // gets an error record.
      let known: UrlVerdict | null = null;
      try {
        known = client.peek(text, crawler);
      } catch (error) {
        if (!(error instanceof RobotsUrlError)) {
          // Anything else: explain() reports it on the line.
          this.hold(index, text);
          return;
        }
        if (window.ready(index, records.error(index, text, 'invalid-url', invalidReason(text)))) {
          this.mustFlush = true;
          return;
        }
        continue;
      }
      if (known === null) {
        this.hold(index, text);
        return;
      }
      if (window.ready(index, records.record(index, known))) {
        this.mustFlush = true;
        return;
      }
    }
  }

  private hold(index: number, text: string): void {
    this.heldIndex = index;
    this.heldText = text;
  }

  /** A line that waits for its origin's robots.txt: with the others of that origin, once there is room for it. */
  private async enqueue(index: number, text: string): Promise<void> {
    // The line passed `peek`'s check: its origin is the engine's (a string in canonical form is not parsed again).
    const origin = originOf(text);
    while (this.share.full(origin)) await this.window.advance();
    this.share.take(origin);
    const slot: Slot = { index, done: false, text: '', promise: null, origin, since: Date.now() };
    this.questions.ask(slot, text, origin);
    await this.window.add(slot);
  }

  /** Gives `slot` the record of its verdict, or of why the client refused its line, and settles it. */
  private complete(slot: Slot, text: string, origin: string, verdict: UrlVerdict | null, error?: unknown): void {
    if (verdict !== null) slot.text = this.records.record(slot.index, verdict);
    else {
      // The engine rejects only URLs without a robots.txt; anything else (a bug) is reported on the line too, rather
      // than left unhandled with the slot never done.
      const kind = error instanceof RobotsUrlError ? 'invalid-url' : 'internal';
      slot.text = this.records.error(slot.index, text, kind, error instanceof Error ? error.message : String(error));
    }
    slot.done = true;
    this.share.release(origin);
    this.window.settle(slot);
  }
}

/**
 * The core of `robotskit batch`, usable in-process (tests, the bench): URL lines in, NDJSON verdicts out, in input
 * order or as they complete, with bounded memory whatever the input's length.
 *
 * - **One robots.txt fetch per origin**: the engine's crawl client shares each origin's fetch and caches the result
 *   (an LRU of `maxOrigins` origins; beyond that an origin forgotten may be fetched again).
 * - **Bounded concurrency**: at most `concurrency` robots.txt fetches at once over all origins (the client's
 *   `maxConcurrentFetches`), and at most one per origin (the client never fetches an origin twice at once).
 * - **Bounded memory**: at most `window` URLs are in flight or waiting to be written, and at most `perOrigin` of
 *   them for one origin (so URLs waiting on one slow robots.txt cannot take the whole window); reading the input
 *   pauses until there is room. Output is written in chunks, and what is complete whenever the run is about to wait
 *   for a robots.txt (so records follow their robots.txt's answer); `write` may return a promise (backpressure):
 *   reading waits for it.
 * - **Output order is input order** by default: the record of input line k is written after those of every earlier
 *   line, so an interrupted run leaves a prefix of the full output and can be resumed from the line after the last
 *   `index` written (`--from-line`). Aborting `signal` (Ctrl-C in the command) stops reading, writes the records
 *   already complete in input order, and resolves with `interrupted` and the line to resume from. The price is
 *   head-of-line waiting: the URLs of a site that answered wait for every earlier line's robots.txt, up to the window
 *   and the fetch timeout.
 * - **`order: 'completion'`** writes each record as soon as it is complete, so a site's records follow its own
 *   robots.txt's answer whatever earlier sites do. The window and per-origin bounds count the URLs still in flight.
 *   An interrupted run then resumes from its first line without a record (`resumeFrom`), and records of later lines
 *   written before the interruption come again: a reader keeps one record per `index`.
 * - **Every non-blank line gets exactly one record**; a line that is not a URL with a robots.txt gets an error
 *   record. Blank lines and lines starting with `#` are skipped (their numbers still count in `index`).
 */

import { type CrawlerInput, originOf, RobotsUrlError, robotsTxtUrl } from 'robotskit';
import type {
  AnyFetchLike,
  EffectivePolicy,
  FetchLike,
  RetrievalResult,
  RobotsClientOptions,
  UrlVerdict,
} from 'robotskit/fetch';
import { crawlClient } from '../crawl/client.js';
import { BATCH_ORDERS } from '../options/choices.js';
import { crawlerOfUa, type UaCrawler } from '../options/ua.js';
import { isNetworkFailure } from '../output/fetch.js';
import { robotsRequest } from '../transport/fetch.js';

/** Options of {@link runBatch}. */
export interface BatchOptions {
  /**
   * The input, one URL per line (line breaks removed): a line at a time, or several at once (as {@link lineBatchesOf}
   * reads them, every line of a chunk of input), which spares a promise per line.
   */
  readonly lines: AsyncIterable<string | readonly string[]>;
  /** Receives whole NDJSON lines, several at a time; a returned promise is awaited before more are produced. */
  readonly write: (chunk: string) => unknown;
  /** The crawler asked for: `--ua` as typed, or resolved. @default robotskit's own token */
  readonly crawler?: string | UaCrawler;
  /** The `fetch` for robots.txt requests. @default robotsRequest (Node's HTTP client, behaving as `fetch`) */
  readonly fetch?: AnyFetchLike;
  /** robotskit's version, for the User-Agent. */
  readonly version?: string;
  /** Timeout of one robots.txt retrieval, ms. @default 10000 */
  readonly timeoutMs?: number;
  /** robots.txt fetches in flight at once, over all origins. @default 32 */
  readonly concurrency?: number;
  /** URLs in flight or waiting to be written, at most. @default 4096 */
  readonly window?: number;
  /** URLs of one origin in flight, at most. @default 512 */
  readonly perOrigin?: number;
  /**
   * `input`: records in input order (an interrupted run leaves a prefix of the output); `completion`: each record as
   * soon as it is complete (a slow robots.txt holds back only its own site's URLs). @default 'input'
   */
  readonly order?: BatchOrder;
  /**
   * A store shared with other processes (`--cache`): each origin's robots.txt is fetched once between them all.
   * Its failures go to `onStoreError` and the run goes on from memory.
   */
  readonly store?: RobotsClientOptions['store'];
  readonly onStoreError?: RobotsClientOptions['onStoreError'];
  /** Origins kept in the client's cache. @default 100000 */
  readonly maxOrigins?: number;
  /** Input lines before this 1-based line number are skipped (to resume). @default 1 */
  readonly fromLine?: number;
  /** Called with the counters now and then (every 1,024 records, every `progressEveryMs`, and at the end). */
  readonly onProgress?: (progress: BatchProgress) => void;
  /**
   * Also call `onProgress` at this interval while the run lasts, so a display moves while nothing can be written
   * (URLs waiting behind a slow robots.txt). @default never
   */
  readonly progressEveryMs?: number;
  /**
   * Stops the run: no more input is read, robots.txt fetches in flight are aborted, the records complete by then are
   * written (in input order, up to the first one still waiting), and `runBatch` resolves with `interrupted: true`.
   */
  readonly signal?: AbortSignal;
}

/** The order of `batch`'s records: the input's, or the order in which they complete. */
export type BatchOrder = (typeof BATCH_ORDERS)[number];

/** Counters of a batch run. */
export interface BatchProgress {
  /** Input lines read. */
  readonly lines: number;
  /** Records written (URLs and errors). */
  readonly written: number;
  readonly allowed: number;
  readonly blocked: number;
  /** Lines that were not URLs with a robots.txt. */
  readonly invalid: number;
  /** URLs in flight or waiting to be written. */
  readonly pending: number;
  /** robots.txt fetches made, in flight, and waiting for a slot. */
  readonly fetches: number;
  readonly activeFetches: number;
  readonly queuedFetches: number;
  /** Origins whose robots.txt could not be fetched (network errors, timeouts, answers that broke off). */
  readonly unreachable: number;
}

/** What {@link runBatch} resolves with: the final counters, and where to resume after an interruption. */
export interface BatchSummary extends BatchProgress {
  /** True when `signal` stopped the run before the end of the input. */
  readonly interrupted: boolean;
  /** The `index` of the last record written; 0 when none was. */
  readonly lastIndex: number;
  /**
   * The input line a later run resumes from (`--from-line`) to complete this run's output. In input order: the line
   * after the last record written, or this run's first line when none was written. In completion order: the first
   * line read without a record written (later lines may have theirs already), or the line after the last one read.
   */
  readonly resumeFrom: number;
}

interface Slot {
  readonly index: number;
  /** Its record is complete (in completion order: and written, unless the run was interrupted first). */
  done: boolean;
  text: string;
  promise: Promise<void> | null;
}

/** The URLs of one origin waiting for its robots.txt: the first asked the client, the rest wait for its answer. */
interface Waiting {
  readonly slots: Slot[];
  /** Their lines, to answer each from memory once the first is answered. */
  readonly texts: string[];
  promise: Promise<void>;
}

/** What the records of one policy share (see `tailOf` in {@link runBatch}). */
interface Shared {
  /** `"robotsUrl","fetch","policy"`, the end of the record. */
  readonly fragment: string;
  /** The fetch last seen with this policy (counted once as unreachable when it failed). */
  latest: RetrievalResult | null;
  allowedNoRule: string | null;
  blockedNoRule: string | null;
  readonly byLine: Map<number, { kind: string; pattern: string; allowed: boolean; text: string }>;
}

const CHUNK = 64 * 1024;

/** Input lines between two turns of the event loop (see the reading in {@link runBatch}). */
const TURN_LINES = 4096;

/** What {@link runBatch}'s waits for a record in flight, and for input that is slow to come, resolve with. */
const SETTLED = Symbol('settled');
const LATE = Symbol('late');

/** How long a complete record waits in the output buffer for more to fill a chunk, at most, ms (while the run reads). */
const PATIENCE_MS = 5;

/** Thrown inside {@link runBatch} when its signal is aborted. */
class Interrupted {}

const ignore = (): void => {};

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/** Why a line is not a URL with a robots.txt, in the engine's words. */
function invalidReason(text: string): string {
  try {
    robotsTxtUrl(text);
    return `not a URL with a robots.txt: ${JSON.stringify(text)}`;
  } catch (error) {
    return error instanceof RobotsUrlError ? error.message : String(error);
  }
}

/**
 * `JSON.stringify(url)` for a URL the WHATWG parser serialised (a verdict's `url`): printable ASCII, in which only `"`
 * (a host may hold one) and `\` (a query or fragment may) need escaping, so most URLs are just put in quotes (a tenth
 * of a batch's time went into stringifying them).
 */
function quoted(url: string): string {
  return url.indexOf('"') < 0 && url.indexOf('\\') < 0 ? `"${url}"` : JSON.stringify(url);
}

function errorRecord(index: number, text: string, kind: string, message: string): string {
  return `{"index":${index},"url":${JSON.stringify(text)},"error":{"kind":"${kind}","message":${JSON.stringify(message)}}}\n`;
}

/**
 * Checks every URL of `lines` and writes one NDJSON record per non-blank line, in input order:
 * `{"index","url","allowed","line","rule","robotsUrl","fetch","policy"}`, or `{"index","url","error"}` for a line
 * that is not a URL with a robots.txt. Resolves with the final counters once everything is written (or, when `signal`
 * stops it, once the records complete by then are).
 */
export async function runBatch(options: BatchOptions): Promise<BatchSummary> {
  const crawler: UaCrawler = typeof options.crawler === 'object' ? options.crawler : crawlerOfUa(options.crawler);
  const window = positive(options.window, 4096, 'window');
  const perOrigin = Math.min(window, positive(options.perOrigin, 512, 'perOrigin'));
  const fromLine = positive(options.fromLine, 1, 'fromLine');
  const order = options.order ?? 'input';
  if (!BATCH_ORDERS.includes(order)) throw new RangeError(`order must be one of ${BATCH_ORDERS.join(', ')}`);
  const ordered = order === 'input';
  const every = options.progressEveryMs;
  if (every !== undefined && (typeof every !== 'number' || !(every > 0))) {
    throw new RangeError('progressEveryMs must be a positive number');
  }
  const signal = options.signal;
  const baseFetch = options.fetch ?? robotsRequest;
  // Fetches in flight end when the run is stopped, so nothing keeps the process waiting for a slow site.
  const fetch: AnyFetchLike = signal === undefined ? baseFetch : abortableFetch(baseFetch, signal);
  const client = crawlClient(crawler, options.timeoutMs ?? 10_000, options.version ?? '0', {
    fetch,
    maxConcurrentFetches: positive(options.concurrency, 32, 'concurrency'),
    maxOrigins: positive(options.maxOrigins, 100_000, 'maxOrigins'),
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.onStoreError === undefined ? {} : { onStoreError: options.onStoreError }),
  });
  const ask: CrawlerInput = crawler.input;

  // What every URL of an origin shares, serialised once per policy object (the client keeps it until it changes),
  // and the part of a record after its URL, serialised once per deciding rule of that policy: a record then costs
  // one lookup and one string of its own (its index and URL), not a rule object's JSON and a fragment per URL.
  const shared = new WeakMap<EffectivePolicy<RetrievalResult>, Shared>();
  const unreachable = new WeakSet<RetrievalResult>();
  let unreachableCount = 0;
  function sharedOf(v: UrlVerdict): Shared {
    let entry = shared.get(v.policy);
    if (entry === undefined) {
      const latest = v.latest;
      const fetch = {
        status: latest.status,
        outcome: latest.outcome,
        error: latest.error === null ? null : { kind: latest.error.kind, message: latest.error.message },
      };
      const fragment = `"robotsUrl":${JSON.stringify(v.robotsUrl)},"fetch":${JSON.stringify(fetch)},"policy":${JSON.stringify({ mode: v.policy.mode, reason: v.policy.reason })}}\n`;
      entry = { fragment, latest: null, allowedNoRule: null, blockedNoRule: null, byLine: new Map() };
      shared.set(v.policy, entry);
    }
    if (entry.latest !== v.latest) {
      entry.latest = v.latest;
      if (isNetworkFailure(v.latest) && !unreachable.has(v.latest)) {
        unreachable.add(v.latest);
        unreachableCount++;
      }
    }
    return entry;
  }

  /** `"allowed","line","rule"` and the shared fragment, for this verdict. */
  function tailOf(v: UrlVerdict): string {
    const entry = sharedOf(v);
    const rule = v.rule;
    if (rule === null && v.line === 0) {
      if (v.allowed) {
        entry.allowedNoRule ??= `"allowed":true,"line":0,"rule":null,${entry.fragment}`;
        return entry.allowedNoRule;
      }
      entry.blockedNoRule ??= `"allowed":false,"line":0,"rule":null,${entry.fragment}`;
      return entry.blockedNoRule;
    }
    if (rule === null) return `"allowed":${v.allowed},"line":${v.line},"rule":null,${entry.fragment}`;
    // Rules of one line share its entry; another rule of the line (Google's derived index.htm rule) replaces it.
    const cached = entry.byLine.get(v.line);
    if (
      cached !== undefined &&
      cached.pattern === rule.pattern &&
      cached.kind === rule.kind &&
      cached.allowed === v.allowed
    ) {
      return cached.text;
    }
    const text = `"allowed":${v.allowed},"line":${v.line},"rule":${JSON.stringify({ kind: rule.kind, pattern: rule.pattern })},${entry.fragment}`;
    entry.byLine.set(v.line, { kind: rule.kind, pattern: rule.pattern, allowed: v.allowed, text });
    return text;
  }

  function record(index: number, v: UrlVerdict): string {
    if (v.allowed) allowed++;
    else blocked++;
    return `{"index":${index},"url":${quoted(v.url)},${tailOf(v)}`;
  }

  let lines = 0;
  let written = 0;
  let allowed = 0;
  let blocked = 0;
  let invalid = 0;
  const progress = (): BatchProgress => {
    const stats = client.stats();
    return {
      lines,
      written,
      allowed,
      blocked,
      invalid,
      pending: unwritten(),
      fetches: stats.fetches,
      activeFetches: stats.activeFetches,
      queuedFetches: stats.queuedFetches,
      unreachable: unreachableCount,
    };
  };

  // The window: slots in input order; `head` is the first not yet written. In completion order the window is
  // `inFlight` instead, the URLs whose record is not written yet (a record is written when it completes), and
  // `onSettle` wakes the run waiting for one of them.
  let slots: (Slot | undefined)[] = [];
  let head = 0;
  const inFlight = new Set<Slot>();
  let onSettle: (() => void) | null = null;
  /** URLs read whose record is not written yet: what the window bounds, in either order. */
  function unwritten(): number {
    return ordered ? slots.length - head : inFlight.size;
  }
  const perOriginCount = new Map<string, number>();
  // The URLs waiting for their origin's robots.txt, by origin.
  const waiting = new Map<string, Waiting>();
  let buffer = '';
  // When the buffer last became non-empty (performance.now()).
  let bufferSince = 0;
  let lastIndex = 0;
  let interrupted = false;

  // The run waits for one thing at a time (the next line, the first record's fetch, the output); `wake` ends that
  // wait when the signal is aborted. (Racing every wait against one long-lived promise instead would leave a
  // reaction on that promise per line: memory growing with the input.)
  let stopRequested = signal?.aborted === true;
  let wake: ((stop: Interrupted) => void) | null = null;
  signal?.addEventListener(
    'abort',
    () => {
      stopRequested = true;
      wake?.(new Interrupted());
    },
    { once: true },
  );
  function until<T>(promise: Promise<T>): Promise<T> {
    if (signal === undefined) return promise;
    if (stopRequested) {
      promise.catch(ignore);
      return Promise.reject(new Interrupted());
    }
    return new Promise<T>((resolve, reject) => {
      const mine = reject;
      wake = mine;
      // Once interrupted, this promise may still reject (an input stream destroyed): that is expected.
      promise.then(
        (value) => {
          if (wake === mine) wake = null;
          resolve(value);
        },
        (error: unknown) => {
          if (wake === mine) wake = null;
          reject(error);
        },
      );
    });
  }

  /** Appends a record to the output buffer: the next one in input order (in completion order, the next complete). */
  function emit(index: number, text: string): void {
    if (buffer === '') bufferSince = performance.now();
    buffer += text;
    lastIndex = index;
    written++;
    if ((written & 1023) === 0) options.onProgress?.(progress());
  }

  async function flush(force: boolean): Promise<void> {
    while (head < slots.length && slots[head]!.done) {
      const slot = slots[head]!;
      slots[head] = undefined;
      head++;
      emit(slot.index, slot.text);
    }
    if (head > 4096 && head * 2 > slots.length) {
      slots = slots.slice(head);
      head = 0;
    }
    if (buffer.length >= CHUNK || (force && buffer !== '')) {
      const chunk = buffer;
      buffer = '';
      const pending = options.write(chunk);
      // Once interrupted, the last records are handed over without waiting for the output to drain.
      if (interrupted) Promise.resolve(pending).catch(ignore);
      else await until(Promise.resolve(pending));
    }
  }

  /**
   * Takes a record complete at once. With nothing waiting before it (the usual case once origins are loaded), it goes
   * straight to the output buffer, without a slot; else it waits in its slot. True when {@link flush} has work.
   */
  function ready(index: number, text: string): boolean {
    if (ordered && head < slots.length) {
      slots.push({ index, done: true, text, promise: null });
      return slots[head]!.done;
    }
    emit(index, text);
    return buffer.length >= CHUNK;
  }

  /** Resolves when a URL in flight completes. */
  function settled(): Promise<typeof SETTLED> {
    return new Promise((resolve) => {
      onSettle = () => resolve(SETTLED);
    });
  }

  let patienceTimer: ReturnType<typeof setTimeout> | undefined;
  /** Resolves after `ms` (its timer in `patienceTimer`, to clear when something else came first). */
  function patience(ms: number): Promise<typeof LATE> {
    return new Promise((resolve) => {
      patienceTimer = setTimeout(resolve, ms, LATE);
    });
  }

  /** Waits for room: in input order for the first record, in completion order for any (after writing what is done). */
  async function advance(): Promise<void> {
    if (!ordered) {
      if (buffer !== '') await flush(true);
      else await until(settled());
      return;
    }
    const first = slots[head]!;
    if (!first.done) {
      // About to wait (for a robots.txt): hand over the records complete so far rather than keep them until a chunk
      // is full, so a record follows its robots.txt's answer by the time of a wait, not of a chunk.
      if (buffer !== '') await flush(true);
      await until(first.promise!);
    }
    await flush(false);
  }

  // Set by `take` when it stopped at a line that waits for its robots.txt, or with records to write.
  let held: { index: number; text: string } | null = null;
  let mustFlush = false;
  const windowFull = (): boolean => unwritten() >= window;

  /**
   * Takes the lines of `items` from `at` on while the window has room and each is answered at once, as most are (URLs
   * of origins already loaded, without a promise each; for URLs already in canonical form, without parsing them: see
   * the client's `peek`). Stops at a line that waits for its robots.txt (`held`), when the output buffer is due
   * (`mustFlush`), when the window is full, or when the run is stopped. Returns where it stopped.
   */
  function take(items: readonly string[], at: number): number {
    while (at < items.length && !windowFull() && !stopRequested) {
      const raw = items[at++]!;
      lines++;
      if (lines < fromLine) continue;
      const text = raw.trim();
      if (text === '' || text.startsWith('#')) continue;
      const index = lines;
      // A line that is not an absolute http, https or ftp URL with a host makes the client throw a RobotsUrlError: it
      // gets an error record.
      let known: UrlVerdict | null = null;
      try {
        known = client.peek(text, ask);
      } catch (error) {
        if (!(error instanceof RobotsUrlError)) {
          // Anything else: explain() reports it on the line.
          held = { index, text };
          return at;
        }
        invalid++;
        if (ready(index, errorRecord(index, text, 'invalid-url', invalidReason(text)))) {
          mustFlush = true;
          return at;
        }
        continue;
      }
      if (known === null) {
        held = { index, text };
        return at;
      }
      if (ready(index, record(index, known))) {
        mustFlush = true;
        return at;
      }
    }
    return at;
  }

  /** A line that waits for its origin's robots.txt: with the others of that origin, once there is room for it. */
  async function enqueue(index: number, text: string): Promise<void> {
    // The line passed `peek`'s check: its origin is the engine's (a string in canonical form is not parsed again).
    const origin = originOf(text);
    while ((perOriginCount.get(origin) ?? 0) >= perOrigin) await advance();
    perOriginCount.set(origin, (perOriginCount.get(origin) ?? 0) + 1);
    const slot: Slot = { index, done: false, text: '', promise: null };
    const group = waiting.get(origin);
    if (group === undefined) {
      // The origin's first URL asks the client (which fetches its robots.txt); the next ones wait with it.
      const first: Waiting = { slots: [slot], texts: [text], promise: null! };
      waiting.set(origin, first);
      first.promise = client.explain(text, ask).then(
        (v) => answer(first, origin, v),
        (error: unknown) => answer(first, origin, null, error),
      );
      slot.promise = first.promise;
    } else {
      group.slots.push(slot);
      group.texts.push(text);
      slot.promise = group.promise;
    }
    if (!ordered) {
      inFlight.add(slot);
      if (buffer.length >= CHUNK) await flush(false);
      return;
    }
    slots.push(slot);
    if (slots[head]!.done) await flush(false);
  }

  const onProgress = options.onProgress;
  const ticker =
    onProgress !== undefined && every !== undefined ? setInterval(() => onProgress(progress()), every) : undefined;
  // A display must never keep the process alive.
  ticker?.unref?.();
  const input = options.lines[Symbol.asyncIterator]();
  let inputDone = false;
  try {
    if (signal?.aborted) throw new Interrupted();
    // The lines of the item read last, when it was several lines at once, and the next of them to take.
    let batch: readonly string[] | null = null;
    let at = 0;
    // The next read, once asked for (in completion order it may outlive a wait for records).
    let nextInput: Promise<IteratorResult<string | readonly string[]>> | null = null;
    let linesAtTurn = 0;
    for (;;) {
      if (batch !== null && at < batch.length) {
        // Lines already read are taken at once while they can be answered; a look at the signal before each.
        if (stopRequested) throw new Interrupted();
        at = take(batch, at);
        // (`take` sets it: read through a cast, as TypeScript keeps the null it was declared with.)
        const line = held as { index: number; text: string } | null;
        if (line !== null) {
          held = null;
          await enqueue(line.index, line.text);
        } else if (mustFlush) {
          mustFlush = false;
          await flush(false);
        } else if (at < batch.length && !stopRequested) await advance();
        continue;
      }
      if (unwritten() > 0 && nextInput === null && lines - linesAtTurn >= TURN_LINES) {
        // Lines answered from memory take no I/O, nor does an input already in memory: while URLs wait for robots.txt
        // fetches, let the event loop turn now and then, or the fetches' answers would wait for the end of the input.
        // (Not otherwise: a turn costs more than it seems when the heap is small, GC work being done in it.)
        linesAtTurn = lines;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      nextInput ??= input.next();
      if (buffer !== '' || unwritten() > 0) {
        // A record waits at most PATIENCE_MS for the records after it to fill a chunk: the input may come slowly (a
        // pipe), and records may complete slowly (sites being fetched) while it comes fast.
        const left = buffer === '' ? 0 : PATIENCE_MS - (performance.now() - bufferSince);
        if (buffer !== '' && left <= 0) {
          await flush(true);
          continue;
        }
        const waited = await until(Promise.race([nextInput, buffer === '' ? settled() : patience(left)]));
        clearTimeout(patienceTimer);
        if (waited === LATE) await flush(true);
        else if (waited === SETTLED && ordered) await flush(false);
        if (waited === LATE || waited === SETTLED) continue;
      }
      const next = await until(nextInput);
      nextInput = null;
      if (next.done === true) {
        inputDone = true;
        break;
      }
      // Several lines at once, or one.
      batch = typeof next.value === 'string' ? [next.value] : next.value;
      at = 0;
    }
    while (unwritten() > 0) await advance();
    await flush(true);
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    // Write what is complete (in input order: up to the first record still waiting).
    interrupted = true;
    await flush(true);
  } finally {
    clearInterval(ticker);
    // As `for await` would: release the input when leaving early (not awaited: a blocked read may never settle).
    if (!inputDone) input.return?.()?.catch(ignore);
  }
  let resumeFrom = lastIndex > 0 ? lastIndex + 1 : fromLine;
  if (!ordered) {
    // The first line whose record was not written; else the line after the last one read.
    resumeFrom = Math.max(lines + 1, fromLine);
    for (const slot of inFlight) resumeFrom = Math.min(resumeFrom, slot.index);
  }
  const final: BatchSummary = { ...progress(), interrupted, lastIndex, resumeFrom };
  options.onProgress?.(final);
  return final;

  /** Gives `slot` the record of its verdict, or of why the client refused its line, and settles it. */
  function complete(slot: Slot, text: string, origin: string, verdict: UrlVerdict | null, error?: unknown): void {
    if (verdict !== null) slot.text = record(slot.index, verdict);
    else {
      // The engine rejects only URLs without a robots.txt; anything else (a bug) is reported on the line too, rather
      // than left unhandled with the slot never done.
      invalid++;
      const kind = error instanceof RobotsUrlError ? 'invalid-url' : 'internal';
      slot.text = errorRecord(slot.index, text, kind, error instanceof Error ? error.message : String(error));
    }
    settle(slot, origin);
  }

  /**
   * The first URL of `group` answered: the others are answered from memory now (`peek`, no promise each), or, when
   * the client cannot (the fetch failed to load, the entry was already evicted), asked for one by one.
   */
  function answer(group: Waiting, origin: string, verdict: UrlVerdict | null, error?: unknown): void {
    if (waiting.get(origin) === group) waiting.delete(origin);
    complete(group.slots[0]!, group.texts[0]!, origin, verdict, error);
    for (let i = 1; i < group.slots.length; i++) {
      const slot = group.slots[i]!;
      const text = group.texts[i]!;
      let known: UrlVerdict | null = null;
      try {
        known = client.peek(text, ask);
      } catch (error) {
        complete(slot, text, origin, null, error);
        continue;
      }
      if (known !== null) complete(slot, text, origin, known);
      else {
        slot.promise = client.explain(text, ask).then(
          (v) => complete(slot, text, origin, v),
          (error: unknown) => complete(slot, text, origin, null, error),
        );
      }
    }
  }

  function settle(slot: Slot, origin: string): void {
    slot.done = true;
    const left = perOriginCount.get(origin)! - 1;
    if (left === 0) perOriginCount.delete(origin);
    else perOriginCount.set(origin, left);
    // In completion order the record is written now, unless the run is stopping (an aborted fetch's verdict is not
    // the site's): it then stays in flight, a line to resume from.
    if (!ordered) {
      if (stopRequested) return;
      inFlight.delete(slot);
      emit(slot.index, slot.text);
    }
    const wake = onSettle;
    onSettle = null;
    wake?.();
  }
}

/**
 * `fetch` whose requests, bodies included, are all aborted when `signal` is. Each request gets its own controller,
 * tied to the request's own signal and kept in a set until its body ends; one listener on `signal` aborts them all.
 * (`AbortSignal.any([init.signal, signal])` per request would do the same, but in Node 20 a long-lived source signal
 * keeps every signal derived from it: about 1 KB per request for the whole run.)
 */
export function abortableFetch(base: FetchLike, signal: AbortSignal): FetchLike;
export function abortableFetch(base: AnyFetchLike, signal: AbortSignal): AnyFetchLike;
export function abortableFetch(base: AnyFetchLike, signal: AbortSignal): AnyFetchLike {
  const active = new Set<AbortController>();
  signal.addEventListener('abort', () => {
    for (const controller of active) controller.abort(signal.reason);
    active.clear();
  });
  return async (url, init) => {
    const controller = new AbortController();
    const release = () => {
      active.delete(controller);
      init.signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      release();
      controller.abort(init.signal.reason);
    };
    if (signal.aborted || init.signal.aborted) controller.abort(signal.aborted ? signal.reason : init.signal.reason);
    else {
      active.add(controller);
      init.signal.addEventListener('abort', onAbort, { once: true });
    }
    let response: Awaited<ReturnType<AnyFetchLike>>;
    try {
      response = await base(url, { ...init, signal: controller.signal });
    } catch (error) {
      release();
      throw error;
    }
    const body = response.body;
    if (body === null) {
      release();
      return response;
    }
    // The body passes through as it is read; the request is released when it ends, fails or is cancelled.
    // An iterable body (robotsRequest's) stays one: no web stream is made of it.
    const tracked = body instanceof ReadableStream ? trackedStream(body, release) : trackedIterable(body, release);
    return {
      status: response.status,
      headers: response.headers,
      body: tracked,
      ...(response.type === undefined ? {} : { type: response.type }),
      ...(response.url === undefined ? {} : { url: response.url }),
      ...(response.redirected === undefined ? {} : { redirected: response.redirected }),
    };
  };
}

/** `body` as it is read, `release` called when it ends, fails or is cancelled. */
function trackedStream(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(out) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          out.close();
        } else out.enqueue(value);
      } catch (error) {
        release();
        out.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

/** {@link trackedStream} for an async-iterable body. */
function trackedIterable(body: AsyncIterable<Uint8Array>, release: () => void): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => {
      const inner = body[Symbol.asyncIterator]();
      return {
        async next() {
          try {
            const step = await inner.next();
            if (step.done) release();
            return step;
          } catch (error) {
            release();
            throw error;
          }
        },
        async return(value?: unknown) {
          release();
          return (await inner.return?.(value)) ?? { done: true, value: undefined };
        },
      };
    },
  };
}

/** Longest line kept; a longer one is cut there (and becomes an error record: no URL is that long). */
export const MAX_LINE_CHARS = 1 << 20;

/**
 * Splits a byte stream into lines (`\n`, `\r\n`), decoding UTF-8, and yields every line a chunk completes at once
 * (a batch per chunk, none for a chunk that completes no line); `onBytes` counts what was read. Memory stays bounded
 * by the chunk and {@link MAX_LINE_CHARS}: the rest of a longer line is dropped.
 */
export async function* lineBatchesOf(
  chunks: AsyncIterable<Uint8Array>,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<string[]> {
  const decoder = new TextDecoder();
  let rest = '';
  let cut = false;
  const line = (text: string) => (text.endsWith('\r') ? text.slice(0, -1) : text);
  for await (const chunk of chunks) {
    onBytes?.(chunk.length);
    const text = decoder.decode(chunk, { stream: true });
    const batch: string[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const piece = text.slice(start, nl);
      start = nl + 1;
      if (cut) {
        cut = false;
        continue;
      }
      batch.push(line(rest === '' ? piece : rest + piece));
      rest = '';
    }
    if (!cut) rest += text.slice(start);
    if (rest.length > MAX_LINE_CHARS) {
      batch.push(rest.slice(0, MAX_LINE_CHARS));
      rest = '';
      cut = true;
    }
    if (batch.length > 0) yield batch;
  }
  rest += decoder.decode();
  if (rest !== '' && !cut) yield [line(rest)];
}

/** {@link lineBatchesOf}, a line at a time. */
export async function* linesOf(
  chunks: AsyncIterable<Uint8Array>,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<string> {
  for await (const batch of lineBatchesOf(chunks, onBytes)) yield* batch;
}

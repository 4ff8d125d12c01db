/**
 * The parts `runBatch` is composed of, each alone (no network): the input cursor, the output buffer and its
 * backpressure, the stop, the window in both orders, the per-origin share and questions, and the records. The run as a
 * whole is held by `batch.test.ts`, `batch-order.test.ts` and `batch-records.test.ts` against real servers.
 */
import { createRobotsClient, describeFetchOutcome, type FetchLike, type UrlVerdict } from 'robotskit/fetch';
import { describe, expect, it, vi } from 'vitest';
import { InputLines } from '../src/batch/input.js';
import { Interrupted, Interruption } from '../src/batch/interruption.js';
import { OriginQuestions, OriginShare } from '../src/batch/origins.js';
import { CHUNK, LATE, OutputBuffer } from '../src/batch/output.js';
import { progressLine, summaryLine } from '../src/batch/progress.js';
import { invalidReason, RecordMaker } from '../src/batch/records.js';
import { CompletionOrderWindow, InputOrderWindow, SETTLED, type Slot } from '../src/batch/window.js';

/** Items from an array, as a source of lines (a line, or several at once). */
async function* itemsOf(items: readonly (string | readonly string[])[]) {
  yield* items;
}

/** Every line `InputLines` gives, with its number, until the input ends. */
async function drain(input: InputLines): Promise<[number, string][]> {
  const taken: [number, string][] = [];
  while (input.load(await input.read())) {
    for (let text = input.nextLine(); text !== null; text = input.nextLine()) taken.push([input.lines, text]);
  }
  return taken;
}

/** An output buffer writing into `chunks`, with a stop that is never asked for unless `signal` is given. */
function buffer(signal?: AbortSignal, write?: (chunk: string) => unknown) {
  const chunks: string[] = [];
  const stop = new Interruption(signal);
  const output = new OutputBuffer(
    write ??
      ((chunk) => {
        chunks.push(chunk);
      }),
    stop,
  );
  return { chunks, stop, output };
}

const slot = (index: number): Slot => ({ index, done: false, text: '', promise: null });

describe('InputLines', () => {
  it('gives every line read once, numbered, trimmed, and empty for lines that get no record', async () => {
    const input = new InputLines(itemsOf(['  a  ', ['', '# note', 'b'], [], 'c']), 1);
    expect(await drain(input)).toEqual([
      [1, 'a'],
      [2, ''],
      [3, ''],
      [4, 'b'],
      [5, 'c'],
    ]);
    expect(input.lines).toBe(5);
  });

  it('counts the lines before fromLine without giving them', async () => {
    const input = new InputLines(itemsOf([['x', 'y', 'z', 'w']]), 3);
    expect(await drain(input)).toEqual([
      [1, ''],
      [2, ''],
      [3, 'z'],
      [4, 'w'],
    ]);
  });

  /** A source of `count` lines, counting reads and releases. */
  function counting(count: number) {
    const state = { pulled: 0, returned: 0 };
    const source: AsyncIterable<string> = {
      [Symbol.asyncIterator]: () => ({
        next: async () =>
          state.pulled < count ? { done: false, value: `line ${++state.pulled}` } : { done: true, value: undefined },
        return: async () => {
          state.returned++;
          return { done: true, value: undefined };
        },
      }),
    };
    return { state, source };
  }

  it('asks the source once per read, however often the read is looked at, and releases a source left early', async () => {
    const { state, source } = counting(5);
    const input = new InputLines(source, 1);
    expect(input.reading).toBe(false);
    const read = input.read();
    expect(input.read()).toBe(read);
    expect(input.reading).toBe(true);
    expect(input.load(await read)).toBe(true);
    expect(input.reading).toBe(false);
    expect(input.buffered).toBe(true);
    expect(input.nextLine()).toBe('line 1');
    expect(input.buffered).toBe(false);
    expect(state.pulled).toBe(1);
    input.release();
    expect(state.returned).toBe(1);
    // A source read to its end is not released again.
    const whole = counting(2);
    const ended = new InputLines(whole.source, 1);
    expect(await drain(ended)).toEqual([
      [1, 'line 1'],
      [2, 'line 2'],
    ]);
    ended.release();
    expect(whole.state.returned).toBe(0);
  });
});

describe('OutputBuffer', () => {
  it('writes a chunk once 64 KiB wait, the rest when forced, nothing when empty', async () => {
    const { chunks, output } = buffer();
    const record = `${'x'.repeat(1023)}\n`;
    for (let i = 1; i < CHUNK / record.length; i++) output.emit(i, record);
    await output.flush(false);
    expect(chunks).toEqual([]);
    expect(output.due).toBe(false);
    output.emit(64, record);
    expect(output.due).toBe(true);
    await output.flush(false);
    expect(chunks.map((c) => c.length)).toEqual([CHUNK]);
    expect(output.empty).toBe(true);
    await output.flush(true);
    expect(chunks).toHaveLength(1);
    output.emit(65, 'last\n');
    await output.flush(true);
    expect(chunks.at(-1)).toBe('last\n');
    expect(output).toMatchObject({ written: 65, lastIndex: 65 });
  });

  it('waits for the writer (backpressure), but not once it hands over after a stop', async () => {
    let drained = () => {};
    const { output } = buffer(undefined, () => new Promise<void>((resolve) => (drained = resolve)));
    output.emit(1, 'a\n');
    let flushed = false;
    const flushing = output.flush(true).then(() => {
      flushed = true;
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(flushed).toBe(false);
    drained();
    await flushing;
    expect(flushed).toBe(true);
    output.handOver();
    output.emit(2, 'b\n');
    await output.flush(true);
  });

  it('ends a wait for the writer when the run is stopped', async () => {
    const stop = new AbortController();
    const { output } = buffer(stop.signal, () => new Promise(() => {}));
    output.emit(1, 'a\n');
    const flushing = output.flush(true);
    stop.abort();
    await expect(flushing).rejects.toBeInstanceOf(Interrupted);
  });

  it('reports every 1,024 records, and tells how long a record may still wait', async () => {
    const seen: number[] = [];
    const output = new OutputBuffer(
      () => {},
      new Interruption(),
      () => seen.push(output.written),
    );
    for (let i = 1; i <= 2100; i++) output.emit(i, '\n');
    expect(seen).toEqual([1024, 2048]);
    expect(output.patienceLeft()).toBeLessThanOrEqual(5);
    expect(await output.patience(1)).toBe(LATE);
  });
});

describe('Interruption', () => {
  it('passes a wait through, ends it when the signal is aborted, and refuses new ones after', async () => {
    expect(await new Interruption().until(Promise.resolve(1))).toBe(1);
    const controller = new AbortController();
    const stop = new Interruption(controller.signal);
    expect(await stop.until(Promise.resolve(2))).toBe(2);
    const waiting = stop.until(new Promise(() => {}));
    expect(stop.requested).toBe(false);
    controller.abort();
    expect(stop.requested).toBe(true);
    await expect(waiting).rejects.toBeInstanceOf(Interrupted);
    await expect(stop.until(Promise.resolve(3))).rejects.toBeInstanceOf(Interrupted);
    const already = new Interruption(AbortSignal.abort());
    expect(already.requested).toBe(true);
  });
});

describe('InputOrderWindow', () => {
  it('writes records in input order: a complete record waits behind an earlier one in flight', async () => {
    const { chunks, output, stop } = buffer();
    const window = new InputOrderWindow(output, stop);
    expect(window.ready(1, '1\n')).toBe(false);
    const waiting = slot(2);
    let answer = () => {};
    waiting.promise = new Promise<void>((resolve) => (answer = resolve));
    await window.add(waiting);
    // Behind the slot in flight: held, and the window counts both.
    expect(window.ready(3, '3\n')).toBe(false);
    expect(window.size).toBe(2);
    const advanced = window.advance();
    // About to wait, it hands over what is complete.
    await vi.waitFor(() => expect(chunks).toEqual(['1\n']));
    const settled = window.settled();
    waiting.text = '2\n';
    waiting.done = true;
    window.settle(waiting);
    expect(await settled).toBe(SETTLED);
    answer();
    await advanced;
    await window.flush(true);
    expect(chunks.join('')).toBe('1\n2\n3\n');
    expect(window.size).toBe(0);
    expect(window.resumeFrom(3, 1)).toBe(4);
  });

  it('names the URL the output waits for: the first one not complete', async () => {
    const { output, stop } = buffer();
    const window = new InputOrderWindow(output, stop);
    expect(window.oldestWaiting()).toBeNull();
    const waiting: Slot = { ...slot(2), origin: 'http://slow.invalid', since: 0 };
    waiting.promise = new Promise<void>(() => {});
    await window.add(waiting);
    window.ready(3, '3\n');
    expect(window.oldestWaiting()).toBe(waiting);
    waiting.done = true;
    expect(window.oldestWaiting()).toBeNull();
  });

  it('resumes from the first line asked for when nothing was written', () => {
    const { output, stop } = buffer();
    const window = new InputOrderWindow(output, stop);
    expect(window.resumeFrom(10, 7)).toBe(7);
  });
});

describe('CompletionOrderWindow', () => {
  it('writes each record as it completes, and keeps those completing after a stop as lines to resume from', async () => {
    const controller = new AbortController();
    const { chunks, output, stop } = buffer(controller.signal);
    const window = new CompletionOrderWindow(output, stop);
    const [a, b, c] = [slot(1), slot(2), slot(4)];
    for (const s of [a, b, c]) await window.add(s);
    expect(window.size).toBe(3);
    b.text = '2\n';
    b.done = true;
    window.settle(b);
    expect(window.size).toBe(2);
    expect(window.ready(5, '5\n')).toBe(false);
    await window.flush(true);
    expect(chunks).toEqual(['2\n5\n']);
    controller.abort();
    a.text = '1\n';
    a.done = true;
    window.settle(a);
    expect(window.size).toBe(2);
    expect(window.resumeFrom(5, 1)).toBe(1);
    // With nothing in flight: the line after the last one read.
    const empty = new CompletionOrderWindow(output, new Interruption());
    expect(empty.resumeFrom(5, 1)).toBe(6);
    expect(empty.resumeFrom(5, 9)).toBe(9);
  });

  it('waits for any record in flight to make room, after writing what waits', async () => {
    const { chunks, output, stop } = buffer();
    const window = new CompletionOrderWindow(output, stop);
    const s = slot(1);
    await window.add(s);
    output.emit(0, 'before\n');
    await window.advance();
    expect(chunks).toEqual(['before\n']);
    const advanced = window.advance();
    s.text = '1\n';
    s.done = true;
    window.settle(s);
    await advanced;
    await window.flush(true);
    expect(chunks).toEqual(['before\n', '1\n']);
  });
});

describe('OriginShare', () => {
  it('counts the URLs of each origin in flight against the limit', () => {
    const share = new OriginShare(2);
    expect(share.full('a')).toBe(false);
    share.take('a');
    share.take('a');
    expect(share.full('a')).toBe(true);
    expect(share.full('b')).toBe(false);
    share.release('a');
    expect(share.full('a')).toBe(false);
    share.release('a');
    share.take('a');
    share.take('a');
    expect(share.full('a')).toBe(true);
  });
});

describe('OriginQuestions', () => {
  it('asks the client once per origin, answers the URLs that waited from memory, and asks again when it cannot', async () => {
    const asked: string[] = [];
    const peeked: string[] = [];
    let answer: (v: UrlVerdict) => void = () => {};
    const verdict = (url: string) => ({ url }) as unknown as UrlVerdict;
    const client = {
      explain: (url: string | URL) => {
        asked.push(String(url));
        if (asked.length === 1) return new Promise<UrlVerdict>((resolve) => (answer = resolve));
        return Promise.resolve(verdict(String(url)));
      },
      peek: (url: string | URL) => {
        peeked.push(String(url));
        if (String(url).endsWith('/evicted')) return null;
        if (String(url).endsWith('/bad')) throw new TypeError('bad line');
        return verdict(String(url));
      },
    };
    const completed: [number, string | null, string | undefined][] = [];
    const questions = new OriginQuestions(client, 'Googlebot', (s, _text, origin, v, error) => {
      expect(origin).toBe('http://a.invalid');
      completed.push([s.index, v?.url ?? null, (error as Error | undefined)?.message]);
    });
    const slots = [1, 2, 3, 4].map(slot);
    const urls = ['/first', '/known', '/evicted', '/bad'].map((p) => `http://a.invalid${p}`);
    for (const [i, s] of slots.entries()) questions.ask(s, urls[i]!, 'http://a.invalid');
    expect(asked).toEqual([urls[0]]);
    expect(new Set(slots.map((s) => s.promise)).size).toBe(1);
    answer(verdict(urls[0]!));
    await slots[0]!.promise;
    expect(peeked).toEqual(urls.slice(1));
    await slots[2]!.promise;
    expect(asked).toEqual([urls[0], urls[2]]);
    expect(completed.sort((x, y) => x[0] - y[0])).toEqual([
      [1, urls[0], undefined],
      [2, urls[1], undefined],
      [3, urls[2], undefined],
      [4, null, 'bad line'],
    ]);
  });
});

describe('RecordMaker', () => {
  /** Verdicts of a real client over an in-memory fetch: 200 with rules, 503, a fetch that fails. */
  async function verdicts() {
    const fetch: FetchLike = async (url) => {
      const port = new URL(url).port;
      if (port === '3') throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      return {
        status: port === '2' ? 503 : 200,
        headers: new Headers({ 'content-type': 'text/plain' }),
        body: new Response('User-agent: *\nDisallow: /a\nAllow: /a/b\n').body,
      };
    };
    const client = createRobotsClient({ userAgent: 'test', crawler: 'Googlebot', fetch });
    const urls = ['http://h.invalid:1/a', 'http://h.invalid:1/a/b', 'http://h.invalid:1/z', 'http://h.invalid:2/x'];
    urls.push('http://h.invalid:3/x', 'http://h.invalid:3/y', 'http://h.invalid:1/q?"\\');
    return Promise.all(urls.map((u) => client.explain(u)));
  }

  it('makes the plain serialisation of each verdict, and counts verdicts and unreachable sites', async () => {
    const records = new RecordMaker(10_000);
    for (const [i, v] of (await verdicts()).entries()) {
      const made = records.record(i + 1, v);
      const latest = v.latest;
      const plain = {
        index: i + 1,
        url: v.url,
        allowed: v.allowed,
        line: v.line,
        rule: v.rule === null ? null : { kind: v.rule.kind, pattern: v.rule.pattern },
        robotsUrl: v.robotsUrl,
        fetch: {
          status: latest.status,
          outcome: latest.outcome,
          // In the engine's words, never the runtime's text.
          error:
            latest.error === null
              ? null
              : { kind: latest.error.kind, message: describeFetchOutcome(latest, { timeoutMs: 10_000 }).summary },
        },
        policy: { mode: v.policy.mode, reason: v.policy.reason },
      };
      expect(made).toBe(`${JSON.stringify(plain)}\n`);
      expect(made).not.toContain('fetch failed');
      if (latest.error !== null) expect(made).toContain('"message":"connection refused"');
      // Made a second time from what it keeps, the record is the same.
      expect(new RecordMaker(10_000).record(i + 1, v)).toBe(made);
      expect(records.record(i + 1, v)).toBe(made);
    }
    // Each verdict recorded twice: 3 allowed (/a/b, /z, /q) and 4 blocked; the unreachable origin counted once.
    expect(records).toMatchObject({ allowed: 6, blocked: 8, invalid: 0, unreachable: 1 });
  });

  it('makes error records for lines that are not URLs with a robots.txt, in the engine words', () => {
    const records = new RecordMaker();
    const reason = invalidReason('mailto:a@b.c');
    expect(reason).toContain('unsupported scheme "mailto:"');
    expect(JSON.parse(records.error(4, 'mailto:a@b.c', 'invalid-url', reason))).toEqual({
      index: 4,
      url: 'mailto:a@b.c',
      error: { kind: 'invalid-url', message: reason },
    });
    expect(records.invalid).toBe(1);
  });
});

describe('the progress line and the summary', () => {
  const progress = {
    lines: 1000,
    written: 1,
    allowed: 488,
    blocked: 511,
    invalid: 1,
    pending: 999,
    fetches: 2,
    activeFetches: 1,
    queuedFetches: 0,
    unreachable: 0,
    waitingFor: { origin: 'http://slow.invalid', line: 2, ms: 12_500 },
  };

  it('counts URLs checked as the allowed, blocked and invalid ones, apart from the records written', () => {
    expect(progressLine(progress, 0, null, 2000)).toBe(
      '1,000 URLs checked (488 allowed, 511 blocked, 1 invalid), 1 written, 500/s; waiting 12 s for http://slow.invalid/robots.txt (line 2); 2 robots.txt fetched, 1 fetching',
    );
    const one = { ...progress, allowed: 1, blocked: 0, invalid: 0, waitingFor: null };
    expect(progressLine(one, 50, 100, 1000)).toBe(
      '[############------------]  50% 1 URL checked (1 allowed, 0 blocked, 0 invalid), 1 written, 1/s; 2 robots.txt fetched, 1 fetching',
    );
  });

  it('sums a run up in one line', () => {
    expect(summaryLine({ ...progress, written: 1000, waitingFor: null })).toBe(
      'robotskit: 1000 records: 488 allowed, 511 blocked, 1 invalid; 2 robots.txt fetched, 0 unreachable\n',
    );
  });
});

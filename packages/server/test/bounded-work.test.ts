/**
 * Bounded work (issue 37): the line diff stops at its bound and says so with a linear summary; the analysis threads
 * give the same answers as the calling thread, the fetch workers' jobs first; the heavy-work budget queues and then refuses with a 429 and
 * Retry-After; Node's own refusals and a `__proto__` key come in the API's error shape; slow-body clients get a 408.
 */

import type { AddressInfo } from 'node:net';
import net from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineDiff, summaryDiff } from '../src/analysis/diff.js';
import { AnalysisMemoryError, AnalysisThreads, AnalysisThreadsClosedError } from '../src/analysis/threads.js';
import { buildApp } from '../src/http/app.js';
import { ApiError, handleError } from '../src/http/errors.js';
import { WorkBudget } from '../src/http/work-limits.js';
import { type Database, openDatabase } from '../src/storage/connect.js';

const file = (tag: string, n: number) =>
  `User-agent: *\n${Array.from({ length: n }, (_, i) => `Disallow: /${tag}${i}/\n`).join('')}`;

describe('the bounded line diff', () => {
  it('gives hunks within the bound, and a summary said as incomplete past it', () => {
    const small = lineDiff('a\nb\nc\n', 'a\nx\nc\n');
    expect(small).toMatchObject({ added: 1, removed: 1, complete: true });
    expect(small.hunks).toHaveLength(1);
    // 3,000 lines each, none shared but the first: 6,000 changed lines, past the 2,000 bound.
    const big = lineDiff(file('a', 3000), file('b', 3000));
    expect(big).toEqual({ added: 3000, removed: 3000, hunks: [], complete: false });
  });

  it('counts a moved line as neither added nor removed in the summary', () => {
    expect(summaryDiff('a\nb\nc\n', 'c\na\nb\nd\n')).toEqual({ added: 1, removed: 0, hunks: [], complete: false });
  });
});

describe('the analysis threads', () => {
  const threads = new AnalysisThreads(1);
  afterAll(() => threads.close());

  it('diff as the calling thread does, within and past the bound', async () => {
    const [a, b] = [file('a', 1500), file('a', 1400) + file('c', 50)];
    expect(await threads.diff(a, b)).toEqual(lineDiff(a, b));
    const [x, y] = [file('x', 3000), file('y', 3000)];
    expect(await threads.diff(x, y)).toEqual({ added: 3000, removed: 3000, hunks: [], complete: false });
  });

  it('compare as the engine does', async () => {
    const result = await threads.compare('User-agent: *\nDisallow: /a\n', 'User-agent: *\nDisallow: /b\n', {
      crawlers: ['*'],
    });
    expect(result.equivalent).toBe(false);
    expect(result.crawlers[0]?.regions.map((r) => r.change).sort()).toEqual(['allowed', 'blocked']);
  });

  it("run the fetch workers' jobs ahead of those waiting, and a headline's access as the engine answers it", async () => {
    const order: string[] = [];
    const note = (name: string) => () => order.push(name);
    // The one thread busy with a diff; two API jobs wait; then a worker's job comes, and goes first.
    const busy = threads.diff(file('p', 2000), file('q', 2000), 3, { maxEditLength: 1e9 }).then(note('busy'));
    const api = [
      threads.diff(file('a', 3000), file('b', 3000)).then(note('api 1')),
      threads.diff(file('c', 3000), file('d', 3000)).then(note('api 2')),
    ];
    const worker = threads.forFetching().diff(file('e', 3000), file('f', 3000)).then(note('worker'));
    await Promise.all([busy, ...api, worker]);
    expect(order).toEqual(['busy', 'worker', 'api 1', 'api 2']);
    const access = await threads.access(
      new TextEncoder().encode('User-agent: *\nDisallow: /\n'),
      null,
      ['Googlebot'],
      {},
    );
    expect(access).toEqual({ html: false, noRules: false, access: [{ crawler: 'Googlebot', access: 'nothing' }] });
  });

  it('end work in progress when closed, with an error of their own', async () => {
    const other = new AnalysisThreads(1);
    const pending = other.diff(file('x', 3000), file('y', 3000), 3, { maxEditLength: 1e9, timeoutMs: 600_000 });
    const outcome = pending.catch((error: unknown) => error);
    await other.close();
    expect(await outcome).toBeInstanceOf(AnalysisThreadsClosedError);
  });

  it('fail a job past their memory bound alone, with an error saying so, and run the next in a new thread', async () => {
    const small = new AnalysisThreads(1, { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 16 });
    try {
      // ~40 MB of URLs: more than the thread's 16 MB heap can hold.
      const urls = Array.from({ length: 400_000 }, (_, i) => `https://site.invalid/${'p'.repeat(80)}/${i}`);
      const body = new TextEncoder().encode('User-agent: *\nDisallow: /p\n');
      const outcome = await small.blocked(body, urls, ['Googlebot']).catch((error: unknown) => error);
      expect(outcome).toBeInstanceOf(AnalysisMemoryError);
      expect((outcome as Error).message).toContain('needed more than the 16 MB of memory');
      expect(await small.blocked(body, urls.slice(0, 10), ['Googlebot'])).toEqual([10]);
    } finally {
      await small.close();
    }
  });

  it("answer a job past their memory bound with a 413 in the API's error shape, saying so", async () => {
    const app = Fastify();
    app.setErrorHandler(handleError);
    app.get('/bounded', async () => {
      throw new AnalysisMemoryError('the compare job', { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 128 });
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/bounded' });
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual({
        error: {
          code: 'payload-too-large',
          message:
            'the compare job needed more than the 128 MB of memory its thread may use and was stopped; give a smaller input',
        },
      });
    } finally {
      await app.close();
    }
  });
});

describe('the heavy-work budget', () => {
  it('runs a few, queues a few, and refuses the rest with a 429 and Retry-After', async () => {
    const budget = new WorkBudget({ running: 1, waiting: 1, retryAfterSeconds: 3 });
    let release!: () => void;
    const first = budget.run('first', () => new Promise<string>((r) => (release = () => r('first'))));
    const second = budget.run('second', async () => 'second');
    const third = budget.run('third', async () => 'third');
    const refused = await third.catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ statusCode: 429, code: 'service-busy', retryAfterSeconds: 3 });
    release();
    expect(await first).toBe('first');
    expect(await second).toBe('second');
    expect(budget.active).toBe(0);
  });
});

describe("Node's refusals in the API's error shape", () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let port: number;
  beforeAll(async () => {
    database = await openDatabase({ dialect: 'sqlite', file: ':memory:' });
    app = await buildApp({ database, webRoot: false, requestTimeoutMs: 1500 });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  /** Sends `text` (then a byte every 200 ms while `trickle`), and resolves with all the server sent before closing. */
  const raw = (text: string, trickle = false) =>
    new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let out = '';
      socket.on('data', (d) => (out += d));
      socket.on('error', () => {});
      const timer = trickle ? setInterval(() => socket.writable && socket.write(' '), 200) : undefined;
      socket.on('close', () => {
        clearInterval(timer);
        resolve(out);
      });
      socket.write(text);
    });
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('headers too large: 431', async () => {
    const answer = await raw(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(answer)).toEqual({
      error: { code: 'headers-too-large', message: 'the request headers are too large' },
    });
  });

  it('not HTTP: 400', async () => {
    const answer = await raw('GARBAGE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(answer).error.code).toBe('invalid-request');
  });

  it('a body that never ends: 408, and the connection is closed', async () => {
    const head =
      'POST /api/test HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{';
    const answer = await raw(head, true);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer).error.code).toBe('request-timeout');
  });

  it('a __proto__ key: 400 saying so', async () => {
    const reply = await fetch(`http://127.0.0.1:${port}/api/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"__proto__":{"robots":"x"},"urls":["https://e.test/"]}',
    });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toEqual({
      error: { code: 'invalid-json', message: 'the request body has a "__proto__" key, which the API refuses' },
    });
  });
});

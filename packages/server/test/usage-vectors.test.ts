/**
 * AI usage preferences on the API, driven by the engine's published vector suite (robotskit's vectors/aipref.json):
 * every case through `POST /api/test` (inline text where the bytes are UTF-8, and always as a live `robotsUrl` served
 * with the exact bytes by a real HTTP server on 127.0.0.1) and through `POST /api/decide` (the case's URL on that
 * origin), each answer compared with the case's expectation exactly as the engine's own runner reads it.
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiprefCase, caseBytes, AIPREF_SUITE as SUITE } from '../../robotskit/test/aipref-vectors.js';
import { buildApp } from '../src/http/app.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import type { Database } from '../src/storage/connect.js';
import { openTestDatabase, testDatabases } from './databases.js';
import { type LocalOrigin, startOrigin } from './origins.js';

interface UsageJson {
  readonly crawlable: boolean;
  readonly preferences: Record<string, string>;
  readonly rules: { line: number; lineText: string; pattern: string; expression: string }[];
  readonly contentSignal: unknown;
}

const EXAMPLE_ORIGIN = 'https://example.com';

/** The case's text when its bytes are UTF-8 (what `robots` can carry), else null. */
function utf8Of(c: AiprefCase): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(caseBytes(c));
  } catch {
    return null;
  }
}

/** The answer in the runner contract's terms; no usage is no usage line in the file: nothing stated. */
function asCase(c: AiprefCase, allowed: boolean, usage: UsageJson | null): Record<string, unknown> {
  const u = usage ?? { crawlable: allowed, preferences: {}, rules: [], contentSignal: null };
  const actual: Record<string, unknown> = {
    crawlable: u.crawlable,
    preferences: u.preferences,
    lines: u.rules.map((r) => r.line),
  };
  if ('content_signal' in c.expected) actual.content_signal = u.contentSignal;
  return actual;
}

/** Each deciding rule quotes its line of the file as written. */
function expectQuotedLines(c: AiprefCase, usage: UsageJson | null): void {
  const lines = new TextDecoder().decode(caseBytes(c)).split(/\r\n|\r|\n/);
  for (const rule of usage?.rules ?? []) expect(rule.lineText).toBe(lines[rule.line - 1]);
}

let database: Database;
let fetch: GuardedFetch;
let app: FastifyInstance;
const origins = new Map<string, LocalOrigin>();

beforeAll(async () => {
  database = await openTestDatabase(testDatabases[0]!);
  fetch = createGuardedFetch({ allowPrivate: true });
  app = await buildApp({ database, fetch, webRoot: false });
  // One origin per case (robots.txt is at one path per origin; the decision client caches each origin).
  for (const c of SUITE.cases) {
    const body = caseBytes(c);
    origins.set(c.id, await startOrigin({ status: 200, body }));
  }
});
afterAll(async () => {
  for (const o of origins.values()) await o.close();
  await app?.close();
  await fetch?.close();
  await database?.close();
  await testDatabases[0]!.cleanup();
});

async function tested(source: object, c: AiprefCase): Promise<{ allowed: boolean; usage: UsageJson | null }> {
  const reply = await app.inject({
    method: 'POST',
    url: '/api/test',
    payload: { ...source, urls: [c.url], userAgents: [c.user_agent] },
  });
  expect(reply.statusCode, reply.body.slice(0, 300)).toBe(200);
  const [row] = reply.json<{ results: { allowed: boolean; usage: UsageJson | null }[] }>().results;
  return row!;
}

describe('POST /api/test: AI usage preferences, by the vector suite', () => {
  it.each(SUITE.cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const text = utf8Of(c);
    const sources: object[] = [{ robotsUrl: origins.get(c.id)!.url }];
    if (text !== null) sources.unshift({ robots: text });
    for (const source of sources) {
      const row = await tested(source, c);
      expect(asCase(c, row.allowed, row.usage), JSON.stringify(Object.keys(source))).toEqual(c.expected);
      expect(row.allowed).toBe(c.expected.crawlable);
      expectQuotedLines(c, row.usage);
    }
  });

  it('answers usage: null for a file that states no usage preferences', async () => {
    const reply = await app.inject({
      method: 'POST',
      url: '/api/test',
      payload: { robots: 'User-agent: *\nDisallow: /x\n', urls: ['/a', '/x'], userAgents: ['GPTBot'] },
    });
    expect(reply.json<{ results: { usage: unknown }[] }>().results.map((r) => r.usage)).toEqual([null, null]);
  });

  it('quotes the deciding line and the expression, the draft example’s /test for any crawler', async () => {
    const c = SUITE.cases.find((x) => x.id === 'attach-example-other-test')!;
    const row = await tested({ robots: c.robots_txt }, c);
    expect(row.usage).toEqual({
      crawlable: true,
      preferences: { 'train-ai': 'disallow' },
      rules: [
        {
          line: 4,
          lineText: 'Content-Usage: / train-ai=n',
          pattern: '/',
          expression: 'train-ai=n',
          preferences: { 'train-ai': 'disallow' },
        },
      ],
      contentSignal: null,
    });
  });
});

describe('POST /api/decide: AI usage preferences, by the vector suite', () => {
  it.each(SUITE.cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    expect(c.url.startsWith(`${EXAMPLE_ORIGIN}/`)).toBe(true);
    const url = origins.get(c.id)!.url + c.url.slice(EXAMPLE_ORIGIN.length);
    const reply = await app.inject({
      method: 'POST',
      url: '/api/decide',
      payload: { crawler: c.user_agent, urls: [url] },
    });
    expect(reply.statusCode, reply.body.slice(0, 300)).toBe(200);
    const [row] = reply.json<{ results: { allowed: boolean; usage: UsageJson | null; error?: unknown }[] }>().results;
    expect(row!.error).toBeUndefined();
    expect(asCase(c, row!.allowed, row!.usage)).toEqual(c.expected);
    expectQuotedLines(c, row!.usage);
  });

  it('streams usage in NDJSON lines too, null where the file states none', async () => {
    const c = SUITE.cases.find((x) => x.id === 'attach-example-examplebot-test')!;
    const plain = await startOrigin({ status: 200, body: 'User-agent: *\nDisallow: /x\n' });
    try {
      const reply = await app.inject({
        method: 'POST',
        url: '/api/decide',
        headers: { accept: 'application/x-ndjson' },
        payload: { crawler: 'ExampleBot', urls: [`${origins.get(c.id)!.url}/test`, `${plain.url}/a`] },
      });
      const lines = reply.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { usage: UsageJson | null });
      expect(lines.map((l) => l.usage?.preferences ?? null)).toEqual([{ 'train-ai': 'allow' }, null]);
      expect(lines[0]!.usage!.rules.map((r) => r.lineText)).toEqual(['Content-Usage: / train-ai=y']);
    } finally {
      await plain.close();
    }
  });
});

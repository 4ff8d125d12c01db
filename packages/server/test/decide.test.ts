/**
 * `POST /api/decide` against real origins on 127.0.0.1: verdicts, deciding lines, policies and crawl delays; one
 * robots.txt fetch per origin; NDJSON streaming in input order; the token; the SSRF guard; and the Python example
 * client of the docs, run with python3 against the listening service.
 */

import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import type { Database } from '../src/storage/connect.js';
import { openTestDatabase, testDatabases } from './databases.js';
import { type LocalOrigin, startOrigin } from './origins.js';

const TOKEN = 'decide-secret';
const PYTHON_CLIENT = join(dirname(fileURLToPath(import.meta.url)), '../../../docs/examples/decide.py');
const RULES = 'User-agent: *\nDisallow: /private/\n\nUser-agent: MyBot\nCrawl-delay: 2\nDisallow: /no-mybot/\n';

let database: Database;
let fetch: GuardedFetch;
let app: FastifyInstance;
const origins: LocalOrigin[] = [];

beforeAll(async () => {
  database = await openTestDatabase(testDatabases[0]!);
  fetch = createGuardedFetch({ allowPrivate: true });
  app = await buildApp({ database, fetch, token: TOKEN, webRoot: false });
});
afterAll(async () => {
  await app.close();
  await fetch.close();
  await database.close();
  await testDatabases[0]!.cleanup();
});
afterEach(async () => {
  for (const o of origins.splice(0)) await o.close();
});

async function origin(answer: LocalOrigin['answer']): Promise<LocalOrigin> {
  const o = await startOrigin(answer);
  origins.push(o);
  return o;
}

const auth = { authorization: `Bearer ${TOKEN}` };

describe('POST /api/decide', () => {
  it('keeps a lone `?` of a URL, as Google does: `/search?` is disallowed by `/*?`', async () => {
    const ruled = await origin({ status: 200, body: 'User-agent: *\nDisallow: /*?\n' });
    const urls = [`${ruled.url}/search?`, `${ruled.url}/search?#top`, `${ruled.url}/search`];
    const response = await app.inject({
      method: 'POST',
      url: '/api/decide',
      headers: auth,
      payload: { crawler: 'Googlebot', urls },
    });
    expect(response.statusCode).toBe(200);
    const { results } = response.json();
    expect(results.map((r: { allowed: boolean }) => r.allowed)).toEqual([false, false, true]);
    expect(results[0]).toMatchObject({ line: 2, rule: { kind: 'disallow', pattern: '/*?' } });
  });

  it('decides each URL with its line, policy and crawl delay, fetching each robots.txt once', async () => {
    const ruled = await origin({ status: 200, body: RULES });
    const missing = await origin({ status: 404 });
    const failing = await origin({ status: 503 });
    const urls = [
      `${ruled.url}/private/a`,
      `${ruled.url}/no-mybot/b`,
      `${ruled.url}/open`,
      `${missing.url}/anything`,
      `${failing.url}/anything`,
      'mailto:someone@example.invalid',
    ];
    const response = await app.inject({
      method: 'POST',
      url: '/api/decide',
      headers: auth,
      payload: { crawler: 'MyBot', urls },
    });
    expect(response.statusCode).toBe(200);
    const { crawler, results } = response.json();
    expect(crawler).toBe('MyBot');
    expect(results.map((r: { url: string }) => r.url)).toEqual(urls);
    expect(results[0]).toMatchObject({ allowed: true, line: 0, crawlDelay: 2, policy: { mode: 'rules' } });
    expect(results[1]).toMatchObject({
      allowed: false,
      line: 6,
      rule: { kind: 'disallow', pattern: '/no-mybot/' },
      robotsUrl: `${ruled.url}/robots.txt`,
      fetch: { status: 200, outcome: 'rules', error: null },
    });
    expect(results[2]).toMatchObject({ allowed: true, crawlDelay: 2 });
    expect(results[3]).toMatchObject({ allowed: true, crawlDelay: null, policy: { mode: 'allow-all' } });
    expect(results[4]).toMatchObject({ allowed: false, policy: { mode: 'disallow-all' }, fetch: { status: 503 } });
    expect(results[5]).toMatchObject({ error: { kind: 'invalid-url' } });
    // Asked again: answered from the cache.
    const again = await app.inject({
      method: 'POST',
      url: '/api/decide',
      headers: auth,
      payload: { crawler: 'Googlebot', urls: [`${ruled.url}/private/x`] },
    });
    expect(again.json().results[0]).toMatchObject({ allowed: false, line: 2, crawlDelay: null });
    expect([ruled, missing, failing].map((o) => o.requests.filter((p) => p === '/robots.txt').length)).toEqual([
      1, 1, 1,
    ]);
  });

  it('streams NDJSON in input order when asked', async () => {
    const sites = await Promise.all(Array.from({ length: 10 }, () => origin({ status: 200, body: RULES })));
    const urls = Array.from({ length: 1000 }, (_, i) => `${sites[i % 10]!.url}/${i % 3 === 0 ? 'private/' : ''}${i}`);
    const response = await app.inject({
      method: 'POST',
      url: '/api/decide',
      headers: { ...auth, accept: 'application/x-ndjson' },
      payload: { crawler: '*', urls },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; allowed: boolean });
    expect(lines.map((l) => l.url)).toEqual(urls);
    expect(lines.map((l) => l.allowed)).toEqual(urls.map((_, i) => i % 3 !== 0));
    for (const s of sites) expect(s.requests).toEqual(['/robots.txt']);
  });

  it('needs the token, a known crawler or product token, and at most 10,000 URLs', async () => {
    const payload = { crawler: 'MyBot', urls: ['http://a.invalid/'] };
    const anonymous = await app.inject({ method: 'POST', url: '/api/decide', payload });
    expect(anonymous.statusCode).toBe(401);
    const bad = await app.inject({
      method: 'POST',
      url: '/api/decide',
      headers: auth,
      payload: { ...payload, crawler: '  ' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('blank');
    // Any other name is read by the engine's one naming rule, and the answer says which name it used.
    const odd = await app.inject({
      method: 'POST',
      url: '/api/decide',
      headers: auth,
      payload: { ...payload, crawler: 'Mozilla/5.0 (compatible; Googlebot/2.1)' },
    });
    expect(odd.statusCode).toBe(200);
    expect(odd.json()).toMatchObject({ crawlerUsed: 'Googlebot', rewrite: expect.stringContaining('Googlebot') });
    const many = await app.inject({
      method: 'POST',
      url: '/api/decide',
      headers: auth,
      payload: { crawler: 'MyBot', urls: Array.from({ length: 10_001 }, () => 'http://a.invalid/') },
    });
    expect(many.statusCode).toBe(400);
  });

  it('fetches through the SSRF guard: a private address is blocked, and blocked means disallowed', async () => {
    const site = await origin({ status: 200, body: 'User-agent: *\nAllow: /\n' });
    const strict = await buildApp({ database, webRoot: false });
    try {
      const response = await strict.inject({
        method: 'POST',
        url: '/api/decide',
        payload: { crawler: 'MyBot', urls: [`${site.url}/page`] },
      });
      expect(response.json().results[0]).toMatchObject({
        allowed: false,
        policy: { mode: 'disallow-all' },
        fetch: { outcome: 'disallow-all', error: { kind: 'blocked' } },
      });
      expect(site.requests).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it('is usable from the Python example client of the docs', async () => {
    const site = await origin({ status: 200, body: RULES });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const stdin = [`${site.url}/private/a`, `${site.url}/no-mybot/b`, `${site.url}/open`, 'not a url'].join('\n');
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        'python3',
        [PYTHON_CLIENT, address, 'MyBot'],
        { env: { ...process.env, ROBOTSKIT_TOKEN: TOKEN }, encoding: 'utf8' },
        (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out, stderr: err }),
      );
      child.stdin!.end(stdin);
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.split('\n').slice(0, 3)).toEqual([
      `allowed\t${site.url}/private/a\t0\t2`,
      `blocked\t${site.url}/no-mybot/b\t6\t2`,
      `allowed\t${site.url}/open\t0\t2`,
    ]);
    expect(stdout.split('\n')[3]).toMatch(/^error\tnot a url\tnot an absolute URL/);
  });
});

/**
 * Access as crawlers through the API (`POST /api/properties/:id/access`): a real origin on 127.0.0.1 that answers 403
 * to GPTBot's User-Agent on the page while its robots.txt allows GPTBot, and serves ClaudeBot another robots.txt; the
 * route reports both, in the engine's report (the shape `robotskit audit --as --json` prints). Bad input is a 400 or
 * 404 in words, the token is needed, and without `allowPrivate` the SSRF guard refuses the loopback origin: nothing
 * reaches it, and the answer says why.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AccessReport } from 'robotskit/fetch';
import { afterAll, afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import type { AccessResultJson } from '../src/http/api-types.js';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import type { Database } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { openTestDatabase, testDatabases } from './databases.js';
import { type LocalOrigin, startOrigin } from './origins.js';

const TOKEN = 'access-token-1';
const ROBOTS = 'User-agent: *\nAllow: /\n';
const CLOAKED = 'User-agent: *\nDisallow: /\n';
const PAGE = '<!doctype html><html><head><title>Shop</title></head><body>Hello</body></html>';

/** A type with every array and property readonly, all the way down. */
type Frozen<T> = T extends readonly (infer E)[]
  ? readonly Frozen<E>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

const sqlite = testDatabases.find((t) => t.dialect === 'sqlite')!;

describe('POST /api/properties/:id/access', () => {
  let database: Database;
  let fetch: GuardedFetch;
  let app: FastifyInstance;
  let origin: LocalOrigin;
  let propertyId: number;
  const agents: string[] = [];

  beforeEach(async () => {
    database = await openTestDatabase(sqlite);
    fetch = createGuardedFetch({ allowPrivate: true });
    app = await buildApp({ database, fetch, token: TOKEN });
    agents.length = 0;
    origin = await startOrigin((request) => {
      const ua = request.headers['user-agent'] ?? '';
      agents.push(`${request.url} ${ua}`);
      if (request.url === '/robots.txt') return { status: 200, body: ua.includes('ClaudeBot') ? CLOAKED : ROBOTS };
      if (ua.includes('PerplexityBot'))
        return {
          status: 200,
          headers: { 'content-type': 'text/html' },
          body: '<html><head><title>Just a moment...</title>',
        };
      if (ua.includes('CCBot'))
        return { status: 403, headers: { 'content-type': 'text/html', 'cf-mitigated': 'challenge' }, body: 'no' };
      if (ua.includes('GPTBot')) return { status: 403, headers: { 'content-type': 'text/html' }, body: 'Forbidden' };
      return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: PAGE };
    });
    propertyId = (await createProperty(database.db, database.dialect, parsePropertyInput(`${origin.url}/`), 0)).id;
  });
  afterEach(async () => {
    await app.close();
    await fetch.close();
    await origin.close();
    await database.close();
  });
  afterAll(() => sqlite.cleanup());

  function check(body: unknown, id = propertyId, token: string | null = TOKEN) {
    return app.inject({
      method: 'POST',
      url: `/api/properties/${id}/access`,
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      payload: body as object,
    });
  }

  it('sends the engine’s report, in its shape', () => {
    expectTypeOf<Frozen<AccessResultJson>>().toEqualTypeOf<Frozen<AccessReport>>();
  });

  it('reports a 403 to GPTBot, which robots.txt allows, and another robots.txt served to ClaudeBot', async () => {
    const response = await check({ crawlers: ['GPTBot', 'ClaudeBot', 'Googlebot'], path: '/shop' });
    expect(response.statusCode).toBe(200);
    const report = response.json<AccessResultJson>();
    expect(report.url).toBe(`${origin.url}/shop`);
    expect(report.robotsUrl).toBe(`${origin.url}/robots.txt`);
    expect(report.baseline.robots).toMatchObject({ status: 200, outcome: 'rules', bytes: ROBOTS.length });
    expect(report.baseline.page).toEqual({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      challenge: false,
      error: null,
    });
    const [gpt, claude, google] = report.crawlers;
    expect(gpt).toMatchObject({
      crawler: 'GPTBot',
      documentedUserAgent: true,
      allowed: true,
      line: 2,
      ruleText: 'Allow: /',
      page: { status: 403, challenge: false, error: null },
      robots: { status: 200, sameAsBaseline: true },
      freshness: { state: 'current' },
    });
    expect(gpt!.userAgent).toMatch(/compatible; GPTBot\/[\d.]+; \+https:\/\/openai\.com\/gptbot/);
    expect(gpt!.findings).toEqual([
      { kind: 'edge-refuses', message: 'the page answers HTTP 403 to GPTBot, which robots.txt allows to fetch it' },
    ]);
    expect(claude).toMatchObject({
      crawler: 'ClaudeBot',
      allowed: false,
      ruleText: 'Disallow: /',
      robots: { status: 200, bytes: CLOAKED.length, sameAsBaseline: false },
      page: { status: 200 },
    });
    expect(claude!.findings).toEqual([
      {
        kind: 'robots-differs',
        message: `robots.txt is served differently to ClaudeBot: ${CLOAKED.length} bytes that differ from the ${ROBOTS.length} served to robotskit`,
      },
    ]);
    expect(google).toMatchObject({ crawler: 'Googlebot', allowed: true, findings: [], page: { status: 200 } });
    expect(report.disagreements).toBe(2);
    // Each crawler's real User-Agent reached the origin, on the page and on robots.txt (served, then no-cache).
    expect(agents.filter((a) => a.startsWith('/shop ') && a.includes('GPTBot'))).toHaveLength(1);
    expect(agents.filter((a) => a.startsWith('/robots.txt ') && a.includes('ClaudeBot'))).toHaveLength(2);
  });

  it('reports a challenge page, by its words or by cf-mitigated, over the guarded fetch', async () => {
    const response = await check({ crawlers: ['PerplexityBot', 'CCBot'] });
    expect(response.statusCode).toBe(200);
    const [perplexity, cc] = response.json<AccessResultJson>().crawlers;
    expect(perplexity!.page).toEqual({ status: 200, contentType: 'text/html', challenge: true, error: null });
    expect(perplexity!.findings).toEqual([
      {
        kind: 'challenge',
        message: 'the page is a challenge to PerplexityBot (HTTP 200), which robots.txt allows to fetch it',
      },
    ]);
    expect(cc!.page).toMatchObject({ status: 403, challenge: true });
    expect(cc!.findings.map((f) => f.kind)).toEqual(['edge-refuses', 'challenge']);
  });

  it('checks / by default, and reads crawler names by the engine’s rule', async () => {
    const response = await check({ crawlers: ['gptbot'] });
    expect(response.statusCode).toBe(200);
    const report = response.json<AccessResultJson>();
    expect(report.url).toBe(`${origin.url}/`);
    expect(report.crawlers.map((c) => [c.crawler, c.findings.map((f) => f.kind)])).toEqual([
      ['GPTBot', ['edge-refuses']],
    ]);
  });

  it('refuses bad input with a 400 or 404 in words, and fetches nothing', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ crawlers: [] }, 400, /crawlers must NOT have fewer than 1 item/],
      [{ crawlers: Array.from({ length: 21 }, (_, i) => `Bot${i}`) }, 400, /crawlers must NOT have more than 20 items/],
      [{ crawlers: 'GPTBot' }, 400, /crawlers must be array/],
      [{}, 400, /must have required property 'crawlers'/],
      [{ crawlers: ['   '] }, 400, /a user agent is blank/],
      [{ crawlers: ['GPTBot'], path: 'shop' }, 400, /path must match pattern/],
      [
        { crawlers: ['GPTBot'], path: '//other.invalid/x' },
        400,
        /path '\/\/other.invalid\/x' leaves http:\/\/127\.0\.0\.1:\d+/,
      ],
      [
        { crawlers: ['GPTBot'], path: '/\\other.invalid/x' },
        400,
        /leaves http:\/\/127\.0\.0\.1:\d+: give a path on the property's site/,
      ],
      [{ crawlers: ['GPTBot'], extra: 1 }, 400, /unknown field 'extra'/],
    ];
    for (const [body, status, message] of cases) {
      const response = await check(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json<{ error: { message: string } }>().error.message).toMatch(message);
    }
    const missing = await check({ crawlers: ['GPTBot'] }, propertyId + 1000);
    expect(missing.statusCode).toBe(404);
    expect(missing.json<{ error: { message: string } }>().error.message).toBe(
      `no property with id ${propertyId + 1000}`,
    );
    expect((await check({ crawlers: ['GPTBot'] }, propertyId, null)).statusCode).toBe(401);
    expect(agents).toEqual([]);
  });

  it('goes through the SSRF guard: a loopback origin is refused when private addresses are not allowed', async () => {
    const guarded = createGuardedFetch();
    const strict = await buildApp({ database, fetch: guarded, token: TOKEN });
    try {
      const response = await strict.inject({
        method: 'POST',
        url: `/api/properties/${propertyId}/access`,
        headers: { authorization: `Bearer ${TOKEN}` },
        payload: { crawlers: ['GPTBot'] },
      });
      expect(response.statusCode).toBe(200);
      const report = response.json<AccessResultJson>();
      const gpt = report.crawlers[0]!;
      expect(gpt.robots).toMatchObject({ status: null, outcome: 'disallow-all' });
      expect(gpt.robots.problem).toMatch(/127\.0\.0\.1|refused|private|loopback/i);
      expect(gpt.page).toMatchObject({ status: null, challenge: false });
      expect(gpt.page.error).toMatch(/127\.0\.0\.1|refused|private|loopback/i);
      expect(gpt.findings).toEqual([]);
      expect(agents).toEqual([]);
    } finally {
      await strict.close();
      await guarded.close();
    }
  });

  it('runs a few checks at once: one more is a 429 with Retry-After, and the one running still answers', async () => {
    // An origin that holds every request until it is released.
    const held: (() => void)[] = [];
    const slow = createServer((_request, response) => {
      held.push(() => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(ROBOTS);
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/`;
    const slowId = (await createProperty(database.db, database.dialect, parsePropertyInput(slowUrl), 0)).id;
    const narrow = await buildApp({ database, fetch, token: TOKEN, accessChecks: { running: 1 } });
    const send = () =>
      narrow.inject({
        method: 'POST',
        url: `/api/properties/${slowId}/access`,
        headers: { authorization: `Bearer ${TOKEN}` },
        payload: { crawlers: ['GPTBot'] },
      });
    try {
      const first = send();
      while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const second = await send();
      expect(second.statusCode).toBe(429);
      expect(second.headers['retry-after']).toBe('10');
      expect(second.json().error).toEqual({
        code: 'service-busy',
        message:
          'the service is busy with other access checks (1 at once, 0 waiting); the access check was not started: try again in 10 s',
      });
      // Released as they come: the running check ends with its report.
      const releasing = setInterval(() => {
        for (const release of held.splice(0)) release();
      }, 10);
      try {
        expect((await first).statusCode).toBe(200);
      } finally {
        clearInterval(releasing);
      }
      expect((await send()).statusCode).toBe(200);
    } finally {
      await narrow.close();
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});

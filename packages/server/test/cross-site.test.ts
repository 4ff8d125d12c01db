/**
 * Requests a browser sends from another site's page (no-cors POSTs, beacons) are refused on every state-changing
 * method, whether or not the service has a token; the service's own pages and clients that are not browsers are not
 * concerned. Wrong bearer tokens are throttled per client address (429 with Retry-After), and a right token from
 * another address is not. The same checks run in Chromium against a real service in `packages/web`'s browser tests.
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { WRONG_TOKENS_ALLOWED } from '../src/http/auth.js';
import { crossSiteReason } from '../src/http/cross-site.js';
import { createGuardedFetch } from '../src/net/guarded-fetch.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';

const sqlite = testDatabases[0]!;
const TOKEN = 'a-long-enough-token';

describe('cross-site requests and wrong tokens', () => {
  let database: Database;
  let open: FastifyInstance;
  let locked: FastifyInstance;
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const fetch = createGuardedFetch({ lookup: () => {} });

  beforeAll(async () => {
    database = await openDatabase(sqlite.config());
    open = await buildApp({ database, fetch, webRoot: false });
    locked = await buildApp({ database, fetch, webRoot: false, token: TOKEN, now: clock.now });
  });
  afterAll(async () => {
    await open.close();
    await locked.close();
    await fetch.close();
    await database.close();
    await sqlite.cleanup();
  });

  it('reads headers as browsers send them', () => {
    const post = (headers: Record<string, string>) => crossSiteReason('POST', { host: '127.0.0.1:8080', ...headers });
    expect(post({})).toBeNull();
    expect(post({ 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:8080' })).toBeNull();
    expect(post({ 'sec-fetch-site': 'none' })).toBeNull();
    expect(post({ origin: 'http://127.0.0.1:8080' })).toBeNull();
    expect(post({ 'sec-fetch-site': 'cross-site' })).toContain('cross-site page');
    // Another port of the same machine is the same site, and still another origin.
    expect(post({ 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:9999' })).toContain('same-site page');
    expect(post({ origin: 'http://127.0.0.1:9999' })).toContain('http://127.0.0.1:9999');
    expect(post({ origin: 'null' })).toContain('opaque origin');
    expect(post({ origin: 'not a url' })).toContain('opaque origin');
    expect(crossSiteReason('GET', { host: 'h', 'sec-fetch-site': 'cross-site' })).toBeNull();
    expect(crossSiteReason('HEAD', { host: 'h', origin: 'http://elsewhere.invalid' })).toBeNull();
    // A default port written in one header and left out in the other is the same origin.
    expect(crossSiteReason('POST', { host: 'localhost:80', origin: 'http://localhost' })).toBeNull();
    expect(crossSiteReason('POST', { host: 'localhost', origin: 'https://localhost' })).toBeNull();
  });

  it('refuses every state-changing method from another site, in the error shape, with or without a token', async () => {
    const property = await open.inject({
      method: 'POST',
      url: '/api/properties',
      payload: { property: 'https://site.invalid/' },
    });
    expect(property.statusCode, property.body).toBe(201);
    const id = property.json<{ id: number }>().id;
    const attempts = [
      { method: 'POST', url: `/api/properties/${id}/discover-hosts` },
      {
        method: 'POST',
        url: `/api/properties/${id}/logs`,
        payload: '192.0.2.1 - - [01/Nov/2026:00:00:01 +0000] "GET / HTTP/1.1" 200 1\n',
      },
      { method: 'POST', url: `/api/properties/${id}/access`, payload: { crawlers: ['GPTBot'] } },
      { method: 'POST', url: '/api/files/1/recrawl' },
      { method: 'POST', url: '/api/webhooks/1/test' },
      { method: 'POST', url: '/api/properties', payload: { property: 'https://other.invalid/' } },
      { method: 'PATCH', url: '/api/webhooks/1', payload: { kinds: null } },
      { method: 'DELETE', url: `/api/properties/${id}` },
    ] as const;
    for (const app of [open, locked]) {
      for (const attempt of attempts) {
        for (const headers of [
          { 'sec-fetch-site': 'cross-site', origin: 'https://evil.invalid' },
          { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:9999' },
          { origin: 'http://127.0.0.1:9999' },
          { origin: 'null', 'content-type': 'text/plain' },
        ]) {
          const answer = await app.inject({ ...attempt, headers: { ...headers, authorization: `Bearer ${TOKEN}` } });
          expect(answer.statusCode, `${attempt.method} ${attempt.url} ${JSON.stringify(headers)}`).toBe(403);
          expect(answer.json().error.code).toBe('cross-site-request');
          expect(answer.json().error.message).toMatch(/^refused a (POST|PATCH|DELETE) from another site/);
        }
      }
    }
    // Nothing happened: the property is still there, no other was added.
    const list = await open.inject({ method: 'GET', url: '/api/properties' });
    expect(list.json().properties.map((p: { id: number }) => p.id)).toEqual([id]);
    // The service's own page (same-origin) and a client that is no browser go through.
    const own = await open.inject({
      method: 'POST',
      url: '/api/properties',
      payload: { property: 'https://own.invalid/' },
      headers: { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:80' },
    });
    expect(own.statusCode, own.body).toBe(201);
    const cli = await open.inject({ method: 'DELETE', url: `/api/properties/${own.json<{ id: number }>().id}` });
    expect(cli.statusCode, cli.body).toBe(204);
  });

  it('answers 429 with Retry-After to an address that keeps sending wrong tokens, never to a right token elsewhere', async () => {
    const attempt = (token: string, remoteAddress: string) =>
      locked.inject({
        method: 'POST',
        url: '/api/properties',
        payload: {},
        headers: { authorization: `Bearer ${token}` },
        remoteAddress,
      });
    for (let i = 0; i < WRONG_TOKENS_ALLOWED; i++) {
      const answer = await attempt(`wrong-${i}`, '10.0.0.1');
      expect(answer.statusCode).toBe(401);
    }
    const throttled = await attempt('wrong-again', '10.0.0.1');
    expect(throttled.statusCode).toBe(429);
    expect(throttled.headers['retry-after']).toBe('60');
    expect(throttled.json().error).toMatchObject({ code: 'too-many-failed-tokens' });
    // While locked, even a right guess from that address is not compared (else guessing would go on at full speed).
    expect((await attempt(TOKEN, '10.0.0.1')).statusCode).toBe(429);
    // The right token from another address goes straight through (400: the empty body is checked next).
    expect((await attempt(TOKEN, '10.0.0.2')).statusCode).toBe(400);
    // A request without a token from the locked address is told it needs one, as before.
    const bare = await locked.inject({
      method: 'POST',
      url: '/api/properties',
      payload: {},
      remoteAddress: '10.0.0.1',
    });
    expect(bare.statusCode).toBe(401);
    clock.advance(30_000);
    expect((await attempt('wrong', '10.0.0.1')).headers['retry-after']).toBe('30');
    clock.advance(30_000);
    expect((await attempt('wrong', '10.0.0.1')).statusCode).toBe(401);
    expect((await attempt(TOKEN, '10.0.0.1')).statusCode).toBe(400);

    // IPv6 clients count per /64: hopping addresses inside one block does not reset the count.
    for (let i = 1; i <= WRONG_TOKENS_ALLOWED; i++) await attempt('wrong', `2001:db8:1:2::${i.toString(16)}`);
    expect((await attempt('wrong', '2001:db8:1:2:ffff::1')).statusCode).toBe(429);
    expect((await attempt('wrong', '2001:db8:1:3::1')).statusCode).toBe(401);
  });
});

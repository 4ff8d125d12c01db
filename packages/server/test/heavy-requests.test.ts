/**
 * Heavy requests neither block the service nor run unbounded: `POST /api/test` refuses more than 10,000 verdicts
 * (413 naming the limit) and computes the verdicts in slices, so `GET /api/health` is answered while the heaviest
 * allowed test is still running (hostile rules: 26 patterns of 8,000 wildcards, URLs of 520 characters). Before, the
 * whole test ran in one go on the event loop: health waited for it (seconds). A real server on 127.0.0.1.
 */

import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { MAX_TEST_VERDICTS } from '../src/http/work-limits.js';
import { type Database, openDatabase } from '../src/storage/connect.js';

const robots = `User-agent: *\n${Array.from({ length: 26 }, (_, i) => `Disallow: /${'*a'.repeat(8000)}${String.fromCharCode(98 + (i % 20))}`).join('\n')}`;
const url = (i: number) => `https://site.invalid/${'a'.repeat(500)}${i}`.padEnd(520, 'z');
/** Fifty product tokens, none in the catalogue: every one is a separate crawler (the * group applies). */
const crawlers = Array.from(
  { length: 50 },
  (_, i) => `Bot${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
);

describe('heavy requests', () => {
  let database: Database;
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    database = await openDatabase({ dialect: 'sqlite', file: ':memory:' });
    app = await buildApp({ database, webRoot: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const test = (urls: string[], userAgents: string[]) =>
    fetch(`${base}/api/test`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ robots, urls, userAgents }),
    });

  it('refuses more verdicts than the limit, saying so (before: 50,000 verdicts, a 33 MB answer)', async () => {
    const urls = Array.from({ length: 1000 }, (_, i) => url(i));
    const reply = await test(urls, crawlers);
    expect(reply.status).toBe(413);
    const body = (await reply.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('payload-too-large');
    expect(body.error.message).toBe(
      `1000 URLs × 50 crawlers = 50000 verdicts; at most ${MAX_TEST_VERDICTS} per request (split it into several)`,
    );
  });

  it('answers health checks while the heaviest allowed test runs', async () => {
    const urls = Array.from({ length: MAX_TEST_VERDICTS / crawlers.length }, (_, i) => url(i));
    let finished = false;
    const heavy = test(urls, crawlers).then(async (reply) => {
      finished = true;
      return { status: reply.status, body: (await reply.json()) as { results: { allowed: boolean }[] } };
    });
    // Health requests one after another while the test runs: several must be answered before it ends.
    let answeredMeanwhile = 0;
    while (!finished && answeredMeanwhile < 5) {
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
      await health.arrayBuffer();
      if (!finished) answeredMeanwhile++;
    }
    expect(answeredMeanwhile).toBe(5);
    const done = await heavy;
    expect(done.status).toBe(200);
    expect(done.body.results).toHaveLength(MAX_TEST_VERDICTS);
    expect(done.body.results.every((r) => r.allowed)).toBe(true);
  }, 120_000);
});

/**
 * The cross-surface contract (../../robotskit/test/contract/cases.ts), service runner, on both databases:
 * `POST /api/test` with the file inline (where it is valid UTF-8 text within the request limit), with a live
 * `robotsUrl` served by a local HTTP server, and with the `versionId` the worker stored from that server must each give
 * the engine's answer on the bytes (verdict and deciding line) for every URL and agent, the agent read by the
 * engine's resolveCrawler. One request per case and source: URLs × agents in one go.
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTRACT_CASES,
  type ContractCase,
  expectedAnswer,
  isUtf8,
  textOf,
} from '../../robotskit/test/contract/cases.js';
import { type CaseOrigins, serveCases } from '../../robotskit/test/contract/serve.js';
import { buildApp } from '../src/http/app.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import type { Database } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { workerRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { openTestDatabase, testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';

const DAY = 24 * 60 * 60 * 1000;
/** The longest `robots` text `POST /api/test` takes (its schema's limit). */
const INLINE_MAX = 512_000;

interface Row {
  url: string;
  userAgent: string;
  allowed: boolean;
  line: number;
  rewrite: string | null;
}

describe.each(testDatabases)('contract: the service on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'service', () => {
    let database: Database;
    let fetch: GuardedFetch;
    let app: FastifyInstance;
    let origins: CaseOrigins;
    const versionOf = new Map<string, number>();

    beforeAll(async () => {
      database = await openTestDatabase(target);
      const clock = new ManualClock(100 * DAY);
      fetch = createGuardedFetch({ allowPrivate: true });
      app = await buildApp({ database, now: clock.now, fetch });
      origins = await serveCases(CONTRACT_CASES);
      for (const c of CONTRACT_CASES) {
        const origin = origins.origin.get(c.id)!;
        await createProperty(
          database.db,
          database.dialect,
          {
            kind: 'url-prefix',
            name: `${origin}/`,
            hosts: [{ host: origin.slice(7), source: 'property' }],
            schemes: ['http'],
          },
          clock.now(),
        );
      }
      const worker = new Worker({
        db: database.db,
        dialect: database.dialect,
        retrieve: workerRetrieval(fetch, clock.now),
        now: clock.now,
      });
      clock.advance(DAY);
      await database.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
      expect(await worker.runUntilIdle()).toBe(CONTRACT_CASES.length);
      const rows = await database.db
        .selectFrom('versions as v')
        .innerJoin('robots_files as f', 'f.id', 'v.file_id')
        .select(['v.id', 'f.url'])
        .execute();
      for (const c of CONTRACT_CASES) {
        const row = rows.find((r) => r.url === `${origins.origin.get(c.id)}/robots.txt`);
        if (row) versionOf.set(c.id, Number(row.id));
      }
    }, 120_000);

    afterAll(async () => {
      await app?.close();
      await fetch?.close();
      await origins?.close();
      await database?.close();
      await target.cleanup();
    });

    async function ask(c: ContractCase, source: object): Promise<Row[]> {
      const reply = await app.inject({
        method: 'POST',
        url: '/api/test',
        payload: { ...source, urls: c.paths, userAgents: c.agents },
      });
      expect(reply.statusCode, reply.body.slice(0, 300)).toBe(200);
      return reply.json<{ results: Row[] }>().results;
    }

    function expectEngineAnswers(c: ContractCase, rows: readonly Row[]): void {
      const want = c.paths.flatMap((path) => c.agents.map((agent) => expectedAnswer(c, path, agent, 'resolved')));
      expect(rows.map((r) => ({ allowed: r.allowed, line: r.line }))).toEqual(want);
      expect(rows.map((r) => r.userAgent)).toEqual(c.paths.flatMap(() => c.agents));
    }

    for (const c of CONTRACT_CASES) {
      describe(`${c.id} [${c.tags.join(', ')}]`, () => {
        const inline = isUtf8(c.bytes) && textOf(c.bytes).length <= INLINE_MAX;
        const sources = inline
          ? 'inline text, live robotsUrl and stored versionId'
          : 'live robotsUrl and stored versionId (not valid UTF-8 text, or past the inline limit)';
        it(`${sources} give the engine's answer on the bytes`, async () => {
          if (inline) expectEngineAnswers(c, await ask(c, { robots: textOf(c.bytes) }));
          expectEngineAnswers(c, await ask(c, { robotsUrl: origins.origin.get(c.id) }));
          const versionId = versionOf.get(c.id);
          expect(versionId, 'the worker stored a version').toBeDefined();
          expectEngineAnswers(c, await ask(c, { versionId }));
        });
      });
    }

    it('says which name it used whenever it rewrote an agent', async () => {
      const c = CONTRACT_CASES.find((x) => x.tags.includes('odd-agents'))!;
      const rows = await ask(c, { versionId: versionOf.get(c.id) });
      for (const row of rows) {
        const rewritten = row.userAgent.trim() !== row.userAgent || !/^[A-Za-z_-]+$|^\*$/.test(row.userAgent);
        expect(row.rewrite !== null, row.userAgent).toBe(rewritten);
      }
    });
  });
});

/**
 * `GET /api/properties` a page at a time: 100 by default, up to 1,000 on request, in id order, with the URL of the
 * next page; following `next` lists every property once. Before, one request returned every property (224 KB for
 * 1,000 origins).
 */

import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import type { Database } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { openTestDatabase, testDatabases } from './databases.js';

describe.each(testDatabases)('paging properties on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'paging', () => {
    let database: Database;
    let app: FastifyInstance;
    const ids: number[] = [];

    beforeEach(async () => {
      database = await openTestDatabase(target);
      app = await buildApp({ database, webRoot: false });
      ids.length = 0;
      for (let i = 0; i < 250; i++) {
        const input = parsePropertyInput(`https://site-${i}.invalid/`);
        ids.push((await createProperty(database.db, database.dialect, input, 1_000)).id);
      }
    });
    afterEach(async () => {
      await app.close();
      await database.close();
    });
    afterAll(() => target.cleanup());

    async function get(url: string) {
      const reply = await app.inject({ method: 'GET', url });
      return { status: reply.statusCode, body: reply.json() };
    }

    it('gives 100 by default, and the next pages through next', async () => {
      const first = await get('/api/properties');
      expect(first.status).toBe(200);
      expect(first.body.properties).toHaveLength(100);
      expect(first.body.properties[0].health).toMatchObject({ fetched: 0 });
      const seen: number[] = first.body.properties.map((p: { id: number }) => p.id);
      let next: string | null = first.body.next;
      expect(next).toBe(`/api/properties?after=${seen[99]}&limit=100`);
      let pages = 1;
      while (next !== null) {
        const page = await get(next);
        expect(page.status).toBe(200);
        seen.push(...page.body.properties.map((p: { id: number }) => p.id));
        next = page.body.next;
        pages++;
      }
      expect(pages).toBe(3);
      expect(seen).toEqual(ids);
    });

    it('gives the page asked for, up to 1,000, and says which limit a bad request breaks', async () => {
      const all = await get('/api/properties?limit=1000');
      expect(all.body.properties).toHaveLength(250);
      expect(all.body.next).toBeNull();
      const exact = await get(`/api/properties?limit=50&after=${ids[199]}`);
      expect(exact.body.properties.map((p: { id: number }) => p.id)).toEqual(ids.slice(200, 250));
      expect(exact.body.next).toBeNull();
      for (const query of ['limit=0', 'limit=1001', 'after=-1', 'after=x', 'page=2']) {
        const bad = await get(`/api/properties?${query}`);
        expect([bad.status, bad.body.error.code], query).toEqual([400, 'invalid-request']);
      }
      expect((await get('/api/properties?limit=1001')).body.error.message).toContain('1000');
    });
  });
});

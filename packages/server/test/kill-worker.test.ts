/**
 * Nothing committed is lost when a worker process is killed with SIGKILL in the middle of a fetch cycle, and the
 * next start continues the cycle: the files already recorded are not fetched again, the ones in flight are.
 * A real child process, a real HTTP server on 127.0.0.1, real SQLite and PostgreSQL.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../src/storage/config.js';
import { openDatabase } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { testDatabases } from './databases.js';

const here = dirname(fileURLToPath(import.meta.url));
const CHILD = join(here, 'fixtures/kill-worker.mjs');
const SITES = 40;
const ANSWER_BEFORE_HOLDING = 10;

function runChild(
  config: DatabaseConfig,
  clockOffsetMs: number,
): { child: ChildProcess; done: Promise<number | null> } {
  const child = spawn(process.execPath, [CHILD], {
    env: { ...process.env, KILL_TEST_DB: JSON.stringify(config), KILL_TEST_CLOCK_OFFSET_MS: String(clockOffsetMs) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const done = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal !== 'SIGKILL' && stderr) console.error(stderr);
      resolve(code);
    }),
  );
  return { child, done };
}

/** Waits for `condition`, polling; a bound on the loop keeps a broken run from hanging (not a speed assertion). */
async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe.each(testDatabases)('kill -9 of a worker on $dialect', (target) => {
  describe.skipIf(target.skip !== null)(target.skip ?? 'kill', () => {
    afterAll(() => target.cleanup());

    it('loses no committed fetch or version, and the next start finishes the cycle', async () => {
      let answered = 0;
      let holding = false;
      const held: ServerResponse[] = [];
      const requests: string[] = [];
      const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
        requests.push(req.headers.host ?? '');
        if (holding) {
          held.push(res); // keep the fetch in flight until the worker dies
          return;
        }
        answered++;
        if (answered >= ANSWER_BEFORE_HOLDING) holding = true;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`User-agent: *\nDisallow: /${req.headers.host}\n`);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;

      const config = target.config();
      const database = await openDatabase(config);
      try {
        for (let i = 0; i < SITES; i++) {
          await createProperty(
            database.db,
            database.dialect,
            {
              kind: 'url-prefix',
              name: `http://site${i}.test:${port}/`,
              hosts: [{ host: `site${i}.test:${port}`, source: 'property' }],
              schemes: ['http'],
            },
            Date.now() - 1000,
          );
        }
        const count = async (table: 'fetches' | 'versions' | 'bodies') =>
          Number(
            (
              await database.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );

        const first = runChild(config, 0);
        // The answered fetches get recorded; the held ones stay in flight. Kill the worker then.
        await until(
          async () => held.length > 0 && (await count('fetches')) === ANSWER_BEFORE_HOLDING,
          'the first fetches',
        );
        first.child.kill('SIGKILL');
        await first.done;
        for (const res of held) res.destroy();
        held.length = 0;

        // Everything committed is whole: each fetch has its body and its version, and its file's lease is released.
        const fetches = await database.db.selectFrom('fetches').selectAll().execute();
        expect(fetches).toHaveLength(ANSWER_BEFORE_HOLDING);
        expect(await count('versions')).toBe(ANSWER_BEFORE_HOLDING);
        expect(await count('bodies')).toBe(ANSWER_BEFORE_HOLDING);
        const recordedIds = fetches.map((f) => f.file_id).sort((a, b) => a - b);
        const files = await database.db.selectFrom('robots_files').selectAll().execute();
        for (const file of files) {
          if (recordedIds.includes(file.id)) {
            expect(file.lease_token).toBeNull();
            expect(file.last_fetch_id).not.toBeNull();
          } else {
            expect(file.last_fetch_id).toBeNull();
          }
        }
        // The killed worker still holds leases on the files it was fetching.
        expect(files.filter((f) => f.lease_token !== null).length).toBeGreaterThan(0);

        // The next start, after the dead worker's leases have expired, finishes the cycle.
        holding = false;
        answered = Number.NEGATIVE_INFINITY;
        const requestsBefore = requests.length;
        const second = runChild(config, 61_000);
        expect(await second.done).toBe(0);
        // It fetched exactly the files without a committed fetch, each once.
        const secondHosts = requests.slice(requestsBefore);
        expect(secondHosts).toHaveLength(SITES - ANSWER_BEFORE_HOLDING);
        expect(new Set(secondHosts).size).toBe(SITES - ANSWER_BEFORE_HOLDING);

        const after = await database.db.selectFrom('fetches').select(['id', 'file_id']).execute();
        expect(after).toHaveLength(SITES);
        expect(new Set(after.map((f) => f.file_id)).size).toBe(SITES);
        // The fetches recorded before the kill are the same rows, untouched.
        for (const fetch of fetches) expect(after).toContainEqual({ id: fetch.id, file_id: fetch.file_id });
        expect(await count('versions')).toBe(SITES);
        const leased = await database.db
          .selectFrom('robots_files')
          .select('id')
          .where('lease_token', 'is not', null)
          .execute();
        expect(leased).toEqual([]);
      } finally {
        await database.close();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });
});

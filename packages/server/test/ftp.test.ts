/**
 * robots.txt over FTP on every surface of the service that reads one, against Debian's vsftpd on 127.0.0.1 (the
 * CLI's helper): `POST /api/decide` for `ftp://` URLs, an `ftp://` property fetched by the worker, both through the
 * SSRF guard (a private address refused unless allowed, for an IP and for a name that resolves to one), and an FTP
 * reply worded as FTP (`FTP 530`, `FTP login refused (530)`), never as HTTP, in the API and its alerts.
 */

import { createServer, type LookupFunction, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { fetchRobotsTxt } from 'robotskit/fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FtpServer, ftpProblem, startFtpServer } from '../../cli/test/ftp-server.js';
import { createAlertHook } from '../src/alerts/store.js';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import type { Database } from '../src/storage/connect.js';
import { createPolicyResolver } from '../src/storage/history.js';
import { createProperty } from '../src/storage/properties.js';
import { workerRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { openTestDatabase, testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';

const RULES = 'User-agent: *\nDisallow: /pub/private/\n';
const DAY = 24 * 60 * 60 * 1000;

/** A name resolution that answers `ftp.test` with loopback, as a hostile DNS record would. */
const loopbackName = ((hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
  const cb = typeof options === 'function' ? (options as typeof callback) : callback;
  if (hostname !== 'ftp.test') return cb(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
  return cb(null, [{ address: '127.0.0.1', family: 4 }]);
}) as unknown as LookupFunction;

describe.skipIf(ftpProblem !== null)('the service reads robots.txt over FTP', () => {
  let database: Database;
  let clock: ManualClock;
  let open: GuardedFetch;
  let guarded: GuardedFetch;
  let app: FastifyInstance;
  let guardedApp: FastifyInstance;
  let files: FtpServer;
  let noRobots: FtpServer;
  let closed: FtpServer;

  beforeAll(async () => {
    database = await openTestDatabase(testDatabases[0]!);
    clock = new ManualClock(100 * DAY);
    open = createGuardedFetch({ allowPrivate: true });
    guarded = createGuardedFetch({ lookup: loopbackName });
    const resolvePolicy = createPolicyResolver(database.db);
    app = await buildApp({ database, fetch: open, now: clock.now, resolvePolicy, webRoot: false });
    guardedApp = await buildApp({ database, fetch: guarded, now: clock.now, webRoot: false });
    files = await startFtpServer({ 'robots.txt': RULES });
    noRobots = await startFtpServer({ 'readme.txt': 'no robots here\n' });
    closed = await startFtpServer({ 'robots.txt': RULES }, false);
  });
  afterAll(async () => {
    await app.close();
    await guardedApp.close();
    await open.close();
    await guarded.close();
    await files.close();
    await noRobots.close();
    await closed.close();
    await database.close();
    await testDatabases[0]!.cleanup();
  });

  async function decide(target: FastifyInstance, urls: string[]) {
    const response = await target.inject({ method: 'POST', url: '/api/decide', payload: { crawler: 'MyBot', urls } });
    expect(response.statusCode).toBe(200);
    return response.json<{ results: Record<string, unknown>[] }>().results;
  }

  it('POST /api/decide reads an ftp:// robots.txt: its rules, no file (550), a refused login (530)', async () => {
    const results = await decide(app, [
      `${files.origin}/pub/private/x.zip`,
      `${files.origin}/pub/open/y.zip`,
      `${noRobots.origin}/pub/private/z.zip`,
      `${closed.origin}/pub/open/y.zip`,
    ]);
    expect(results[0]).toMatchObject({
      allowed: false,
      line: 2,
      rule: { kind: 'disallow', pattern: '/pub/private/' },
      robotsUrl: `${files.origin}/robots.txt`,
      policy: { mode: 'rules' },
      fetch: { status: null, reply: null, outcome: 'rules', error: null },
    });
    expect(results[1]).toMatchObject({ allowed: true, policy: { mode: 'rules' } });
    expect(results[2]).toMatchObject({
      allowed: true,
      policy: { mode: 'allow-all' },
      fetch: { status: 550, reply: 'FTP 550', outcome: 'allow-all', error: { kind: 'protocol' } },
    });
    expect(results[3]).toMatchObject({
      allowed: false,
      policy: { mode: 'disallow-all' },
      fetch: { status: 530, reply: 'FTP 530', outcome: 'disallow-all', error: { kind: 'protocol' } },
    });
    expect(JSON.stringify(results)).not.toMatch(/HTTP 5[35]0|unknown scheme/);
  });

  it('the tester and the live fetch read an ftp:// robots.txt, and test ftp:// URLs against it', async () => {
    const live = await app.inject({ method: 'GET', url: `/api/fetch?url=${encodeURIComponent(`${files.origin}/`)}` });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ outcome: 'rules', robotsUrl: `${files.origin}/robots.txt`, content: RULES });
    const tested = await app.inject({
      method: 'POST',
      url: '/api/test',
      payload: {
        robotsUrl: `${files.origin}/`,
        urls: [`${files.origin}/pub/private/x.zip`, '/pub/open/y.zip'],
        userAgents: ['Googlebot'],
      },
    });
    expect(tested.statusCode).toBe(200);
    expect(
      (tested.json() as { results: { url: string; allowed: boolean }[] }).results.map((r) => [r.url, r.allowed]),
    ).toEqual([
      [`${files.origin}/pub/private/x.zip`, false],
      [`${files.origin}/pub/open/y.zip`, true],
    ]);
    // Through the guard, a private FTP address is refused here too (disallow-all, never fail open).
    const refused = await guardedApp.inject({
      method: 'GET',
      url: `/api/fetch?url=${encodeURIComponent(`${files.origin}/`)}`,
    });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({ outcome: 'disallow-all', error: { kind: 'blocked' } });
  });

  it('refuses FTP to a private address unless allowed, for an IP and for a name that resolves to one', async () => {
    const port = new URL(files.origin).port;
    const results = await decide(guardedApp, [`${files.origin}/pub/open/a`, `ftp://ftp.test:${port}/pub/open/b`]);
    for (const r of results) {
      expect(r).toMatchObject({
        allowed: false,
        policy: { mode: 'disallow-all' },
        fetch: { error: { kind: 'blocked' } },
      });
    }
    expect((results[0]!.fetch as { error: { message: string } }).error.message).toMatch(/loopback/);
    expect((results[1]!.fetch as { error: { message: string } }).error.message).toMatch(
      /refused to connect to ftp\.test: it resolves to 127\.0\.0\.1/,
    );
  });

  it('watches an ftp:// property: the worker reads it over FTP, and a refused login is worded as FTP', async () => {
    const worker = new Worker({
      db: database.db,
      dialect: database.dialect,
      retrieve: workerRetrieval(open, clock.now),
      onNewVersion: createAlertHook(() => {}),
      now: clock.now,
    });
    for (const server of [files, closed]) {
      await createProperty(database.db, database.dialect, parsePropertyInput(`${server.origin}/`), clock.now());
    }
    expect(await worker.runUntilIdle()).toBe(2);
    const listed = await app.inject({ method: 'GET', url: '/api/properties' });
    expect(listed.statusCode).toBe(200);
    const answers = [];
    for (const server of [files, closed]) {
      const row = await database.db
        .selectFrom('robots_files')
        .select(['id', 'scheme'])
        .where('url', '=', `${server.origin}/robots.txt`)
        .executeTakeFirstOrThrow();
      expect(row.scheme).toBe('ftp');
      const file = await app.inject({ method: 'GET', url: `/api/files/${row.id}` });
      expect(file.statusCode).toBe(200);
      answers.push(file.json<Record<string, unknown>>());
    }
    expect(answers[0]).toMatchObject({
      scheme: 'ftp',
      status: 'fetched',
      reply: null,
      size: RULES.length,
      effectivePolicy: { mode: 'rules' },
      lastFetch: { outcome: 'rules', content: RULES },
    });
    expect(answers[1]).toMatchObject({
      scheme: 'ftp',
      status: 'error',
      statusReason: 'FTP login refused (530)',
      httpStatus: 530,
      reply: 'FTP 530',
      effectivePolicy: { mode: 'disallow-all' },
      lastFetch: { outcome: 'disallow-all', reply: 'FTP 530', summary: 'FTP login refused (530)' },
    });
    const fetches = await app.inject({ method: 'GET', url: `/api/files/${(answers[1] as { id: number }).id}/fetches` });
    expect(JSON.stringify(fetches.json())).toContain('"reply":"FTP 530"');
    expect(JSON.stringify([answers, fetches.json()])).not.toContain('HTTP 530');
    // The alert (and so the webhook payload made from it) words the refusal as FTP too.
    const alerts = await app.inject({ method: 'GET', url: '/api/alerts' });
    expect(alerts.statusCode).toBe(200);
    const text = JSON.stringify(alerts.json());
    expect(text).toContain('file-unreachable');
    expect(text).toContain('FTP login refused (530)');
    expect(text).not.toContain('HTTP 530');
  });

  it('takes ftp:// as a URL prefix property, and still refuses other schemes and credentials', () => {
    expect(parsePropertyInput('ftp://FTP.Example.com/')).toMatchObject({
      kind: 'url-prefix',
      name: 'ftp://ftp.example.com/',
      schemes: ['ftp'],
    });
    expect(() => parsePropertyInput('gopher://example.com/')).toThrow(/only http:\/\/, https:\/\/ and ftp:\/\//);
    expect(() => parsePropertyInput('ftp://user:pw@example.com/')).toThrow(/credentials/);
  });
});

/**
 * A hostile FTP server on 127.0.0.1: it logs anyone in, refuses EPSV and answers PASV with another host's address
 * (an attempt to send the service's data connection to an address of the server's choosing).
 */
async function pasvElsewhere(): Promise<{ origin: string; commands: string[]; close(): Promise<void> }> {
  const commands: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.write('220 hello\r\n');
    let buffered = '';
    socket.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const command = buffered.slice(0, end).split(' ')[0]!.toUpperCase();
        buffered = buffered.slice(end + 2);
        commands.push(command);
        const answers: Record<string, string> = {
          USER: '331 password please',
          PASS: '230 logged in',
          TYPE: '200 binary',
          FEAT: '211 no features',
          PASV: '227 Entering Passive Mode (10,0,0,1,4,1)',
        };
        socket.write(`${answers[command] ?? '500 not understood'}\r\n`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `ftp://127.0.0.1:${port}`,
    commands,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the guard on FTP data connections', () => {
  it('never opens a data connection to another host than the one the guard checked', async () => {
    const hostile = await pasvElsewhere();
    const fetch = createGuardedFetch({ allowPrivate: true });
    try {
      const result = await fetchRobotsTxt(`${hostile.origin}/`, { ftp: fetch.ftp! });
      expect(result.outcome).toBe('disallow-all');
      expect(result.error?.message).toMatch(/PASV returned another host \(10\.0\.0\.1\)/);
      // It asked for a data connection and never sent RETR: no transfer went anywhere.
      expect(hostile.commands).toContain('PASV');
      expect(hostile.commands).not.toContain('RETR');
    } finally {
      await fetch.close();
      await hostile.close();
    }
  });
});

/**
 * `robotskit serve` and `robotskit worker` as a user runs them: the real executable in a child process.
 */

import { type ChildProcess, spawn as spawnChild } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { BIN, run, spawn } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = tempDir('serve');
const children: ChildProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** What each serve process printed on standard output so far. */
const banners = new WeakMap<ChildProcess, string>();
const banner = (child: ChildProcess): string => banners.get(child) ?? '';

/** Starts `robotskit serve` and resolves with its URL once it listens. */
function startServe(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; url: string; exit: Promise<number | null> }> {
  const child = spawnChild(process.execPath, [BIN, 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      banners.set(child, out);
      const match = /service on (http:\/\/\S+) /.exec(out);
      if (match) resolve({ child, url: match[1] as string, exit });
    });
    child.stderr?.on('data', (chunk) => {
      err += chunk;
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
}

describe('robotskit serve', () => {
  it('serves the API on loopback with a SQLite file, and stops cleanly on SIGTERM', async () => {
    const { child, url, exit } = await startServe(['--port', '0', '--db', join(dir, 'a', 'db.sqlite')]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(banner(child)).toContain(`open ${url}/ for the robots.txt tester, ${url}/properties for the report`);
    const health = await (await fetch(`${url}/api/health`)).json();
    expect(health).toMatchObject({ status: 'ok', database: 'sqlite' });
    const created = await fetch(`${url}/api/properties`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // A loopback literal: the worker this process runs refuses it before opening a socket (no traffic leaves the
      // machine), where a real domain would be looked up and fetched.
      body: JSON.stringify({ property: 'http://127.0.0.1:9/' }),
    });
    expect(created.status).toBe(201);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);

    // The data outlives the process.
    const again = await startServe(['--port', '0', '--db', join(dir, 'a', 'db.sqlite')]);
    const list = (await (await fetch(`${again.url}/api/properties`)).json()) as { properties: { name: string }[] };
    expect(list.properties.map((p) => p.name)).toEqual(['http://127.0.0.1:9/']);
    again.child.kill('SIGINT');
    expect(await again.exit).toBe(0);
  });

  it('listens on the PORT environment variable without --port, and --port wins over it', async () => {
    // A port free a moment ago (the kernel's choice), given to the service the way `PORT=… npm start` gives it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const free = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const viaEnv = await startServe(['--db', join(dir, 'port', 'db.sqlite')], { PORT: String(free) });
    expect(viaEnv.url).toBe(`http://127.0.0.1:${free}`);
    expect(((await (await fetch(`${viaEnv.url}/api/health`)).json()) as { status: string }).status).toBe('ok');
    viaEnv.child.kill('SIGTERM');
    expect(await viaEnv.exit).toBe(0);
    const flag = await startServe(['--port', '0', '--db', join(dir, 'port', 'db.sqlite')], { PORT: String(free) });
    expect(flag.url).not.toBe(`http://127.0.0.1:${free}`);
    flag.child.kill('SIGTERM');
    expect(await flag.exit).toBe(0);
    const bad = await run(['serve', '--db', join(dir, 'port', 'db.sqlite')], { env: { PORT: 'eighty' } });
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr: "robotskit: the PORT environment variable must be an integer from 0 to 65535 (got 'eighty')\n",
    });
  });

  it('requires the token for changes when given one', async () => {
    const { child, url, exit } = await startServe([
      '--port',
      '0',
      '--db',
      join(dir, 'b.sqlite'),
      '--token',
      'secret-token-1',
    ]);
    const post = (auth?: string) =>
      fetch(`${url}/api/properties`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ property: 'http://127.0.0.1:9/' }),
      });
    expect((await post()).status).toBe(401);
    expect((await post('Bearer secret-token-1')).status).toBe(201);
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  const refusals: [args: string[], message: string][] = [
    [
      ['--host', '0.0.0.0'],
      'robotskit: refusing to listen on 0.0.0.0 without a token: anyone who can reach it could add and delete properties.',
    ],
    [['--port', 'abc'], "robotskit: --port must be an integer from 0 to 65535 (got 'abc')"],
    [['--port', '70000'], "robotskit: --port must be an integer from 0 to 65535 (got '70000')"],
    [['--workers', '-1'], "robotskit: --workers must be an integer from 0 to 64 (got '-1')"],
    [
      ['--db', 'x.sqlite', '--database-url', 'postgres://h/db'],
      'robotskit: give either --db <sqlite-file> or --database-url',
    ],
    [['--database-url', 'mysql://h/db'], "robotskit: --database-url must start with postgres:// (got 'mysql:')"],
    [['--database-url', 'not a url'], "robotskit: --database-url is not a URL: 'not a url'"],
    [['--token', 'short'], 'robotskit: --token must be at least 8 characters'],
    [['--retention-days', '7'], "robotskit: --retention-days must be an integer from 30 to 36500 (got '7')"],
    [
      ['--log-dns-server', 'not a server'],
      "robotskit: --log-dns-server must be an address with an optional port (127.0.0.1:5353), not 'not a server'",
    ],
    [
      ['--log-ranges', '/no/such/gptbot.json'],
      "robotskit: cannot read --log-ranges '/no/such/gptbot.json': no such file",
    ],
    [['--bogus'], "robotskit: unknown option '--bogus'"],
  ];
  it.each(refusals)('refuses %j with one clear line and exit 2', async (args, message) => {
    const base = args.includes('--db') || args.includes('--database-url') ? [] : ['--db', join(dir, 'never.sqlite')];
    const result = await spawn(['serve', ...base, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('says what is wrong when the database cannot be used', async () => {
    writeFileSync(join(dir, 'not-a-db.sqlite'), 'this is not a database file, just text '.repeat(100));
    const result = await spawn(['serve', '--port', '0', '--db', join(dir, 'not-a-db.sqlite')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^robotskit: cannot (open|use) SQLite .*not-a-db\.sqlite: file is not a database\n$/);
  });

  it('says so when the folder of the SQLite file cannot be created, rather than hanging', async () => {
    // /proc refuses new folders with ENOENT although it exists, which sends Node's recursive mkdir into a loop.
    const result = await spawn(['serve', '--port', '0', '--db', '/proc/robotskit-none/db.sqlite']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "robotskit: cannot create the folder of SQLite database '/proc/robotskit-none/db.sqlite': " +
        "ENOENT: no such file or directory, mkdir '/proc/robotskit-none'\n",
    );
  });
});

describe('robotskit worker', () => {
  it('refuses to start without a database shared with serve, in one line', async () => {
    const result = await run(['worker'], { env: {} });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'robotskit: worker needs the database the service uses: --database-url postgres://… (or DATABASE_URL), ' +
        'or --db <sqlite-file> on the machine that runs serve\n',
    });
  });

  it('says what is wrong with the database, in one line', async () => {
    for (const [args, message] of [
      [['--database-url', 'postgres://127.0.0.1:1/x'], 'robotskit: cannot use PostgreSQL postgres://127.0.0.1:1/x: '],
      [['--database-url', 'mysql://h/db'], "robotskit: --database-url must start with postgres:// (got 'mysql:')"],
      [['--workers', '0', '--db', join(dir, 'w0.sqlite')], 'robotskit: --workers must be an integer from 1 to 64'],
    ] as const) {
      const result = await spawn(['worker', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain(message);
      expect(result.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('fetches the files a serve process (API only) watches, from a local server with --allow-private-addresses', async () => {
    const origin = createServer((request, response) => {
      response.writeHead(request.url === '/robots.txt' ? 200 : 404, { 'content-type': 'text/plain' });
      response.end('User-agent: *\nDisallow: /private\n');
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const port = (origin.address() as AddressInfo).port;
    try {
      const db = join(dir, 'w.sqlite');
      const serve = await startServe(['--port', '0', '--db', db, '--workers', '0']);
      const created = await fetch(`${serve.url}/api/properties`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ property: `http://127.0.0.1:${port}/` }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const worker = spawnChild(process.execPath, [BIN, 'worker', '--db', db, '--allow-private-addresses'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(worker);
      const workerExit = new Promise<number | null>((resolve) => worker.on('exit', (code) => resolve(code)));
      let files: { status: string | null; errors: number | null; effectivePolicy: { mode: string } | null }[] = [];
      for (let i = 0; i < 200; i++) {
        files = ((await (await fetch(`${serve.url}/api/properties/${id}/files`)).json()) as { files: typeof files })
          .files;
        if (files[0]?.status !== null) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(files).toEqual([
        expect.objectContaining({
          status: 'fetched',
          errors: 0,
          effectivePolicy: expect.objectContaining({ mode: 'rules' }),
        }),
      ]);
      worker.kill('SIGTERM');
      expect(await workerExit).toBe(0);
      serve.child.kill('SIGTERM');
      expect(await serve.exit).toBe(0);
    } finally {
      await new Promise<void>((resolve) => origin.close(() => resolve()));
    }
  });
});

/** Waits up to `ms` for `exit`; resolves with the exit code, or 'still running'. */
function exitWithin(exit: Promise<number | null>, ms: number): Promise<number | null | 'still running'> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<'still running'>((resolve) => {
    timer = setTimeout(() => resolve('still running'), ms);
  });
  return Promise.race([exit, guard]).finally(() => clearTimeout(timer));
}

describe('serve stops on SIGTERM in every state', () => {
  // Over 64 KiB, so the body is linted in the service's lint thread (before, that thread kept the process alive
  // forever after SIGTERM); distinct lines so the lint has real work.
  const big = Array.from({ length: 4000 }, (_, i) => `Disallow: /section-${i}/page\n`).join('');
  const linted = `User-agent: *\n${big}`.slice(0, 100 * 1024);
  // 500 KiB of one group's user-agent lines: seconds of lint work, so SIGTERM arrives while the thread is linting.
  const hostile = `${'User-agent: bot\n'.repeat(31_000)}Disallow: /\n`;

  async function withOrigin(body: string, run: (origin: string, served: Promise<void>) => Promise<void>) {
    let markServed = () => {};
    const served = new Promise<void>((resolve) => {
      markServed = resolve;
    });
    const origin = createServer((request, response) => {
      response.writeHead(request.url === '/robots.txt' ? 200 : 404, { 'content-type': 'text/plain' });
      response.end(request.url === '/robots.txt' ? body : '', () => {
        if (request.url === '/robots.txt') markServed();
      });
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    try {
      await run(`http://127.0.0.1:${(origin.address() as AddressInfo).port}/`, served);
    } finally {
      origin.closeAllConnections();
      await new Promise<void>((resolve) => origin.close(() => resolve()));
    }
  }

  async function watch(url: string, property: string): Promise<number> {
    const created = await fetch(`${url}/api/properties`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ property }),
    });
    expect(created.status).toBe(201);
    return ((await created.json()) as { id: number }).id;
  }

  it('exits within 2 s once it has linted a 100 KiB body in its lint thread', async () => {
    expect(linted.length).toBeGreaterThan(64 * 1024);
    await withOrigin(linted, async (property) => {
      const serve = await startServe([
        '--port',
        '0',
        '--db',
        join(dir, 'sigterm-linted.sqlite'),
        '--allow-private-addresses',
      ]);
      const id = await watch(serve.url, property);
      let files: { status: string | null; errors: number | null; warnings: number | null }[] = [];
      for (let i = 0; i < 300; i++) {
        files = ((await (await fetch(`${serve.url}/api/properties/${id}/files`)).json()) as { files: typeof files })
          .files;
        if (files[0]?.status !== null && files[0]?.status !== undefined) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      // The body was fetched and its lint stored (the thread answered).
      expect(files).toEqual([expect.objectContaining({ status: 'fetched' })]);
      serve.child.kill('SIGTERM');
      expect(await exitWithin(serve.exit, 2000)).toBe(0);
    });
  });

  it('exits within 2 s when SIGTERM arrives while a hostile body is being linted', async () => {
    await withOrigin(hostile, async (property, served) => {
      const serve = await startServe([
        '--port',
        '0',
        '--db',
        join(dir, 'sigterm-linting.sqlite'),
        '--allow-private-addresses',
      ]);
      await watch(serve.url, property);
      await served;
      serve.child.kill('SIGTERM');
      expect(await exitWithin(serve.exit, 2000)).toBe(0);
    });
  });

  it('exits within 10 s of SIGTERM while a client never finishes its request (before: held for its 30 s timeout)', async () => {
    const serve = await startServe(['--port', '0', '--db', join(dir, 'sigterm-slow-body.sqlite')]);
    const socket = connect(Number(new URL(serve.url).port), '127.0.0.1');
    socket.on('error', () => {});
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/properties HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    // The service has the request (its headers answered nothing yet): a health check shows it is up meanwhile.
    expect((await fetch(`${serve.url}/api/health`)).status).toBe(200);
    serve.child.kill('SIGTERM');
    expect(await exitWithin(serve.exit, 10_000)).toBe(0);
    socket.destroy();
  });

  it('exits within 2 s when idle, never having linted', async () => {
    const serve = await startServe(['--port', '0', '--db', join(dir, 'sigterm-idle.sqlite')]);
    serve.child.kill('SIGTERM');
    expect(await exitWithin(serve.exit, 2000)).toBe(0);
  });
});

describe('lazy loading', () => {
  const forbid = join(here, 'fixtures/forbid-server.mjs');
  function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawnChild(process.execPath, ['--import', forbid, BIN, ...args], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk) => {
        stderr += chunk;
      });
      child.on('exit', (code) => resolve({ code, stderr }));
    });
  }

  it('does not load the server package for the other commands', async () => {
    const file = join(dir, 'robots.txt');
    writeFileSync(file, 'User-agent: *\nDisallow: /private\n');
    expect(await run(['test', file, 'Googlebot', 'https://e.com/private'])).toMatchObject({ code: 1, stderr: '' });
    expect(await run(['explain', file, 'https://e.com/x', '--ua', 'Googlebot'])).toMatchObject({ code: 0, stderr: '' });
    expect(await run(['serve', '--help'])).toMatchObject({ code: 0 });
  });

  it('loads it for serve (so the check above can fail)', async () => {
    const result = await run(['serve', '--port', '0', '--db', join(dir, 'lazy.sqlite')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('robotskit-server was loaded');
  });

  it('says in one line how to add it when it is not installed (an optional peer dependency)', async () => {
    const missing = join(here, 'fixtures/missing-server.mjs');
    for (const command of [
      ['serve', '--port', '0', '--db', join(dir, 'absent.sqlite')],
      ['worker', '--db', join(dir, 'absent.sqlite')],
    ]) {
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawnChild(process.execPath, ['--import', missing, BIN, ...command], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr?.on('data', (chunk) => {
          stderr += chunk;
        });
        child.on('exit', (code) => resolve({ code, stderr }));
      });
      expect(result).toEqual({
        code: 2,
        stderr: `robotskit: ${command[0]} needs the report service, which is not installed: npm install robotskit-server\n`,
      });
    }
  });
});

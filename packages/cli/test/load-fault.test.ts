/**
 * The load-and-fault suite (issue 37's "done when"): `robotskit serve` as a user runs it (the real command, a SQLite
 * file, its fetch worker), attacked in turn by
 * - a flapping large-file origin: a watched site alternating two ~400 KB robots.txt files, fetched again and again,
 *   its versions' diffs and its file read meanwhile;
 * - concurrent impact clients (ten at once, each checking a ~400 KB draft against the current version);
 * - a webhook receiver that never answers, beside one that answers at once, while a site keeps changing;
 * - slow-body clients: hundreds of unauthenticated POSTs whose bodies trickle in;
 * - big `POST /api/test` (a 500 KB hostile file, 10,000 verdicts) and `POST /api/decide` (10,000 URLs) requests.
 * While each runs, a thread of this process polls `GET /api/health` one request after another and notes each wait;
 * a property added during the attack must get its first fetch within 10 s, and at the end no webhook delivery has
 * reached a receiver twice (by `webhook-id`). The service's RSS is noted per attack, printed, and its peak over the
 * whole run (VmHWM) must stay under the issue's 512 MB (measured 374–384 MB; 550–700 MB before the analysis threads'
 * heap bounds and `serve`'s V8 `--optimize-for-size`; idle ~120 MB). The worst health wait must stay
 * under 500 ms (the issue's line; idle it is a few ms): the service's own event-loop delay, which the health answer
 * carries (`eventLoop.recentMaxMs`), is recorded beside it and printed per attack, so a slow machine (the health
 * poller shares it with the attackers) can be told apart from a stalled service.
 *
 * The cross-origin page in Chromium (no-cors POSTs and beacons from another origin) is
 * `packages/web/test/browser/cross-site.test.ts`.
 *
 * Measuring: ROBOTSKIT_LOAD_NODE_ARGS gives the service's node more arguments, e.g. `--cpu-prof --cpu-prof-dir=<folder>`
 * for a CPU profile of the run.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { BIN, plainEnv, serviceUrl } from './helpers.js';

/** How long each attack runs (the health poller watches it all, and 1 s after it). */
const ATTACK_MS = 3_000;
const SETTLE_MS = 1_000;
const HEALTH_LIMIT_MS = 500;
const FIRST_FETCH_LIMIT_MS = 10_000;
const RSS_LIMIT_BYTES = 512 * 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two builds of one site's robots.txt, ~400 KB each, a third of their lines different. */
function flappingFile(build: 'a' | 'b'): string {
  const lines = ['User-agent: *'];
  let size = 0;
  for (let i = 0; size < 400_000; i++) {
    const variant = build === 'b' && i % 3 === 0 ? 'b' : 'a';
    const line = `Disallow: /catalogue-${i}/section-${variant}/*.html$`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** A hostile file of ~500 KB: long wildcard patterns every URL must be matched against. */
const HOSTILE = `User-agent: *\n${Array.from({ length: 31 }, (_, i) => `Disallow: /${'*a'.repeat(8000)}${String.fromCharCode(98 + (i % 20))}`).join('\n')}\n`;

/** An HTTP server on 127.0.0.1 with a handler; closed with its connections. */
async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void) {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Listening = Awaited<ReturnType<typeof listen>>;

/** A site whose robots.txt is `bodies[n % bodies.length]` at its nth fetch; notes when it was first asked. */
async function origin(bodies: string[]) {
  let served = 0;
  let firstAt: number | null = null;
  const site = await listen((request, response) => {
    if (request.url !== '/robots.txt') {
      response.writeHead(404).end();
      return;
    }
    firstAt ??= Date.now();
    response.writeHead(200, { 'content-type': 'text/plain' }).end(bodies[served++ % bodies.length]);
  });
  return { ...site, served: () => served, firstAt: () => firstAt };
}

/** Polls `GET /api/health` one request after another, on a thread of its own (the attackers share this one). */
const POLLER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let stopped = false;
parentPort.on('message', () => { stopped = true; });
function once() {
  return new Promise((resolve) => {
    const start = performance.now();
    const request = http.get(workerData.url, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => {
        let loop = null;
        try { loop = JSON.parse(body).eventLoop.recentMaxMs; } catch {}
        resolve({ at: Date.now(), ms: performance.now() - start, status: response.statusCode, loop });
      });
    });
    request.on('error', (error) => resolve({ at: Date.now(), ms: performance.now() - start, status: 0, loop: null, error: String(error) }));
  });
}
(async () => {
  while (!stopped) {
    parentPort.postMessage(await once());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  agent.destroy();
  parentPort.postMessage('done');
})();
`;

interface HealthSample {
  at: number;
  ms: number;
  status: number;
  loop: number | null;
  error?: string;
}

/** The resident set of a process, from /proc (bytes). */
function rssOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

interface Measured {
  attack: string;
  healthWorstMs: number;
  healthCount: number;
  loopWorstMs: number;
  rssWorstMb: number;
  firstFetchMs: number;
}

describe('one hostile site or client cannot stall the service', () => {
  const dir = tempDir('load-fault');
  let serve: ChildProcess;
  let exited: Promise<number | null>;
  let url: string;
  let poller: Worker;
  const samples: HealthSample[] = [];
  const rss: { at: number; bytes: number }[] = [];
  let rssTimer: NodeJS.Timeout;
  const closers: (() => Promise<void>)[] = [];
  const measured: Measured[] = [];
  const fileA = flappingFile('a');
  const fileB = flappingFile('b');
  let flapping: Awaited<ReturnType<typeof origin>>;
  let flappingFileId: number;
  let newSites = 0;
  let stopMs = 0;
  let peakRssMb = 0;

  /** One API request; an attacker's is cut when its attack ends (`signal`), and the service drops its work. */
  const api = async (method: string, path: string, body?: unknown, signal?: AbortSignal) => {
    const response = await fetch(`${url}${path}`, {
      method,
      ...(signal === undefined ? {} : { signal }),
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
  };

  /** Adds a property for `site`; returns the id of its robots.txt file once listed. */
  async function addProperty(site: string): Promise<number> {
    const created = await api('POST', '/api/properties', { property: `${site}/` });
    expect(created.status).toBe(201);
    const id = created.body?.id as number;
    for (let i = 0; i < 600; i++) {
      const files = (await api('GET', `/api/properties/${id}/files`)).body?.files as { id: number }[] | undefined;
      if (files && files.length > 0) return files[0]!.id;
      await sleep(50);
    }
    throw new Error(`no file listed for ${site}`);
  }

  /**
   * Runs `attack` for ATTACK_MS, and on until `done()` says it did its work (at most 30 s more: a busy machine answers
   * slower); it stops when its signal aborts. Adds a property meanwhile; notes the figures.
   */
  async function underAttack(
    name: string,
    attack: (signal: AbortSignal) => Promise<void>,
    done: () => boolean = () => true,
  ): Promise<Measured> {
    const start = Date.now();
    const controller = new AbortController();
    const running = attack(controller.signal);
    // A new property during the attack: its first fetch must come within 10 s.
    await sleep(1_000);
    const site = await origin(['User-agent: *\nDisallow: /private/\n']);
    closers.push(site.close);
    newSites++;
    const addedAt = Date.now();
    await api('POST', '/api/properties', { property: `${site.base}/` });
    while (site.firstAt() === null && Date.now() - addedAt < 3 * FIRST_FETCH_LIMIT_MS) await sleep(50);
    const firstFetchMs = (site.firstAt() ?? Number.POSITIVE_INFINITY) - addedAt;
    await sleep(Math.max(0, start + ATTACK_MS - Date.now()));
    for (const until = Date.now() + 30_000; !done() && Date.now() < until; ) await sleep(100);
    controller.abort();
    await running;
    await sleep(SETTLE_MS);
    const during = samples.filter((s) => s.at >= start);
    const result: Measured = {
      attack: name,
      healthWorstMs: Math.round(Math.max(...during.map((s) => s.ms))),
      healthCount: during.length,
      loopWorstMs: Math.round(Math.max(0, ...during.map((s) => s.loop ?? 0))),
      rssWorstMb: Math.round(Math.max(...rss.filter((r) => r.at >= start).map((r) => r.bytes)) / 1024 / 1024),
      firstFetchMs,
    };
    measured.push(result);
    // Every health request was answered, and answered ok.
    expect(during.filter((s) => s.status !== 200)).toEqual([]);
    expect(during.length).toBeGreaterThan(5);
    return result;
  }

  function expectHeld(result: Measured): void {
    expect(result.firstFetchMs, `${result.attack}: first fetch of a new property`).toBeLessThan(FIRST_FETCH_LIMIT_MS);
    expect(
      result.healthWorstMs,
      `${result.attack}: worst health wait (event loop ${result.loopWorstMs} ms)`,
    ).toBeLessThan(HEALTH_LIMIT_MS);
  }

  /** Repeats `request` until `signal` aborts, `clients` at a time. */
  async function clients(count: number, signal: AbortSignal, request: () => Promise<unknown>): Promise<void> {
    await Promise.all(
      Array.from({ length: count }, async () => {
        while (!signal.aborted) await request().catch(() => {});
      }),
    );
  }

  beforeAll(async () => {
    const node = (process.env.ROBOTSKIT_LOAD_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
    serve = spawn(
      process.execPath,
      [...node, BIN, 'serve', '--port', '0', '--db', join(dir, 'db.sqlite'), '--allow-private-addresses'],
      { stdio: ['ignore', 'pipe', 'pipe'], env: plainEnv() },
    );
    exited = new Promise((resolve) => serve.on('exit', (code) => resolve(code)));
    url = await serviceUrl(serve);
    rssTimer = setInterval(() => {
      try {
        rss.push({ at: Date.now(), bytes: rssOf(serve.pid!, 'VmRSS') });
      } catch {}
    }, 100);
    poller = new Worker(POLLER, { eval: true, workerData: { url: `${url}/api/health` } });
    poller.on('message', (m: HealthSample | 'done') => {
      if (m !== 'done') samples.push(m);
    });
    // The flapping site, watched, with a first version.
    flapping = await origin([fileA, fileB]);
    closers.push(flapping.close);
    flappingFileId = await addProperty(flapping.base);
    for (let i = 0; i < 600 && flapping.served() === 0; i++) await sleep(50);
    // Idle: the health answer as it is with nothing going on.
    await sleep(1_000);
  }, 60_000);

  afterAll(async () => {
    clearInterval(rssTimer);
    if (poller) {
      const done = new Promise((resolve) => poller.on('message', (m) => m === 'done' && resolve(null)));
      poller.postMessage('stop');
      await Promise.race([done, sleep(5_000)]);
      await poller.terminate();
    }
    try {
      peakRssMb = Math.round(rssOf(serve.pid!, 'VmHWM') / 1024 / 1024);
    } catch {}
    // The sites and receivers first: a delivery held by the hanging receiver ends at once, not at its timeout.
    for (const close of closers.splice(0)) await close();
    if (serve && serve.exitCode === null) {
      const stopping = Date.now();
      serve.kill('SIGTERM');
      const code = await Promise.race([exited, sleep(20_000).then(() => 'timeout' as const)]);
      if (code === 'timeout') serve.kill('SIGKILL');
      stopMs = Date.now() - stopping;
    }
    console.log(
      `load-fault: worst health wait / worst event-loop delay / worst RSS / first fetch of a new property\n${measured
        .map(
          (m) =>
            `  ${m.attack}: ${m.healthWorstMs} ms (${m.healthCount} polls) / ${m.loopWorstMs} ms / ${m.rssWorstMb} MB / ${m.firstFetchMs} ms`,
        )
        .join(
          '\n',
        )}\n  peak RSS ${peakRssMb} MB (issue 37: under ${RSS_LIMIT_BYTES / 1024 / 1024} MB, asserted); serve stopped in ${stopMs} ms`,
    );
  }, 60_000);

  it('a flapping large-file origin: refetched, its diffs and file read meanwhile', async () => {
    const result = await underAttack(
      'flapping origin',
      async (signal) => {
        await Promise.all([
          clients(1, signal, async () => {
            await api('POST', `/api/files/${flappingFileId}/recrawl`, undefined, signal);
            await sleep(200);
          }),
          clients(3, signal, async () => {
            const versions = (await api('GET', `/api/files/${flappingFileId}/versions`, undefined, signal)).body
              ?.versions as { id: number }[] | undefined;
            const latest = versions?.[0]?.id;
            if (latest === undefined) return sleep(100);
            await api('GET', `/api/versions/${latest}/diff`, undefined, signal);
            await api('GET', `/api/versions/${latest}`, undefined, signal);
            await api('GET', `/api/files/${flappingFileId}`, undefined, signal);
          }),
        ]);
      },
      () => flapping.served() > 2,
    );
    // The origin flapped: several versions were fetched.
    expect(flapping.served()).toBeGreaterThan(2);
    expectHeld(result);
  });

  it('ten concurrent impact clients', async () => {
    let answered = 0;
    const result = await underAttack(
      'impact clients',
      (signal) =>
        clients(10, signal, async () => {
          const reply = await api(
            'POST',
            '/api/impact',
            {
              fileId: flappingFileId,
              draft: answered % 2 === 0 ? fileB : fileA,
              urls: Array.from({ length: 500 }, (_, i) => `${flapping.base}/catalogue-${i}/section-a/p.html`),
            },
            signal,
          );
          if (reply.status === 200) answered++;
          else if (reply.status !== 429) throw new Error(`impact: ${reply.status} ${JSON.stringify(reply.body)}`);
        }),
      () => answered > 0,
    );
    expect(answered).toBeGreaterThan(0);
    expectHeld(result);
  });

  it('a webhook receiver that never answers, beside one that answers', async () => {
    const hanging = await receiver(true);
    const healthy = await receiver(false);
    closers.push(hanging.close, healthy.close);
    for (const hook of [hanging, healthy]) {
      expect((await api('POST', '/api/webhooks', { url: hook.url })).status).toBe(201);
    }
    const flip = await origin(['User-agent: *\nDisallow: /a/\n', 'User-agent: *\nDisallow: /\n']);
    closers.push(flip.close);
    const flipFile = await addProperty(flip.base);
    const result = await underAttack('hanging webhook receiver', (signal) =>
      clients(1, signal, async () => {
        await api('POST', `/api/files/${flipFile}/recrawl`, undefined, signal);
        await sleep(300);
      }),
    );
    expect(hanging.ids.length).toBeGreaterThan(0);
    expect(healthy.ids.length).toBeGreaterThan(0);
    webhookReceivers.push(hanging, healthy);
    expectHeld(result);
  });

  it('hundreds of slow-body clients', async () => {
    const sockets: Socket[] = [];
    const port = Number(new URL(url).port);
    const result = await underAttack('slow-body clients', async (signal) => {
      for (let i = 0; i < 400; i++) {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => {});
        socket.write(
          `POST /api/properties HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"property":"`,
        );
        sockets.push(socket);
      }
      while (!signal.aborted) {
        for (const socket of sockets) if (!socket.destroyed) socket.write('a');
        await sleep(500);
      }
    });
    const open = sockets.filter((s) => !s.destroyed).length;
    for (const socket of sockets) socket.destroy();
    // They were held by the service (its request timeout is 30 s), not refused.
    expect(open).toBeGreaterThan(300);
    expectHeld(result);
  });

  it('big POST /api/test (500 KB hostile file, 10,000 verdicts) and /api/decide (10,000 URLs) requests', async () => {
    const decided = await origin([fileA]);
    closers.push(decided.close);
    const crawlers = Array.from({ length: 50 }, (_, i) => `Bot${String.fromCharCode(97 + (i % 26))}${i}`);
    const testBody = {
      robots: HOSTILE,
      urls: Array.from({ length: 200 }, (_, i) => `https://site.invalid/${'a'.repeat(500)}${i}`),
      userAgents: crawlers,
    };
    const decideBody = {
      crawler: 'Googlebot',
      urls: Array.from({ length: 10_000 }, (_, i) => `${decided.base}/catalogue-${i}/section-a/p${i}.html`),
    };
    const statuses: number[] = [];
    // Any other answer, with what would explain it: the route, how long the request took and when it started in the
    // attack, and the error's code and message (a 408 once came here, seldom, on a slow machine).
    const others: string[] = [];
    const attackStart = Date.now();
    const send = async (path: string, body: unknown, signal: AbortSignal) => {
      const started = Date.now();
      const answer = await api('POST', path, body, signal);
      statuses.push(answer.status);
      if (answer.status !== 200 && answer.status !== 429) {
        const error = answer.body?.error as { code?: string; message?: string } | undefined;
        others.push(
          `${answer.status} ${path} after ${Date.now() - started} ms, sent ${started - attackStart} ms into the attack: ${error?.code} ${error?.message}`,
        );
      }
    };
    const result = await underAttack(
      'big test and decide requests',
      (signal) =>
        Promise.all([
          clients(2, signal, () => send('/api/test', testBody, signal)),
          clients(2, signal, () => send('/api/decide', decideBody, signal)),
        ]).then(() => {}),
      () => statuses.includes(200),
    );
    expect(statuses.length).toBeGreaterThan(0);
    expect(others).toEqual([]);
    expectHeld(result);
  });

  const webhookReceivers: { ids: string[] }[] = [];

  it('sent no webhook delivery twice', () => {
    expect(webhookReceivers.length).toBe(2);
    for (const hook of webhookReceivers) expect(new Set(hook.ids).size).toBe(hook.ids.length);
    expect(newSites).toBe(measured.length);
  });

  it("kept the service's memory under 512 MB through every attack (its peak RSS)", () => {
    expect(rssOf(serve.pid!, 'VmHWM')).toBeLessThan(RSS_LIMIT_BYTES);
  });
});

/** A webhook receiver on 127.0.0.1 noting each delivery's `webhook-id`: answers 204 at once, or (`hang`) never. */
async function receiver(hang: boolean): Promise<Listening & { url: string; ids: string[] }> {
  const ids: string[] = [];
  const site = await listen((request, response) => {
    request.resume();
    request.on('end', () => {
      ids.push(String(request.headers['webhook-id']));
      if (!hang) response.writeHead(204).end();
    });
  });
  return { ...site, url: `${site.base}/hooks/${hang ? 'hanging' : 'healthy'}`, ids };
}

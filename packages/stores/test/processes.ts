/**
 * Servers the fault tests start and own, so they may freeze (SIGSTOP) and kill them: Debian's `redis-server` on a free
 * port (alone, as a 3-node cluster, or watched by a sentinel), a TCP port that accepts connections and never answers,
 * and a TCP proxy that can freeze (stop passing bytes, keeping connections open) or cut what goes through it. Each
 * returns a `stop()` that ends its processes and removes its files; the tests call it in their cleanup.
 */

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Debian's Redis server and client (`apt-get install redis-server`); other paths through the environment. */
const REDIS_SERVER = process.env.ROBOTSKIT_TEST_REDIS_SERVER ?? 'redis-server';
const REDIS_CLI = process.env.ROBOTSKIT_TEST_REDIS_CLI ?? 'redis-cli';

/** A TCP port nobody listens on now (free when asked; the caller binds it at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A redis-server of the test's own. */
export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  readonly process: ChildProcess;
  /** SIGSTOP: the kernel still accepts connections, nothing answers. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  /** SIGKILL, and waits for the process to end. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

async function cli(port: number, ...args: string[]): Promise<string> {
  const { stdout } = await run(REDIS_CLI, ['-h', '127.0.0.1', '-p', String(port), ...args], { timeout: 10_000 });
  return stdout;
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`${what} did not happen within ${ms} ms`);
    await sleep(100);
  }
}

/** Starts `redis-server` on a free port in a folder of its own (removed by `stop`), with `extra` arguments. */
export function startRedis(extra: string[] = [], dir?: string): Promise<OwnRedis> {
  return startServer(
    (port, home) => [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      home,
      ...extra,
    ],
    dir,
  );
}

async function startServer(args: (port: number, home: string) => string[], dir?: string): Promise<OwnRedis> {
  const port = await freePort();
  const home = dir ?? mkdtempSync(join(tmpdir(), 'redis-'));
  const child = spawn(REDIS_SERVER, args(port, home), { stdio: 'ignore' });
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const self: OwnRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    process: child,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await ended;
    },
    async stop() {
      child.kill('SIGCONT');
      await self.kill();
      if (dir === undefined) rmSync(home, { recursive: true, force: true });
    },
  };
  try {
    await waitFor(`redis-server on ${port}`, async () => (await cli(port, 'PING')).trim() === 'PONG');
  } catch (error) {
    await self.stop();
    throw error;
  }
  return self;
}

/**
 * Whether a client other than the one asking has run a command past the connection's handshake (`HELLO`,
 * `CLIENT SETINFO`, `AUTH`, `SELECT`): a store that has opened (a store's first command, `INFO`, proves the server
 * answers). Counting connections is not enough: a server frozen between the TCP connection and that first answer
 * fails the store's opening instead of stalling it.
 */
export async function storeOpened(redis: OwnRedis): Promise<boolean> {
  const handshake = new Set(['NULL', 'client|list', 'client|setinfo', 'hello', 'auth', 'select']);
  const list = await cli(redis.port, 'CLIENT', 'LIST');
  return list.split('\n').some((line) => {
    const cmd = /\bcmd=(\S+)/.exec(line)?.[1];
    return cmd !== undefined && !handshake.has(cmd);
  });
}

/** A Redis Cluster of three masters (no replicas), each its own redis-server. */
export interface OwnCluster {
  readonly nodes: readonly OwnRedis[];
  stop(): Promise<void>;
}

export async function startRedisCluster(): Promise<OwnCluster> {
  const home = mkdtempSync(join(tmpdir(), 'cluster-'));
  const nodes: OwnRedis[] = [];
  const stop = async () => {
    for (const node of nodes) await node.stop();
    rmSync(home, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      nodes.push(
        await startRedis(
          ['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${i}.conf`, '--cluster-node-timeout', '5000'],
          home,
        ),
      );
    }
    await cli(
      nodes[0]!.port,
      '--cluster',
      'create',
      ...nodes.map((n) => `127.0.0.1:${n.port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    );
    for (const node of nodes) {
      await waitFor('cluster_state:ok', async () =>
        (await cli(node.port, 'CLUSTER', 'INFO')).includes('cluster_state:ok'),
      );
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { nodes, stop };
}

/** A master and a sentinel watching it under the name `name`. */
export interface OwnSentinel {
  readonly master: OwnRedis;
  readonly sentinel: OwnRedis;
  readonly name: string;
  stop(): Promise<void>;
}

export async function startSentinel(): Promise<OwnSentinel> {
  const home = mkdtempSync(join(tmpdir(), 'sentinel-'));
  const name = 'robotskit';
  let master: OwnRedis | null = null;
  let sentinel: OwnRedis | null = null;
  const stop = async () => {
    await sentinel?.stop();
    await master?.stop();
    rmSync(home, { recursive: true, force: true });
  };
  try {
    master = await startRedis([], home);
    const config = join(home, 'sentinel.conf');
    writeFileSync(config, `sentinel monitor ${name} 127.0.0.1 ${master.port} 1\n`);
    // The configuration file comes first; a sentinel rewrites it, so it lives in the test's folder.
    sentinel = await startServer(
      (port) => [config, '--sentinel', '--port', String(port), '--bind', '127.0.0.1', '--dir', home],
      home,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { master, sentinel, name, stop };
}

/** A TCP port on 127.0.0.1 that accepts connections and never sends a byte. */
export interface SilentPort {
  readonly port: number;
  /** Connections accepted so far. */
  readonly accepted: number;
  stop(): Promise<void>;
}

export async function startSilentPort(): Promise<SilentPort> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    get accepted() {
      return accepted;
    },
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A TCP proxy that can freeze: bytes stop moving both ways while every connection stays open, as with a stalled server. */
export interface FreezingProxy {
  readonly port: number;
  freeze(): void;
  thaw(): void;
  /** Cuts every connection and refuses new ones, as a killed server does. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export async function startFreezingProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<FreezingProxy> {
  // Bytes are passed by hand rather than piped: a piped stream resumes by itself when its destination drains.
  const links = new Set<{ sockets: [Socket, Socket]; held: [Buffer[], Buffer[]] }>();
  let frozen = false;
  const flush = (link: { sockets: [Socket, Socket]; held: [Buffer[], Buffer[]] }) => {
    for (const side of [0, 1] as const) {
      for (const chunk of link.held[side].splice(0)) link.sockets[1 - side]!.write(chunk);
    }
  };
  const server = createServer((socket) => {
    const upstream = createConnection({ host: targetHost, port: targetPort });
    const link = { sockets: [socket, upstream] as [Socket, Socket], held: [[], []] as [Buffer[], Buffer[]] };
    links.add(link);
    for (const side of [0, 1] as const) {
      link.sockets[side].on('data', (chunk: Buffer) => {
        if (frozen) link.held[side].push(chunk);
        else link.sockets[1 - side]!.write(chunk);
      });
    }
    const end = () => {
      socket.destroy();
      upstream.destroy();
      links.delete(link);
    };
    for (const s of link.sockets) {
      s.on('error', end);
      s.on('close', end);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  let closed = false;
  const kill = async () => {
    for (const link of links) for (const s of link.sockets) s.destroy();
    links.clear();
    if (!closed) {
      closed = true;
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
  return {
    port: address.port,
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const link of links) flush(link);
    },
    kill,
    stop: kill,
  };
}

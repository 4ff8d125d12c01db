/**
 * The real Redis and PostgreSQL the store tests run against, each test on keys or a schema of its own. In CI
 * (`CI=true`) both are required: an unreachable one fails the run. Elsewhere their tests are skipped with the reason
 * printed. Also a TCP proxy in front of either, to cut the store off and bring it back.
 */

import { randomUUID } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { createClient } from '@redis/client';
import pg from 'pg';

export const REDIS_URL = process.env.ROBOTSKIT_TEST_REDIS ?? 'redis://127.0.0.1:6379/7';
export const PG_URL = process.env.ROBOTSKIT_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/test';

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}

async function probeRedis(): Promise<string | null> {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 5000, reconnectStrategy: false } });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return messageOf(error);
  } finally {
    if (client.isOpen) await client.close();
  }
}

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return messageOf(error);
  } finally {
    await client.end().catch(() => {});
  }
}

function required(name: string, url: string, problem: string | null): string | null {
  if (problem === null) return null;
  if (process.env.CI === 'true') throw new Error(`${name} at ${url} is required in CI and unreachable: ${problem}`);
  console.warn(`skipping ${name} tests: ${url} is unreachable (${problem})`);
  return problem;
}

/** Why the Redis tests are skipped, or null. */
export const redisProblem = required('Redis', REDIS_URL, await probeRedis());
/** Why the PostgreSQL tests are skipped, or null. */
export const pgProblem = required('PostgreSQL', PG_URL, await probePostgres());

/** A key prefix no other test uses. */
export function freshPrefix(): string {
  return `robotskit-test:${randomUUID()}:`;
}

/** Deletes every key under a prefix. */
export async function dropPrefix(prefix: string, url = REDIS_URL): Promise<void> {
  const client = createClient({ url });
  client.on('error', () => {});
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) keys.push(...batch);
    if (keys.length > 0) await client.del(keys);
  } finally {
    await client.close();
  }
}

/** A schema name no other test uses. */
export function freshSchema(): string {
  return `s_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
}

/** Drops a schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** A TCP proxy on 127.0.0.1 in front of `target`: `down()` cuts every connection and refuses new ones; `up()` heals. */
export interface Proxy {
  readonly port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startProxy(targetHost: string, targetPort: number): Promise<Proxy> {
  const sockets = new Set<Socket>();
  let port = 0;
  let server: Server | null = null;
  const listen = async () => {
    const s = createServer((socket) => {
      const upstream = createConnection({ host: targetHost, port: targetPort });
      sockets.add(socket);
      sockets.add(upstream);
      socket.pipe(upstream).pipe(socket);
      const end = () => {
        socket.destroy();
        upstream.destroy();
        sockets.delete(socket);
        sockets.delete(upstream);
      };
      socket.on('error', end);
      upstream.on('error', end);
      socket.on('close', end);
      upstream.on('close', end);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    port = address.port;
    server = s;
  };
  const down = async () => {
    const s = server;
    server = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (s !== null) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  await listen();
  return {
    get port() {
      return port;
    },
    down,
    up: listen,
    close: down,
  };
}

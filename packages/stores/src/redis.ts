/**
 * A {@link RobotsStore} on Redis, with fleet-wide fetch leases: one key per origin holding its fetch history (bodies as
 * bytes, base64 inside the JSON value) and expiring once the 30-day rule no longer needs it, one key per held lease
 * with its expiry kept by Redis (`SET … PX`). A claim (read, lease) and a publish (write, release, wake) are one
 * script each; a claim that finds the lease held elsewhere leaves a `waiting` key, and only then does the publish wake
 * the fleet (`PUBLISH` on `<prefix>written`, the record in the message), so a fleet makes about one command per origin
 * and process. The keys of an origin carry it as their hash tag (`{origin}`), so they live on one node of a Redis
 * Cluster (and one script may use them all); a cluster is recognised at start (`cluster_enabled`) and addressed as
 * one. Every call is bounded in time (see `guard.ts`).
 */

import { createClient, createCluster, createSentinel, type RedisClientType } from '@redis/client';
import type { LeaseClaim, OriginWrittenListener, RobotsStore, RobotsStoreHealth } from 'robotskit/fetch';
import { RobotsStoreError } from './errors.js';
import { CallGuard, messageOf, withDeadline } from './guard.js';
import { expiresAt, recordFromJson, recordToJson } from './records.js';

/** Options of {@link createRedisRobotsStore}. */
export interface RedisRobotsStoreOptions {
  /**
   * `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS). When the server is a node of a Redis Cluster,
   * the store addresses the whole cluster through it.
   */
  readonly url: string;
  /**
   * Put before every key, so several caches (or tests) can share one database.
   * @default 'robotskit:'
   */
  readonly keyPrefix?: string;
  /**
   * How long a command may take before it fails; the store then counts as stalled and its calls fail at once (the
   * client goes on without it) until Redis answers again.
   * @default 5000
   */
  readonly commandTimeoutMs?: number;
  /**
   * How long connecting may take, at start (until Redis has answered a first command) and at each reconnection.
   * @default 5000
   */
  readonly connectTimeoutMs?: number;
  /** Sentinel instead of `url`'s server: the sentinels to ask and the name of the master they watch. */
  readonly sentinel?: { readonly name: string; readonly sentinels: readonly { host: string; port: number }[] };
}

/** A store on Redis; {@link RedisRobotsStore.close} ends its connection. */
export interface RedisRobotsStore extends Required<RobotsStore> {
  /** The prefix of this store's keys. */
  readonly keyPrefix: string;
  /** `server`, `cluster` or `sentinel`: what the URL turned out to name. */
  readonly topology: 'server' | 'cluster' | 'sentinel';
  /** Whether Redis answers, or since when it has not (see {@link RobotsStoreHealth}). */
  health(): RobotsStoreHealth;
  close(): Promise<void>;
}

// Takes the lease when it is free or already this holder's (a renewal); Redis keeps the expiry.
const ACQUIRE = `local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

// KEYS: lease, waiting. Gives the lease up if the holder's, and wakes the waiters (without a record).
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  if redis.call('DEL', KEYS[2]) == 1 then redis.call('PUBLISH', ARGV[2], ARGV[3] .. '\\n') end
end
return 0`;

// KEYS: record, lease, waiting; ARGV: holder, ttl, now, wait. The record, and unless it is due after now (its
// nextFetchAt, the JSON's last field, written by the engine) the lease; held elsewhere, a waiting mark.
const CLAIM = `local rec = redis.call('GET', KEYS[1])
if rec then
  local due = tonumber(string.match(rec, '"nextFetchAt":(%-?[%d%.eE%+]+)}$'))
  if due and due > tonumber(ARGV[3]) then return {0, rec, 0} end
else
  rec = ''
end
local v = redis.call('GET', KEYS[2])
if v == false or v == ARGV[1] then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
  return {1, rec, 0}
end
redis.call('SET', KEYS[3], '1', 'PX', ARGV[4])
return {2, rec, redis.call('PTTL', KEYS[2])}`;

// KEYS: record, lease, waiting; ARGV: record, holder, channel, origin, expiry (epoch ms). Writes (to expire when the
// 30-day rule no longer needs it), releases, and wakes the waiters.
const PUBLISH = `redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[5])
if redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('DEL', KEYS[2]) end
if redis.call('DEL', KEYS[3]) == 1 then redis.call('PUBLISH', ARGV[3], ARGV[4] .. '\\n' .. ARGV[1]) end
return 0`;

const CLAIMS = ['fresh', 'held', 'elsewhere'] as const;

/** A client of one server, of a cluster or behind Sentinel, typed as one (the store's commands are the same on all). */
interface Connected {
  readonly client: RedisClientType;
  readonly topology: RedisRobotsStore['topology'];
}

/**
 * Connects to Redis (the server, the cluster it belongs to, or the master Sentinel names) and returns a store on it.
 * Commands fail at once while the connection is down (no offline queue) and after `commandTimeoutMs` when Redis does
 * not answer; the store then counts as stalled, and its calls fail at once until Redis answers again, so a crawl
 * client with `onStoreError` goes on from memory. The connection is re-made in the background.
 * @throws RobotsStoreError when Redis cannot be reached, or does not answer, within `connectTimeoutMs` at start.
 */
export async function createRedisRobotsStore(options: RedisRobotsStoreOptions): Promise<RedisRobotsStore> {
  const keyPrefix = options.keyPrefix ?? 'robotskit:';
  const commandTimeout = options.commandTimeoutMs ?? 5000;
  const where =
    options.sentinel === undefined
      ? `Redis at ${redactUrl(options.url)}`
      : `Redis master ${options.sentinel.name} of Sentinel ${options.sentinel.sentinels.map((s) => `${s.host}:${s.port}`).join(',')}`;
  const { client, topology } = await connect(options, where);
  // Both keys of an origin share its hash tag, so a cluster keeps them on one node (and a script may use both).
  const recordKey = (origin: string) => `${keyPrefix}origin:{${origin}}`;
  const leaseKey = (origin: string) => `${keyPrefix}lease:{${origin}}`;
  const waitingKey = (origin: string) => `${keyPrefix}waiting:{${origin}}`;
  const channel = `${keyPrefix}written`;
  const wakes = subscriptions(client, channel);
  const probeKey = `${keyPrefix}probe`;
  const guard = new CallGuard({ timeoutMs: commandTimeout, what: where, probe: () => client.get(probeKey) });

  const store: Omit<Required<RobotsStore>, 'subscribe'> = {
    async get(origin) {
      const text = await client.get(recordKey(origin));
      return text === null ? undefined : recordFromJson(text);
    },
    async set(origin, record) {
      // Forgotten by Redis once the 30-day rule no longer needs it (each write sets the expiry anew).
      const expiry = { type: 'PXAT', value: expiresAt(record.history, Date.now()) } as const;
      await client.set(recordKey(origin), recordToJson(record), { expiration: expiry });
    },
    async acquireLease(origin, holder, ttlMs) {
      const reply = await client.eval(ACQUIRE, { keys: [leaseKey(origin)], arguments: [holder, String(ttlMs)] });
      return reply === 1;
    },
    async releaseLease(origin, holder) {
      await client.eval(RELEASE, {
        keys: [leaseKey(origin), waitingKey(origin)],
        arguments: [holder, channel, origin],
      });
    },
    async claimLease(origin, holder, ttlMs, now, waitMs): Promise<LeaseClaim> {
      const reply = (await client.eval(CLAIM, {
        keys: [recordKey(origin), leaseKey(origin), waitingKey(origin)],
        arguments: [holder, String(Math.ceil(ttlMs)), String(now), String(Math.ceil(waitMs))],
      })) as [number, string, number];
      const [state, text, left] = reply;
      return {
        lease: CLAIMS[state] ?? 'elsewhere',
        record: text === '' ? undefined : recordFromJson(text),
        leaseLeftMs: state === 2 ? Math.max(1, left) : 0,
      };
    },
    async publish(origin, record, holder) {
      await client.eval(PUBLISH, {
        keys: [recordKey(origin), leaseKey(origin), waitingKey(origin)],
        arguments: [recordToJson(record), holder, channel, origin, String(expiresAt(record.history, Date.now()))],
      });
    },
  };

  return {
    keyPrefix,
    topology,
    health: () => guard.health(),
    get: (origin) => guard.run(async () => store.get(origin)),
    set: (origin, record) => guard.run(async () => store.set(origin, record)),
    acquireLease: (origin, holder, ttlMs) => guard.run(async () => store.acquireLease(origin, holder, ttlMs)),
    releaseLease: (origin, holder) => guard.run(async () => store.releaseLease(origin, holder)),
    claimLease: (origin, holder, ttlMs, now, waitMs) =>
      guard.run(async () => store.claimLease(origin, holder, ttlMs, now, waitMs)),
    publish: (origin, record, holder) => guard.run(async () => store.publish(origin, record, holder)),
    // The subscribed connection is a duplicate of the store's; subscribing is bounded like every call (a frozen Redis
    // accepts the connection and never answers), and the client then waits without wake-ups.
    subscribe: (listener) => guard.run(() => wakes.add(listener)),
    async close() {
      const busy = guard.busy();
      guard.close();
      await withDeadline(wakes.close(), commandTimeout, () => new Error('close timed out')).catch(() => {});
      if (!client.isOpen) return;
      // A graceful close waits for the answers of pending commands, which a stalled Redis never gives (and once it
      // has begun, the client can no longer be destroyed): pending calls fail instead.
      if (busy) return destroy(client);
      await withDeadline(client.close(), commandTimeout, () => new Error('close timed out')).catch(() => {});
    },
  };
}

/** The options' server, cluster or Sentinel master, connected and answering; else a RobotsStoreError. */
async function connect(options: RedisRobotsStoreOptions, where: string): Promise<Connected> {
  const connectTimeout = options.connectTimeoutMs ?? 5000;
  let started = false;
  let lastError: unknown = null;
  const clientOptions = {
    disableOfflineQueue: true,
    commandOptions: { timeout: options.commandTimeoutMs ?? 5000 },
    socket: {
      connectTimeout,
      // Give up at once when the first connection fails; later, try again every few seconds for as long as it takes.
      reconnectStrategy: (retries: number, cause: Error) => (started ? Math.min(100 * 2 ** retries, 3000) : cause),
    },
  };
  const failed = (error: unknown) =>
    new RobotsStoreError(`cannot reach ${where}: ${messageOf(error ?? lastError)}`, { cause: error });
  const noAnswer = () => new Error(`no answer within ${connectTimeout} ms`);
  // Errors reach the callers of commands; the event is only kept so that an unhandled one cannot end the process.
  const onError = (error: unknown) => {
    lastError = error;
  };
  if (options.sentinel !== undefined) {
    // Asked first by plain clients: node-redis's Sentinel client retries unreachable sentinels and prints each
    // failure on standard output, which a command's output must not carry.
    try {
      await withDeadline(askSentinels(options.sentinel, clientOptions.socket.connectTimeout), connectTimeout, noAnswer);
    } catch (error) {
      throw failed(error);
    }
    const sentinel = createSentinel({
      name: options.sentinel.name,
      sentinelRootNodes: options.sentinel.sentinels.map((s) => ({ host: s.host, port: s.port })),
      nodeClientOptions: { ...credentialsOf(options.url), ...clientOptions },
      sentinelClientOptions: { socket: clientOptions.socket },
    });
    sentinel.on('error', onError);
    try {
      await withDeadline(
        sentinel.connect().then(() => sentinel.get(`${options.keyPrefix ?? 'robotskit:'}probe`)),
        connectTimeout,
        noAnswer,
      );
    } catch (error) {
      destroy(sentinel);
      throw failed(error);
    }
    started = true;
    return { client: sentinel as unknown as RedisClientType, topology: 'sentinel' };
  }
  const single = createClient({ url: options.url, ...clientOptions }) as RedisClientType;
  single.on('error', onError);
  let info: string;
  try {
    // The first answer proves the server is not only accepting connections; it also says whether it is a cluster.
    info = await withDeadline(
      single.connect().then(() => single.info('cluster')),
      connectTimeout,
      noAnswer,
    );
  } catch (error) {
    destroy(single);
    throw failed(error);
  }
  if (!/^cluster_enabled:1/m.test(info)) {
    started = true;
    return { client: single, topology: 'server' };
  }
  destroy(single);
  // A cluster has database 0 only (a node refuses SELECT, so another number failed above).
  const root = new URL(options.url);
  root.pathname = '';
  const cluster = createCluster({
    rootNodes: [{ url: root.href }],
    defaults: { ...credentialsOf(options.url), ...clientOptions },
  });
  cluster.on('error', onError);
  try {
    await withDeadline(cluster.connect(), connectTimeout, noAnswer);
  } catch (error) {
    destroy(cluster);
    throw failed(error);
  }
  started = true;
  return { client: cluster as unknown as RedisClientType, topology: 'cluster' };
}

/** The master's address from the first sentinel that knows it; else the last sentinel's failure. */
async function askSentinels(
  sentinel: NonNullable<RedisRobotsStoreOptions['sentinel']>,
  connectTimeout: number,
): Promise<string> {
  let last: unknown = new Error('no sentinel given');
  for (const node of sentinel.sentinels) {
    const client = createClient({
      socket: { host: node.host, port: node.port, connectTimeout, reconnectStrategy: false },
    });
    client.on('error', () => {});
    try {
      await client.connect();
      const reply = (await client.sendCommand(['SENTINEL', 'get-master-addr-by-name', sentinel.name])) as
        | string[]
        | null;
      if (reply !== null && reply.length === 2) return `${reply[0]}:${reply[1]}`;
      last = new Error(`sentinel ${node.host}:${node.port} knows no master named ${sentinel.name}`);
    } catch (error) {
      last = error;
    } finally {
      destroy(client);
    }
  }
  throw last;
}

/** Ends a client at once, whatever state it is in (destroying a closed one throws). */
function destroy(client: { destroy(): void }): void {
  try {
    client.destroy();
  } catch {}
}

/** The user name and password of a URL, for the other nodes of a cluster or behind Sentinel. */
function credentialsOf(url: string): { username?: string; password?: string } {
  try {
    const u = new URL(url);
    return {
      ...(u.username === '' ? {} : { username: decodeURIComponent(u.username) }),
      ...(u.password === '' ? {} : { password: decodeURIComponent(u.password) }),
    };
  } catch {
    return {};
  }
}

/**
 * The store's wake-ups: one subscribed connection (a duplicate of the store's, made for the first subscriber), each
 * message handed to every listener. node-redis subscribes again after a reconnection; a message lost meanwhile costs
 * the waiters their slow poll, never an answer.
 */
function subscriptions(client: RedisClientType, channel: string) {
  const listeners = new Set<OriginWrittenListener>();
  let subscriber: Promise<RedisClientType> | null = null;
  // Kept as soon as it exists, so that closing ends it whatever it is doing (connecting to a Redis that never answers).
  let connection: RedisClientType | null = null;
  const onMessage = (message: string) => {
    const cut = message.indexOf('\n');
    if (cut < 0) return;
    const origin = message.slice(0, cut);
    let record: ReturnType<typeof recordFromJson> | undefined;
    try {
      record = cut + 1 < message.length ? recordFromJson(message.slice(cut + 1)) : undefined;
    } catch {
      record = undefined;
    }
    for (const listener of listeners) listener(origin, record);
  };
  return {
    async add(listener: OriginWrittenListener): Promise<() => void> {
      listeners.add(listener);
      subscriber ??= (async () => {
        const sub = client.duplicate() as RedisClientType;
        connection = sub;
        sub.on('error', () => {});
        await sub.connect();
        await sub.subscribe(channel, onMessage);
        return sub;
      })();
      try {
        await subscriber;
      } catch (error) {
        listeners.delete(listener);
        subscriber = null;
        throw error;
      }
      return () => {
        listeners.delete(listener);
      };
    },
    async close() {
      subscriber = null;
      listeners.clear();
      const sub = connection;
      connection = null;
      // At once: a graceful close would wait for answers a stalled Redis never gives.
      if (sub !== null) destroy(sub);
    },
  };
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return '(an unparseable URL)';
  }
}

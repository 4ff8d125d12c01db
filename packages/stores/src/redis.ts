/**
 * A {@link RobotsStore} on Redis, with fleet-wide fetch leases: one key per origin holding its fetch history (bodies as
 * bytes, base64 inside the JSON value), one key per held lease with its expiry kept by Redis (`SET … NX PX`).
 */

import { createClient, type RedisClientType } from '@redis/client';
import type { RobotsStore, StoredOrigin } from 'robotskit/fetch';
import { RobotsStoreError } from './errors.js';
import { bytesOf, fetchFromJson, fetchToJson, nextFetchAt } from './records.js';

/** Options of {@link createRedisRobotsStore}. */
export interface RedisRobotsStoreOptions {
  /** `redis://[user:password@]host[:port][/db]` (or `rediss://` for TLS). */
  readonly url: string;
  /**
   * Put before every key, so several caches (or tests) can share one database.
   * @default 'robotskit:'
   */
  readonly keyPrefix?: string;
  /**
   * How long a command may take before it fails (the client then goes on without the store).
   * @default 5000
   */
  readonly commandTimeoutMs?: number;
  /**
   * How long connecting may take, at start and at each reconnection.
   * @default 5000
   */
  readonly connectTimeoutMs?: number;
}

/** A store on Redis; {@link RedisRobotsStore.close} ends its connection. */
export interface RedisRobotsStore extends Required<RobotsStore> {
  /** The prefix of this store's keys. */
  readonly keyPrefix: string;
  close(): Promise<void>;
}

// Takes the lease when it is free or already this holder's; Redis keeps the expiry.
const ACQUIRE = `local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface StoredJson {
  readonly origin: string;
  readonly history: readonly unknown[];
  readonly bodies: readonly (string | null)[];
  readonly nextFetchAt: number;
}

/**
 * Connects to Redis and returns a store on it. Commands fail at once while the connection is down (no offline queue),
 * so a crawl client with `onStoreError` goes on from memory; the connection is re-made in the background.
 * @throws RobotsStoreError when Redis cannot be reached at start.
 */
export async function createRedisRobotsStore(options: RedisRobotsStoreOptions): Promise<RedisRobotsStore> {
  const keyPrefix = options.keyPrefix ?? 'robotskit:';
  const commandTimeout = options.commandTimeoutMs ?? 5000;
  let started = false;
  let lastError: unknown = null;
  const client: RedisClientType = createClient({
    url: options.url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeout },
    socket: {
      connectTimeout: options.connectTimeoutMs ?? 5000,
      // Give up at once when the first connection fails; later, try again every few seconds for as long as it takes.
      reconnectStrategy: (retries: number, cause: Error) => (started ? Math.min(100 * 2 ** retries, 3000) : cause),
    },
  }) as RedisClientType;
  // Errors reach the callers of commands; the event is only kept so that an unhandled one cannot end the process.
  client.on('error', (error: unknown) => {
    lastError = error;
  });
  try {
    await client.connect();
  } catch (error) {
    if (client.isOpen) client.destroy();
    throw new RobotsStoreError(`cannot reach Redis at ${redactUrl(options.url)}: ${messageOf(error ?? lastError)}`, {
      cause: error,
    });
  }
  started = true;
  const recordKey = (origin: string) => `${keyPrefix}origin:${origin}`;
  const leaseKey = (origin: string) => `${keyPrefix}lease:${origin}`;

  return {
    keyPrefix,
    async get(origin) {
      const text = await client.get(recordKey(origin));
      if (text === null) return undefined;
      const json = JSON.parse(text) as StoredJson;
      const history = json.history.map((entry, i) => {
        const body = json.bodies[i] ?? null;
        return fetchFromJson(entry, body === null ? null : bytesOf(Buffer.from(body, 'base64')));
      });
      return { origin: json.origin, history } satisfies StoredOrigin;
    },
    async set(origin, record) {
      const json: StoredJson = {
        origin: record.origin,
        history: record.history.map(fetchToJson),
        bodies: record.history.map((r) =>
          r.body === null ? null : Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength).toString('base64'),
        ),
        nextFetchAt: nextFetchAt(record.history),
      };
      await client.set(recordKey(origin), JSON.stringify(json));
    },
    async acquireLease(origin, holder, ttlMs) {
      const reply = await client.eval(ACQUIRE, { keys: [leaseKey(origin)], arguments: [holder, String(ttlMs)] });
      return reply === 1;
    },
    async releaseLease(origin, holder) {
      await client.eval(RELEASE, { keys: [leaseKey(origin)], arguments: [holder] });
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return messageOf(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
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

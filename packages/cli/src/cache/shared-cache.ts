/**
 * `--cache <url>` (`batch`, and `serve` for POST /api/decide): a robots.txt cache shared with other processes (Redis
 * or PostgreSQL) from the optional robotskit-stores package, imported only when asked for, so the commands work
 * without it.
 */

import type { RobotsStore, StoreErrorHandler } from 'robotskit/fetch';
import { CliError, type Io } from '../io.js';

/** A store opened for a run, with what the client needs to report its failures. */
export interface SharedCache {
  readonly store: RobotsStore;
  /** Says on standard error, once, that the cache failed and the run goes on from memory. */
  readonly onStoreError: StoreErrorHandler;
  close(): Promise<void>;
}

type StoresModule = typeof import('robotskit-stores');

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message || error.name : String(error);
}

/**
 * Opens the cache a `--cache` URL names.
 * @throws CliError when robotskit-stores is not installed, the URL is not a store's, or the store cannot be reached.
 */
export async function openSharedCache(
  url: string,
  io: Io,
  load: () => Promise<StoresModule> = () => import('robotskit-stores'),
): Promise<SharedCache> {
  let stores: StoresModule;
  try {
    stores = await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND') {
      throw new CliError('--cache needs the robotskit-stores package: npm install robotskit-stores', 2, {
        cause: error,
      });
    }
    throw error;
  }
  let store: Awaited<ReturnType<StoresModule['openRobotsStore']>>;
  try {
    store = await stores.openRobotsStore(url);
  } catch (error) {
    if (error instanceof stores.RobotsStoreError) throw new CliError(`--cache: ${error.message}`, 2, { cause: error });
    throw error;
  }
  let failures = 0;
  const alone = new Set<string>();
  let firstAt = 0;
  let lastAt = 0;
  return {
    store,
    onStoreError(error, operation, origin) {
      lastAt = Date.now();
      // A failed lease claim means this process fetches the origin itself, perhaps as another process does too.
      if (operation === 'lease') alone.add(origin);
      if (failures++ === 0) {
        firstAt = lastAt;
        io.stderr.write(
          `robotskit: the cache failed (${operation} ${origin}: ${messageOf(error)}); going on from memory, fetching what is missing (counts at the end)\n`,
        );
      }
    },
    async close() {
      if (failures > 0) io.stderr.write(`${failureSummary(failures, alone.size, firstAt, lastAt, store.health())}\n`);
      await store.close();
    },
  };
}

/** The line a run ends with when its cache failed: how often, when, whether it came back, and the fetches made alone. */
function failureSummary(
  failures: number,
  alone: number,
  firstAt: number,
  lastAt: number,
  health: { state: 'ok' | 'stalled'; cameBackAt: number | null },
): string {
  const at = (ms: number) => new Date(ms).toISOString();
  const back =
    health.state === 'stalled'
      ? '; it was still not answering at the end'
      : health.cameBackAt !== null && health.cameBackAt >= firstAt
        ? `; it answered again at ${at(health.cameBackAt)}`
        : '';
  return (
    `robotskit: the cache failed ${failures} store call${failures === 1 ? '' : 's'} between ${at(firstAt)} and ${at(lastAt)}${back}; ` +
    `${alone} robots.txt fetch${alone === 1 ? ' was' : 'es were'} made without the fleet's lease (other processes may have made ${alone === 1 ? 'it' : 'them'} too)`
  );
}

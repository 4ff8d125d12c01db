/**
 * `--cache <url>` (`batch`, and `serve` for POST /api/decide): a robots.txt cache shared with other processes (Redis
 * or PostgreSQL) from the optional robotskit-stores package, imported only when asked for, so the commands work
 * without it.
 */

import type { RobotsStore } from 'robotskit/fetch';
import { CliError, type Io } from '../io.js';

/** A store opened for a run, with what the client needs to report its failures. */
export interface SharedCache {
  readonly store: RobotsStore;
  /** Says on standard error, once, that the cache failed and the run goes on from memory. */
  readonly onStoreError: (error: unknown, operation: 'get' | 'set' | 'lease', origin: string) => void;
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
  return {
    store,
    onStoreError(error, operation, origin) {
      if (failures++ === 0) {
        io.stderr.write(
          `robotskit: the cache failed (${operation} ${origin}: ${messageOf(error)}); going on from memory, fetching what is missing\n`,
        );
      }
    },
    close: () => store.close(),
  };
}

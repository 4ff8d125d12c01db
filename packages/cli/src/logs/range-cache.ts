/**
 * `--ranges URL`: a published range file fetched over HTTP and kept in the user's cache folder
 * (`$ROBOTSKIT_CACHE_DIR`, else `$XDG_CACHE_HOME/robotskit`, else `%LOCALAPPDATA%\robotskit\cache` on Windows, else
 * `~/.cache/robotskit`; the files under `ranges/`), as RFC 9111 and the JAFAR draft ask of a consumer: a copy is used
 * while fresh (`Cache-Control: max-age`, else `Expires`, else 24 hours, the draft's polling interval), then revalidated
 * with `If-None-Match` / `If-Modified-Since` (a 304 keeps it); `no-cache` revalidates every time and `no-store` keeps
 * nothing. When the publisher cannot be reached or answers with an error, the last copy is used (the draft allows the
 * last known valid list) and a warning says so. `--offline` uses only the cache. A file served as
 * `application/jafar+json` with a major `version` above 1 is refused, as the draft requires.
 */

import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseCacheControl, parseHttpDate } from 'robotskit/fetch';
import { CliError, type Io } from '../io.js';
import { GetError, type GotAnswer, getUrl } from '../transport/get.js';

/** How `--ranges URL` is read. */
export interface RangeCacheOptions {
  /** The cache folder (see {@link userCacheDir}). */
  readonly dir: string;
  readonly offline: boolean;
  readonly timeoutMs: number;
  /** Says on standard error that a stale copy is used. */
  readonly warn: (message: string) => void;
  readonly now?: () => number;
}

/** The user's cache folder for robotskit, by the environment's rules (see the module comment). */
export function userCacheDir(env: Io['env']): string {
  if (env.ROBOTSKIT_CACHE_DIR) return env.ROBOTSKIT_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'robotskit');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'robotskit', 'cache');
  return join(homedir(), '.cache', 'robotskit');
}

/** One cached file, as stored (JSON). */
interface Entry {
  readonly url: string;
  readonly fetchedAt: number;
  /** Fresh until then (ms); a copy past it is revalidated. */
  readonly freshUntil: number;
  readonly etag: string | null;
  readonly lastModified: string | null;
  /** The caching headers stored with the copy: a 304 without its own keeps them (RFC 9111 §4.3.4). */
  readonly cacheControl: string | null;
  readonly expires: string | null;
  readonly body: string;
}

const DAY = 24 * 3600 * 1000;
const MAX_BYTES = 16 * 1024 * 1024;

function entryPath(dir: string, url: URL): string {
  return join(dir, 'ranges', `${createHash('sha256').update(url.href).digest('hex').slice(0, 32)}.json`);
}

async function readEntry(path: string, url: URL): Promise<Entry | null> {
  try {
    const entry = JSON.parse(await readFile(path, 'utf8')) as Entry;
    return entry.url === url.href && typeof entry.body === 'string' ? entry : null;
  } catch {
    return null;
  }
}

async function writeEntry(path: string, entry: Entry): Promise<void> {
  const dir = join(path, '..');
  try {
    await mkdir(dir, { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(entry));
    await rename(temporary, path);
  } catch (error) {
    throw new CliError(`cannot write the range cache in '${dir}': ${(error as Error).message}`, 2, { cause: error });
  }
}

/** Until when an answer may be used without asking again (RFC 9111 §4.2.1, the draft's 24 hours by default). */
function freshUntil(header: GotAnswer['header'], now: number): number {
  const directives = parseCacheControl(header('cache-control'));
  if (directives.noCache) return now;
  if (directives.maxAge !== null) return now + directives.maxAge * 1000;
  const expires = header('expires');
  if (expires !== null) {
    const at = parseHttpDate(expires);
    const date = parseHttpDate(header('date') ?? '') ?? now;
    // An Expires that is not a date means already expired (RFC 9111 §5.3).
    return at === null ? now : now + Math.max(0, at - date);
  }
  return now + DAY;
}

/** Refuses a JAFAR file of a major version this reader does not know. */
function checkVersion(answer: GotAnswer, url: URL): void {
  const type = answer.header('content-type') ?? '';
  if (!/^\s*application\/jafar\+json\b/i.test(type)) return;
  const version = /;\s*version\s*=\s*"?(\d+)(?:\.(\d+))?/i.exec(type);
  if (version !== null && Number(version[1]) > 1) {
    throw new CliError(
      `--ranges '${url.href}' is JAFAR version ${version[1]}.${version[2] ?? '0'}; this robotskit reads version 1`,
    );
  }
}

/** The text of a range file at `url`, from the cache or the network (see the module comment). */
export async function readRangeUrl(url: URL, options: RangeCacheOptions): Promise<string> {
  const now = (options.now ?? Date.now)();
  const path = entryPath(options.dir, url);
  const cached = await readEntry(path, url);
  if (options.offline) {
    if (cached === null) {
      throw new CliError(
        `--offline: no copy of '${url.href}' in the cache (${options.dir}); run once without --offline`,
      );
    }
    return cached.body;
  }
  if (cached !== null && now < cached.freshUntil) return cached.body;
  const headers: Record<string, string> = { accept: 'application/jafar+json, application/json;q=0.9' };
  if (cached?.etag) headers['if-none-match'] = cached.etag;
  if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
  let answer: GotAnswer;
  try {
    answer = await getUrl(url.href, { headers, timeoutMs: options.timeoutMs, maxBytes: MAX_BYTES });
  } catch (error) {
    if (!(error instanceof GetError)) throw error;
    if (cached === null)
      throw new CliError(`cannot fetch --ranges '${url.href}': ${error.message}`, 2, { cause: error });
    options.warn(
      `cannot fetch ${url.href} (${error.message}); using the copy of ${new Date(cached.fetchedAt).toISOString()}`,
    );
    return cached.body;
  }
  if (answer.status === 304 && cached !== null) {
    const stored: Record<string, string | null> = { 'cache-control': cached.cacheControl, expires: cached.expires };
    const header = (name: string) => answer.header(name) ?? stored[name] ?? null;
    if (!parseCacheControl(header('cache-control')).noStore) {
      await writeEntry(path, {
        ...cached,
        freshUntil: freshUntil(header, now),
        etag: answer.header('etag') ?? cached.etag,
        cacheControl: header('cache-control'),
        expires: header('expires'),
      });
    }
    return cached.body;
  }
  if (answer.status !== 200) {
    if (cached === null) throw new CliError(`cannot fetch --ranges '${url.href}': HTTP ${answer.status}`);
    options.warn(
      `${url.href} answered HTTP ${answer.status}; using the copy of ${new Date(cached.fetchedAt).toISOString()}`,
    );
    return cached.body;
  }
  checkVersion(answer, url);
  const body = new TextDecoder().decode(answer.body);
  try {
    JSON.parse(body);
  } catch {
    // Not cached: the last good copy, if any, stays for the next run.
    throw new CliError(`--ranges '${url.href}' is not JSON (expected { "prefixes": [{ "ipv4Prefix": … }] })`);
  }
  if (!parseCacheControl(answer.header('cache-control')).noStore) {
    await writeEntry(path, {
      url: url.href,
      fetchedAt: now,
      freshUntil: freshUntil(answer.header, now),
      etag: answer.header('etag'),
      lastModified: answer.header('last-modified'),
      cacheControl: answer.header('cache-control'),
      expires: answer.header('expires'),
      body,
    });
  }
  return body;
}

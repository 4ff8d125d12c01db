/**
 * Loading API data into a page: {@link useApi} fetches a path, keeps the last good answer while reloading (no flicker
 * on refresh), and can poll; {@link useNow} re-renders relative times.
 */

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, apiGet, toApiError } from '../api.js';

interface ApiState<T> {
  /** The last answer, kept while a reload runs. */
  readonly data: T | null;
  /** The last failure, cleared by the next success. */
  readonly error: ApiError | null;
  /** True until the first answer or failure. */
  readonly loading: boolean;
  /** Loads again now; resolves when done (never rejects). */
  readonly reload: () => Promise<void>;
}

/** How often {@link useApi} loads again. */
interface PollOptions<T> {
  /** Every this many ms; null or absent: never. */
  readonly pollMs?: number | null;
  /**
   * Whether the last answer shows work still pending (files waiting for a fetch): then poll every `busyPollMs`
   * instead, for {@link BUSY_POLL_FOR_MS} at most (a service without workers never finishes it).
   */
  readonly busy?: (data: T) => boolean;
  readonly busyPollMs?: number;
}

/** How long {@link useApi} keeps polling quickly while an answer says work is pending. */
const BUSY_POLL_FOR_MS = 120_000;

/**
 * GETs `path` (nothing while it is null), again whenever it changes, and every `pollMs` while that is set (every
 * `busyPollMs` while `busy` says so). Answers to an older path are dropped.
 */
export function useApi<T>(path: string | null, options: PollOptions<T> = {}): ApiState<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(path !== null);
  const current = useRef(path);
  current.current = path;

  const load = useCallback(async () => {
    const asked = current.current;
    if (asked === null) return;
    try {
      const answer = await apiGet<T>(asked);
      if (current.current !== asked) return;
      setData(answer);
      setError(null);
    } catch (cause) {
      if (current.current !== asked) return;
      setError(toApiError(cause));
    } finally {
      if (current.current === asked) setLoading(false);
    }
  }, []);

  useEffect(() => {
    setData(null);
    setError(null);
    setLoading(path !== null);
    void load();
  }, [path, load]);

  const busy = data !== null && (options.busy?.(data) ?? false);
  const [hurry, setHurry] = useState(false);
  useEffect(() => {
    setHurry(busy);
    if (!busy) return;
    const timer = setTimeout(() => setHurry(false), BUSY_POLL_FOR_MS);
    return () => clearTimeout(timer);
  }, [busy]);

  const pollMs = hurry && options.busyPollMs !== undefined ? options.busyPollMs : (options.pollMs ?? null);
  useEffect(() => {
    if (pollMs === null || path === null) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      await load();
      if (live) timer = setTimeout(tick, pollMs);
    };
    timer = setTimeout(tick, pollMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [pollMs, path, load]);

  return { data, error, loading, reload: load };
}

/** The time now, refreshed every `everyMs` (for "5 minutes ago"). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** Sets the document title once a page knows what it shows (`example.com · robotskit`); null leaves the shell's. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    if (title !== null) document.title = `${title} · robotskit`;
  }, [title]);
}

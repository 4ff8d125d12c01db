/**
 * The tester's "Live file" bar: a site or robots.txt URL loaded through the service (`live-fetch.ts`), its exact
 * bytes handed to the page; the token prompt when the service wants its access token.
 */

import { useState } from 'preact/hooks';
import { ApiError } from '../../api.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatBytes } from '../../components/format.js';
import { loadLiveRobotsTxt } from './live-fetch.js';
import { type SourceBytes, sourceOf } from './source-bytes.js';

/**
 * The load bar; `onLoaded` gets the file, a sentence saying what was loaded, the origin it governs and its URL and
 * status; `onNoFile` a sentence and the site whose fetch brought no file; `onFailed` a sentence when nothing was
 * fetched (a mistyped address, the service unreachable): the editor keeps what it holds.
 */
export function LiveLoader(props: {
  onLoaded: (
    file: SourceBytes,
    message: string,
    origin: string,
    loaded: { url: string; status: number | null },
  ) => void;
  onNoFile: (message: string, failed: { url: string; origin: string; problem: string }) => void;
  onFailed: (message: string) => void;
}) {
  const [site, setSite] = useState('');
  const [busy, setBusy] = useState(false);
  /** The service wants its access token for live files: the prompt shows until one is saved. */
  const [needsToken, setNeedsToken] = useState<ApiError | null>(null);
  const load = () => {
    if (busy) return;
    setBusy(true);
    setNeedsToken(null);
    loadLiveRobotsTxt(site)
      .then((file) => {
        if (file.text === null) {
          const problem = file.problem ?? 'no robots.txt body.';
          props.onNoFile(`${file.url}: ${problem}`, { url: file.url, origin: file.origin, problem });
        } else {
          const status = file.status !== null ? `HTTP ${file.status}, ` : '';
          // The bytes as fetched when the service sends them (older services send only text: its UTF-8 then).
          const loaded = file.bytes !== null ? sourceOf(file.bytes) : sourceOf(new TextEncoder().encode(file.text));
          props.onLoaded(
            loaded,
            [`Loaded ${file.url} (${status}${formatBytes(loaded.bytes.length)}).`, ...file.notes].join(' '),
            file.origin,
            { url: file.url, status: file.status },
          );
        }
      })
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'unauthorized') setNeedsToken(error);
        else props.onFailed(error instanceof Error ? error.message : String(error));
      })
      .finally(() => setBusy(false));
  };
  return (
    <>
      <form
        class="load-bar"
        onSubmit={(event) => {
          event.preventDefault();
          load();
        }}
      >
        <label for="site">Live file</label>
        <input
          id="site"
          type="text"
          inputMode="url"
          value={site}
          placeholder="example.com or https://example.com/robots.txt"
          spellcheck={false}
          onInput={(e) => setSite(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Loading…' : 'Load'}
        </button>
      </form>
      {needsToken && <ApiErrorNotice error={needsToken} onRetry={load} />}
    </>
  );
}

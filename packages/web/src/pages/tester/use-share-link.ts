/**
 * The tester's state in the address bar: written quietly (`replaceState`) after a pause in typing, dropped when the
 * link would be too long or the state is the untouched example; a shared link pasted into the tab (a hash change) is
 * read back and handed to the page.
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import { isSample } from './sample.js';
import { decodeState, encodeState, MAX_HASH_LENGTH, type TesterState } from './share.js';
import { needsBytes } from './source-bytes.js';

/** Pause in typing before the address is rewritten, in milliseconds. */
const PAUSE_MS = 300;
/**
 * The pause for a text over 64 KiB: compressing it costs the page tens of milliseconds, which must not fall between
 * two keys of someone typing (the link is rarely short enough for such a file anyway).
 */
const LARGE_PAUSE_MS = 1500;
const LARGE_TEXT = 64 * 1024;

/** What the page does with a link's state, or with a link that could not be read. */
interface SharedStateHandlers {
  readonly onRestore: (state: TesterState) => void;
  readonly onError: (message: string) => void;
}

/**
 * Keeps `state` in the page's hash and restores the state of a link pasted later. `state.bytes` are the file's exact
 * bytes while its text is theirs; they travel in the link only when they are not the text's UTF-8. Returns whether
 * the state is too large for a link.
 */
export function useShareLink(state: TesterState, handlers: SharedStateHandlers): boolean {
  const { text, bytes, urls, crawler, dialect } = state;
  const purpose = state.purpose ?? null;
  const [tooLong, setTooLong] = useState(false);
  const lastHash = useRef(location.hash);
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    let live = true;
    const timer = setTimeout(
      () => {
        const shared = bytes && needsBytes(bytes, text) ? bytes : null;
        encodeState({ text, bytes: shared, urls, crawler, dialect, purpose }).then((encoded) => {
          if (!live) return;
          const fits = encoded.length <= MAX_HASH_LENGTH;
          setTooLong(!fits);
          // Too long for a link: drop the hash rather than leave an older state in the address bar. The untouched
          // example needs no hash either, so the bare address stays bare.
          const hash = fits && (purpose !== null || !isSample({ text, urls, crawler, dialect })) ? encoded : '';
          lastHash.current = hash;
          history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
        });
      },
      text.length > LARGE_TEXT ? LARGE_PAUSE_MS : PAUSE_MS,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, bytes, urls, crawler, dialect, purpose]);

  // A shared link pasted into this tab changes only the hash.
  useEffect(() => {
    const onHash = () => {
      if (location.hash === lastHash.current) return;
      decodeState(location.hash)
        .then((restored) => {
          if (!restored) return;
          lastHash.current = location.hash;
          latest.current.onRestore(restored);
        })
        .catch((error: unknown) => latest.current.onError(error instanceof Error ? error.message : String(error)));
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  return tooLong;
}

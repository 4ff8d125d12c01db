/**
 * What the tester holds: the file (its text, and its exact bytes while the text is still theirs), the URLs, the
 * crawlers typed, the reading, the chosen verdict row, the origin of a live file, the notice shown; and the two ways a
 * whole new file arrives (loaded live, or from a pasted link), which put it in the editor and scroll to its deciding
 * line once.
 */

import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { DialectName } from 'robotskit';
import type { EditorHandle } from '../../components/robots-editor.js';
import { retargetUrls } from './live-fetch.js';
import { SAMPLE } from './sample.js';
import type { TesterState } from './share.js';
import { bytesFor, type SourceBytes } from './source-bytes.js';

/** A message above the tester: an error (a damaged link, a failed load) or news (a file loaded). */
export interface Notice {
  readonly kind: 'error' | 'info';
  readonly text: string;
}

/** Whose file the editor holds: what the tester says above it. */
export type FileSource =
  | { readonly kind: 'example' }
  | { readonly kind: 'link' }
  /** A live file: its URL, HTTP status and when it was loaded (epoch ms); `text` is what it loaded as. */
  | {
      readonly kind: 'live';
      readonly url: string;
      readonly status: number | null;
      readonly at: number;
      readonly text: string;
    }
  /** A live load that brought no file: the editor was cleared, and nothing is tested until something is typed. */
  | { readonly kind: 'failed'; readonly url: string; readonly problem: string; readonly at: number };

/** The tester's state and what changes it. */
interface TesterModel {
  readonly text: string;
  /** The exact bytes to test while the editor shows their text; null once it is edited (the text is tested). */
  readonly bytes: Uint8Array | null;
  readonly urls: string;
  readonly crawler: string;
  readonly dialect: DialectName;
  /** The verdict row chosen by the person; null shows the first. */
  readonly selected: number | null;
  /** The origin of a live file loaded here (`https://shop.example`): URLs on other hosts are not governed by it. */
  readonly fileOrigin: string | null;
  readonly notice: Notice | null;
  readonly source: FileSource;
  readonly editor: RefObject<EditorHandle | null>;
  /** Whether the next deciding line shown is scrolled to (once after a new file, not while typing). */
  readonly scrollToLine: RefObject<boolean>;
  setText(text: string): void;
  setUrls(urls: string): void;
  setCrawler(crawler: string): void;
  setDialect(dialect: DialectName): void;
  setSelected(row: number | null): void;
  setNotice(notice: Notice | null): void;
  /** A live file arrived: test its bytes, move the example's URLs to its site, say what was loaded. */
  loadLive(file: SourceBytes, message: string, origin: string, loaded: { url: string; status: number | null }): void;
  /**
   * A live load brought no file (a 404, a 503, a failed connection): the previous file and its verdicts go, so none is
   * shown under the news about another site.
   */
  loadFailed(message: string, failed: { url: string; origin: string; problem: string }): void;
  /** A pasted link's state replaces everything. */
  restore(state: TesterState): void;
}

/** The tester's state, starting from `initial` (with the error of a damaged link as its first notice). */
export function useTesterState(initial: TesterState, shareError: string | null): TesterModel {
  const [text, setText] = useState(initial.text);
  const [source, setSource] = useState<SourceBytes | null>(() =>
    initial.bytes ? { bytes: initial.bytes, text: initial.text } : null,
  );
  const [urls, setUrls] = useState(initial.urls);
  const [crawler, setCrawler] = useState(initial.crawler);
  const [dialect, setDialect] = useState<DialectName>(initial.dialect);
  const [selected, setSelected] = useState<number | null>(null);
  const [fileOrigin, setFileOrigin] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(shareError ? { kind: 'error', text: shareError } : null);
  const [fileSource, setFileSource] = useState<FileSource>(initial === SAMPLE ? { kind: 'example' } : { kind: 'link' });
  const editor = useRef<EditorHandle | null>(null);
  const scrollToLine = useRef(true);

  /** Puts a new file in the editor (its text reaches `text` through the editor's change). */
  const showFile = (file: SourceBytes | null, shown: string, origin: string | null) => {
    setSource(file);
    editor.current?.replace(shown);
    scrollToLine.current = true;
    setSelected(null);
    setFileOrigin(origin);
  };

  return {
    text,
    bytes: bytesFor(source, text),
    urls,
    crawler,
    dialect,
    selected,
    fileOrigin,
    notice,
    source: fileSource,
    editor,
    scrollToLine,
    setText,
    setUrls,
    setCrawler,
    setDialect,
    setSelected,
    setNotice,
    loadLive(file, message, origin, loaded) {
      showFile(file, file.text, origin);
      setFileSource({ kind: 'live', url: loaded.url, status: loaded.status, at: Date.now(), text: file.text });
      // The example's URLs are about example.com: test the loaded site's instead.
      const moved = retargetUrls(urls, origin);
      if (moved !== urls) setUrls(moved);
      setNotice({
        kind: 'info',
        text: moved !== urls ? `${message} The example URLs now point at ${origin}.` : message,
      });
    },
    loadFailed(message, failed) {
      showFile(null, '', failed.origin);
      setFileSource({ kind: 'failed', url: failed.url, problem: failed.problem, at: Date.now() });
      const moved = retargetUrls(urls, failed.origin);
      if (moved !== urls) setUrls(moved);
      setNotice({ kind: 'error', text: message });
    },
    restore(state) {
      showFile(state.bytes ? { bytes: state.bytes, text: state.text } : null, state.text, null);
      setFileSource({ kind: 'link' });
      setUrls(state.urls);
      setCrawler(state.crawler);
      setDialect(state.dialect);
    },
  };
}

/**
 * Keeps `line` marked as the deciding line in the editor, as results change, without scrolling while typing; after a
 * new file arrives (`scrollToLine`), the editor scrolls to it once.
 */
export function useDecidingLine(
  editor: RefObject<EditorHandle | null>,
  line: number,
  scrollToLine: RefObject<boolean>,
): void {
  useEffect(() => {
    const scroll = scrollToLine.current && line > 0;
    if (scroll) scrollToLine.current = false;
    editor.current?.showLine(line, scroll);
  }, [line]);
}

/**
 * The robots.txt tester: an editor, a URL list and a crawler chooser; verdicts, the every-crawler matrix and the
 * dialect differences recomputed in a Web Worker as you type; live files loaded through the service; the whole state
 * shared through the page URL's hash. This module composes the parts: state (`use-tester-state.ts`), the worker
 * (`use-engine.ts`), the link (`use-share-link.ts`) and the panels.
 */

import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { EditorPanel } from './editor-panel.js';
import { CrawlerPanel, UrlsPanel } from './inputs.js';
import { LiveLoader } from './live-loader.js';
import { ResultTabs, type Tab } from './result-tabs.js';
import { SAMPLE } from './sample.js';
import { decodeState, type TesterState } from './share.js';
import { ShareBox } from './share-box.js';
import { useEngine } from './use-engine.js';
import { useShareLink } from './use-share-link.js';
import { type Notice, useDecidingLine, useTesterState } from './use-tester-state.js';

function splitUrls(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The crawlers typed in the chooser, comma-separated, each once. */
function crawlersOf(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part, i, all) => part !== '' && all.indexOf(part) === i);
}

/** Reads the shared state from the hash once, then renders the tester with it. */
export default function TesterPage() {
  const [initial, setInitial] = useState<TesterState | null>(null);
  const [shareError, setShareError] = useState<string | null>(null);
  useEffect(() => {
    decodeState(location.hash)
      .then((state) => setInitial(state ?? SAMPLE))
      .catch((error: unknown) => {
        setShareError(error instanceof Error ? error.message : String(error));
        setInitial(SAMPLE);
      });
  }, []);
  if (!initial) return <div class="page-loading" aria-busy="true" />;
  return <Tester initial={initial} shareError={shareError} />;
}

function NoticeBar({ notice, onDismiss }: { notice: Notice; onDismiss: () => void }) {
  return (
    <div class={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
      <span>{notice.text}</span>
      <button type="button" class="link-button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

function Tester({ initial, shareError }: { initial: TesterState; shareError: string | null }) {
  const t = useTesterState(initial, shareError);
  const [tab, setTab] = useState<Tab>('results');
  const urls = useMemo(() => splitUrls(t.urls), [t.urls]);
  const crawlers = useMemo(() => crawlersOf(t.crawler), [t.crawler]);
  const { verdicts, facts, crawlerNames, engineError } = useEngine({
    text: t.text,
    bytes: t.bytes,
    urls,
    crawlers,
    dialect: t.dialect,
    matrix: tab === 'matrix',
  });
  const linkTooLong = useShareLink(
    { text: t.text, bytes: t.bytes, urls: t.urls, crawler: t.crawler, dialect: t.dialect },
    { onRestore: t.restore, onError: (text) => t.setNotice({ kind: 'error', text }) },
  );

  // The first URL's verdict is shown (and its deciding line marked) until another row is chosen.
  const rows = verdicts?.rows ?? [];
  const shownRow = t.selected ?? (rows.length > 0 ? 0 : null);
  useDecidingLine(t.editor, shownRow !== null ? (rows[shownRow]?.verdict.line ?? 0) : 0, t.scrollToLine);
  const showLine = useCallback((line: number) => t.editor.current?.showLine(line, true), [t.editor]);
  // The counts and the differences wait for the facts of the text the verdicts are about.
  const current = facts !== null && verdicts !== null && facts.textSerial === verdicts.textSerial ? facts : null;

  return (
    <section class="page tester">
      <div class="page-head">
        <h1>robots.txt tester</h1>
        <p class="lede">
          Test URLs against a robots.txt exactly as Google reads it (RFC 9309), see every lint issue in place, and
          compare with the 1994 reading. Everything runs in your browser as you type.
        </p>
      </div>

      <LiveLoader onLoaded={t.loadLive} onFailed={(text) => t.setNotice({ kind: 'error', text })} />
      {t.notice && <NoticeBar notice={t.notice} onDismiss={() => t.setNotice(null)} />}

      <div class={tab === 'matrix' ? 'tester-grid tester-grid-wide' : 'tester-grid'}>
        <EditorPanel
          initial={initial.text}
          editor={t.editor}
          verdicts={verdicts}
          facts={facts}
          current={current}
          onChange={t.setText}
        />
        <div class="side">
          <UrlsPanel urls={t.urls} onInput={t.setUrls} />
          <CrawlerPanel
            crawler={t.crawler}
            onCrawler={t.setCrawler}
            crawlerNames={crawlerNames}
            verdicts={verdicts}
            dialect={t.dialect}
            onDialect={t.setDialect}
          />
          <ResultTabs
            tab={tab}
            onTab={setTab}
            verdicts={verdicts}
            current={current}
            engineError={engineError}
            urls={urls}
            dialect={t.dialect}
            shownRow={shownRow}
            fileOrigin={t.fileOrigin}
            onSelect={(row, line) => {
              t.setSelected(row);
              showLine(line);
            }}
            onShowLine={showLine}
          />
          <ShareBox tooLong={linkTooLong} />
        </div>
      </div>
    </section>
  );
}

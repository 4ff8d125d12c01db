/**
 * The robots.txt tester: an editor, a URL list and a crawler chooser; verdicts, the every-crawler matrix, the
 * crawlers of one purpose ("By purpose") and the dialect differences recomputed in a Web Worker as you type; live files loaded through the service; the whole state
 * shared through the page URL's hash. This module composes the parts: state (`use-tester-state.ts`), the worker
 * (`use-engine.ts`), the link (`use-share-link.ts`) and the panels.
 */

import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { splitCrawlerNames } from 'robotskit';
import type { PurposeChoice } from '../../engine/protocol.js';
import { EditorPanel } from './editor-panel.js';
import { CrawlerPanel, UrlsPanel } from './inputs.js';
import { LiveLoader } from './live-loader.js';
import { ResultTabs, type Tab } from './result-tabs.js';
import { SAMPLE } from './sample.js';
import { decodeState, type TesterState } from './share.js';
import { ShareBox } from './share-box.js';
import { useEngine } from './use-engine.js';
import { useShareLink } from './use-share-link.js';
import { type FileSource, type Notice, useDecidingLine, useTesterState } from './use-tester-state.js';

function splitUrls(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The crawlers typed in the chooser (the engine's reading of a typed list: a User-Agent string stays whole), each once. */
function crawlersOf(text: string): string[] {
  return splitCrawlerNames(text).filter((name, i, all) => all.indexOf(name) === i);
}

/** What the editor holds, for a failure that leaves it as it was. */
function stillHeld(source: FileSource): string {
  if (source.kind === 'live') return `The editor still holds ${source.url}.`;
  if (source.kind === 'failed') return 'The editor still holds your text.';
  return source.kind === 'link' ? 'The editor still holds the shared file.' : 'The editor still holds the example.';
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
  // A link may open the "By purpose" view with its purpose.
  const [tab, setTab] = useState<Tab>(initial.purpose ? 'purpose' : 'results');
  const [purpose, setPurpose] = useState<PurposeChoice>(initial.purpose ?? 'ai');
  const urls = useMemo(() => splitUrls(t.urls), [t.urls]);
  const crawlers = useMemo(() => crawlersOf(t.crawler), [t.crawler]);
  const { verdicts, facts, crawlerNames, engineError } = useEngine({
    text: t.text,
    bytes: t.bytes,
    urls,
    crawlers,
    dialect: t.dialect,
    matrix: tab === 'matrix',
    purpose: tab === 'purpose' ? purpose : null,
  });
  const linkTooLong = useShareLink(
    {
      text: t.text,
      bytes: t.bytes,
      urls: t.urls,
      crawler: t.crawler,
      dialect: t.dialect,
      purpose: tab === 'purpose' ? purpose : null,
    },
    {
      onRestore: (state) => {
        t.restore(state);
        if (state.purpose) {
          setPurpose(state.purpose);
          setTab('purpose');
        }
      },
      onError: (text) => t.setNotice({ kind: 'error', text }),
    },
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
      <div class="tester-head">
        <div class="page-head">
          <h1>robots.txt tester</h1>
          <p class="lede">As Google reads it (RFC 9309), with lint and the 1994 reading; all in your browser.</p>
        </div>
        <LiveLoader
          onLoaded={t.loadLive}
          onNoFile={t.loadFailed}
          onFailed={(text) => t.setNotice({ kind: 'error', text: `${text} ${stillHeld(t.source)}` })}
        />
      </div>
      {t.notice && <NoticeBar notice={t.notice} onDismiss={() => t.setNotice(null)} />}

      <div class={tab === 'matrix' || tab === 'purpose' ? 'tester-grid tester-grid-wide' : 'tester-grid'}>
        <EditorPanel
          initial={initial.text}
          editor={t.editor}
          verdicts={verdicts}
          facts={facts}
          current={current}
          source={t.source}
          text={t.text}
          bytes={t.bytes}
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
            noFile={t.source.kind === 'failed' && t.text === '' ? t.source.problem : null}
            onSelect={(row, line) => {
              t.setSelected(row);
              showLine(line);
            }}
            onShowLine={showLine}
            purpose={purpose}
            onPurpose={setPurpose}
          />
          <ShareBox tooLong={linkTooLong} />
        </div>
      </div>
    </section>
  );
}

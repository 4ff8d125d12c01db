/**
 * The robots.txt tester: an editor, a URL list and a crawler chooser; verdicts, the every-crawler matrix and the
 * dialect differences recomputed in a Web Worker as you type; live files loaded through the service; the whole state
 * shared through the page URL's hash.
 */

import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatBytes, plural } from '../../components/format.js';
import { type EditorHandle, RobotsEditor } from '../../components/robots-editor.js';
import { EngineClient } from '../../engine/client.js';
import type { Dialect, EditorDiagnostic, FileAnswer, VerdictsAnswer, WorkerAnswer } from '../../engine/protocol.js';
import { loadLiveRobotsTxt, retargetUrls } from './live-fetch.js';
import { CrawlerMatrix, DifferenceList, VerdictTable } from './results.js';
import { SAMPLE_CRAWLER, SAMPLE_ROBOTS_TXT, SAMPLE_URLS } from './sample.js';
import { decodeState, encodeState, MAX_HASH_LENGTH, type TesterState } from './share.js';
import { bytesFor, needsBytes, type SourceBytes, sourceOf } from './source-bytes.js';

type Tab = 'results' | 'matrix' | 'differences';

const NO_DIAGNOSTICS: readonly EditorDiagnostic[] = [];

const SAMPLE: TesterState = { text: SAMPLE_ROBOTS_TXT, urls: SAMPLE_URLS, crawler: SAMPLE_CRAWLER, dialect: 'google' };

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

function Tester({ initial, shareError }: { initial: TesterState; shareError: string | null }) {
  const [text, setText] = useState(initial.text);
  /** The exact bytes of a file loaded live or shared as bytes: tested while the editor still shows their text. */
  const [source, setSource] = useState<SourceBytes | null>(() =>
    initial.bytes ? { bytes: initial.bytes, text: initial.text } : null,
  );
  const bytes = bytesFor(source, text);
  const [urls, setUrls] = useState(initial.urls);
  const [crawler, setCrawler] = useState(initial.crawler);
  const [dialect, setDialect] = useState<Dialect>(initial.dialect);
  const [tab, setTab] = useState<Tab>('results');
  const [verdicts, setVerdicts] = useState<VerdictsAnswer | null>(null);
  const [crawlerNames, setCrawlerNames] = useState<readonly string[]>([]);
  const [facts, setFacts] = useState<FileAnswer | null>(null);
  const [engineError, setEngineError] = useState<string | null>(null);
  const [selected, setSelected] = useState<number | null>(null);
  const [notice, setNotice] = useState<{ kind: 'error' | 'info'; text: string } | null>(
    shareError ? { kind: 'error', text: shareError } : null,
  );
  const [linkTooLong, setLinkTooLong] = useState(false);
  const [currentIssue, setCurrentIssue] = useState<(EditorDiagnostic & { index: number; total: number }) | null>(null);
  /** The origin of a live file loaded here (`https://shop.example`): URLs on other hosts are not governed by it. */
  const [fileOrigin, setFileOrigin] = useState<string | null>(null);
  const editor = useRef<EditorHandle | null>(null);
  const latest = useRef(0);
  const lastHash = useRef(location.hash);

  const client = useMemo(
    () =>
      new EngineClient((answer: WorkerAnswer) => {
        if (answer.type === 'catalogue') {
          setCrawlerNames(answer.names);
          return;
        }
        if (answer.id !== latest.current) return;
        if (answer.type === 'verdicts') {
          setVerdicts(answer);
          setEngineError(null);
        } else if (answer.type === 'file') {
          setFacts(answer);
        } else {
          setEngineError(answer.message);
        }
      }),
    [],
  );
  useEffect(() => () => client.dispose(), [client]);

  const urlList = useMemo(() => splitUrls(urls), [urls]);
  const crawlers = useMemo(() => crawlersOf(crawler), [crawler]);
  const wantMatrix = tab === 'matrix';

  // Recompute after a short pause in typing; the worker keeps only the newest waiting request.
  useEffect(() => {
    const timer = setTimeout(() => {
      latest.current = client.request({ text, bytes, urls: urlList, crawlers, dialect, matrix: wantMatrix });
    }, 60);
    return () => clearTimeout(timer);
  }, [client, text, bytes, urlList, crawlers, dialect, wantMatrix]);

  // The first URL's verdict is shown (and its deciding line marked) until another row is chosen. The line is kept
  // marked as results change, without scrolling while typing; after a new file arrives, the editor scrolls to it once.
  const rows = verdicts?.rows ?? [];
  const shownRow = selected ?? (rows.length > 0 ? 0 : null);
  const selectedLine = shownRow !== null ? (rows[shownRow]?.verdict.line ?? 0) : 0;
  const scrollToLine = useRef(true);
  useEffect(() => {
    const scroll = scrollToLine.current && selectedLine > 0;
    if (scroll) scrollToLine.current = false;
    editor.current?.showLine(selectedLine, scroll);
  }, [selectedLine]);

  // Write the state to the hash, quietly (replaceState), after typing pauses.
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      const shared = bytes !== null && needsBytes(bytes, text) ? bytes : null;
      encodeState({ text, bytes: shared, urls, crawler, dialect }).then((encoded) => {
        if (!live) return;
        const fits = encoded.length <= MAX_HASH_LENGTH;
        setLinkTooLong(!fits);
        // Too long for a link: drop the hash rather than leave an older state in the address bar. The untouched
        // example needs no hash either, so the bare address stays bare.
        const untouched =
          text === SAMPLE.text && urls === SAMPLE.urls && crawler === SAMPLE.crawler && dialect === SAMPLE.dialect;
        const hash = fits && !untouched ? encoded : '';
        lastHash.current = hash;
        history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
      });
    }, 300);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, bytes, urls, crawler, dialect]);

  // A shared link pasted into this tab changes only the hash: load it.
  useEffect(() => {
    const onHash = () => {
      if (location.hash === lastHash.current) return;
      decodeState(location.hash)
        .then((state) => {
          if (!state) return;
          lastHash.current = location.hash;
          setSource(state.bytes ? { bytes: state.bytes, text: state.text } : null);
          editor.current?.replace(state.text);
          scrollToLine.current = true;
          setFileOrigin(null);
          setUrls(state.urls);
          setCrawler(state.crawler);
          setDialect(state.dialect);
          setSelected(null);
        })
        .catch((error: unknown) =>
          setNotice({ kind: 'error', text: error instanceof Error ? error.message : String(error) }),
        );
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const showLine = useCallback((line: number) => {
    editor.current?.showLine(line, true);
  }, []);

  // The editor keeps the last diagnostics while a new text is linted (CodeMirror maps them through the edits); the
  // counts and the differences wait for the facts of the text the verdicts are about.
  const diagnostics = facts?.diagnostics ?? NO_DIAGNOSTICS;
  const current = facts !== null && verdicts !== null && facts.textSerial === verdicts.textSerial ? facts : null;
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;

  return (
    <section class="page tester">
      <div class="page-head">
        <h1>robots.txt tester</h1>
        <p class="lede">
          Test URLs against a robots.txt exactly as Google reads it (RFC 9309), see every lint issue in place, and
          compare with the 1994 reading. Everything runs in your browser as you type.
        </p>
      </div>

      <LiveLoader
        onLoaded={(loaded, message, origin) => {
          setSource(loaded);
          editor.current?.replace(loaded.text);
          scrollToLine.current = true;
          setSelected(null);
          setFileOrigin(origin);
          // The example's URLs are about example.com: test the loaded site's instead.
          const moved = retargetUrls(urls, origin);
          if (moved !== urls) setUrls(moved);
          setNotice({
            kind: 'info',
            text: moved !== urls ? `${message} The example URLs now point at ${origin}.` : message,
          });
        }}
        onFailed={(message) => setNotice({ kind: 'error', text: message })}
      />
      {notice && (
        <div class={`notice notice-${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
          <span>{notice.text}</span>
          <button type="button" class="link-button" onClick={() => setNotice(null)}>
            Dismiss
          </button>
        </div>
      )}

      <div class={tab === 'matrix' ? 'tester-grid tester-grid-wide' : 'tester-grid'}>
        <div class="panel editor-panel">
          <div class="panel-head">
            <span class="panel-title" id="editor-title">
              robots.txt
            </span>
            <span class="issue-counts" id="issue-summary" aria-live="polite">
              {diagnostics.length === 0 ? (
                <span class="muted">{facts ? 'No issues' : 'Linting…'}</span>
              ) : (
                <>
                  {counts.error > 0 && <span class="count count-error">{plural(counts.error, 'error')}</span>}
                  {counts.warning > 0 && <span class="count count-warning">{plural(counts.warning, 'warning')}</span>}
                  {counts.info > 0 && <span class="count count-info">{counts.info} info</span>}
                </>
              )}
            </span>
            {facts && !current && <span class="muted linting">linting…</span>}
            <span class="spacer" />
            <button
              type="button"
              class="small"
              disabled={diagnostics.length === 0}
              onClick={() => editor.current?.previousIssue()}
              aria-label="Previous issue"
              title="Previous issue (Shift-F8)"
            >
              ‹ Previous<span class="wide-only"> issue</span>
            </button>
            <button
              type="button"
              class="small"
              disabled={diagnostics.length === 0}
              onClick={() => editor.current?.nextIssue()}
              aria-label="Next issue"
              title="Next issue (F8)"
            >
              Next<span class="wide-only"> issue</span> ›
            </button>
          </div>
          <RobotsEditor
            initial={initial.text}
            diagnostics={diagnostics}
            onChange={(value) => {
              setText(value);
              setCurrentIssue(null);
            }}
            onReady={(handle) => {
              editor.current = handle;
            }}
            onIssue={(issue, index, total) => setCurrentIssue({ ...issue, index, total })}
            describedBy="issue-summary"
          />
          {currentIssue && (
            <div class="issue-line" role="status">
              <span class={`count count-${currentIssue.severity}`}>{currentIssue.severity}</span>
              <span>
                Issue {currentIssue.index + 1} of {currentIssue.total}, line {currentIssue.line}: {currentIssue.message}{' '}
                <a href={currentIssue.docs} target="_blank" rel="noreferrer">
                  {currentIssue.code}
                </a>
              </span>
              <button type="button" class="link-button" onClick={() => setCurrentIssue(null)}>
                Close
              </button>
            </div>
          )}
          <div class="panel-foot muted">
            {verdicts
              ? `${formatBytes(verdicts.bytes)} · ${plural(verdicts.groups, 'group')} · parsed in ${verdicts.parseMs.toFixed(1)} ms, verdicts ${verdicts.ms.toFixed(1)} ms${current ? `, lint ${current.ms.toFixed(1)} ms` : ''}`
              : 'Checking…'}
            <span class="spacer" />
            <span class="keys">F8 / Shift-F8: next / previous issue</span>
          </div>
        </div>

        <div class="side">
          <div class="panel">
            <label class="panel-title" for="urls">
              URLs
            </label>
            <textarea
              id="urls"
              rows={7}
              wrap="off"
              spellcheck={false}
              value={urls}
              placeholder={'https://example.com/page\n/just/a/path'}
              onInput={(e) => setUrls(e.currentTarget.value)}
            />
            <p class="hint">One per line: full URLs or paths.</p>
          </div>
          <div class="panel">
            <label class="panel-title" for="crawler">
              Crawler
            </label>
            <input
              id="crawler"
              list="crawler-names"
              value={crawler}
              autocomplete="off"
              spellcheck={false}
              placeholder="Googlebot, GPTBot, or any product token"
              onInput={(e) => setCrawler(e.currentTarget.value)}
            />
            <datalist id="crawler-names">
              {crawlerNames.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            <p class="hint">{verdicts?.crawlerSummary ?? '\u00a0'}</p>
            <p class="hint">Several crawlers: separate them with commas.</p>
            {verdicts?.crawlerNotes.map((note) => (
              <p class="hint hint-warning" key={note}>
                {note}
              </p>
            ))}
            <fieldset class="dialect">
              <legend>Reading</legend>
              <label class="check">
                <input
                  type="radio"
                  name="dialect"
                  checked={dialect === 'google'}
                  onChange={() => setDialect('google')}
                />
                Google (RFC 9309)
              </label>
              <label class="check">
                <input
                  type="radio"
                  name="dialect"
                  checked={dialect === 'legacy'}
                  onChange={() => setDialect('legacy')}
                />
                1994 convention
              </label>
            </fieldset>
          </div>
          <div class="results-column">
            {engineError && (
              <div class="notice notice-error" role="alert">
                The engine failed on this input: {engineError}
              </div>
            )}

            <div class="tabs" role="tablist" aria-label="Results">
              <TabButton id="results" current={tab} onSelect={setTab}>
                Results
              </TabButton>
              <TabButton id="matrix" current={tab} onSelect={setTab}>
                All crawlers
              </TabButton>
              <TabButton id="differences" current={tab} onSelect={setTab}>
                1994 reading{current ? ` (${current.differences.length})` : ''}
              </TabButton>
            </div>
            <div class="panel tab-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
              {!verdicts ? (
                <p class="empty">Checking…</p>
              ) : tab === 'results' ? (
                <VerdictTable
                  rows={rows}
                  dialect={dialect}
                  selected={shownRow}
                  fileOrigin={fileOrigin}
                  onSelect={(i, line) => {
                    setSelected(i);
                    showLine(line);
                  }}
                />
              ) : tab === 'matrix' ? (
                <CrawlerMatrix urls={urlList} matrix={verdicts.matrix} onShowLine={showLine} />
              ) : current ? (
                <DifferenceList differences={current.differences} onShowLine={showLine} />
              ) : (
                <p class="empty">Checking…</p>
              )}
            </div>
          </div>
          <ShareBox tooLong={linkTooLong} />
        </div>
      </div>
    </section>
  );
}

function TabButton(props: { id: Tab; current: Tab; onSelect: (tab: Tab) => void; children: preact.ComponentChildren }) {
  const selected = props.id === props.current;
  return (
    <button
      type="button"
      role="tab"
      id={`tab-${props.id}`}
      aria-selected={selected}
      aria-controls={`panel-${props.id}`}
      class={selected ? 'tab tab-current' : 'tab'}
      onClick={() => props.onSelect(props.id)}
    >
      {props.children}
    </button>
  );
}

function ShareBox({ tooLong }: { tooLong: boolean }) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div class="panel share">
      <span class="panel-title">Share</span>
      {tooLong ? (
        <p class="hint">
          This file is too large to carry in a link (over {Math.round(MAX_HASH_LENGTH / 1024)} KiB compressed); share
          the file itself.
        </p>
      ) : (
        <>
          <p class="hint">The page address holds the file, URLs, crawler and reading.</p>
          <button
            type="button"
            class="small"
            onClick={() => {
              // Pages served over plain HTTP to another host have no clipboard API.
              if (!navigator.clipboard) {
                setCopied('Copy the address from the address bar.');
                return;
              }
              navigator.clipboard.writeText(location.href).then(
                () => setCopied('Link copied.'),
                () => setCopied('Copy the address from the address bar.'),
              );
            }}
          >
            Copy link
          </button>
          {copied && (
            <span class="hint" role="status">
              {' '}
              {copied}
            </span>
          )}
        </>
      )}
    </div>
  );
}

function LiveLoader(props: {
  onLoaded: (file: SourceBytes, message: string, origin: string) => void;
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
        if (file.text === null) props.onFailed(`${file.url}: ${file.problem}`);
        else {
          const status = file.status !== null ? `HTTP ${file.status}, ` : '';
          // The bytes as fetched when the service sends them (older services send only text: its UTF-8 then).
          const loaded = file.bytes !== null ? sourceOf(file.bytes) : sourceOf(new TextEncoder().encode(file.text));
          props.onLoaded(
            loaded,
            [`Loaded ${file.url} (${status}${formatBytes(loaded.bytes.length)}).`, ...file.notes].join(' '),
            file.origin,
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

/**
 * The impact page's form: compare the current version with a draft (edited here, linted in the engine worker as it is
 * typed) or a stored version, for the crawlers and URLs typed (or the service's defaults), and the result below.
 * When a check ends, focus moves to its result's heading or to its error (the button is disabled while it runs).
 */

import type { RefObject } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiError, apiGet, apiSend, toApiError } from '../../api.js';
import type { FileDetail, ImpactResult, Version, VersionDetail } from '../../api-types.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import type { EditorDiagnostic } from '../../components/editor-diagnostic.js';
import { formatTime, plural } from '../../components/format.js';
import { type EditorHandle, RobotsEditor } from '../../components/robots-editor.js';
import { EngineClient } from '../../engine/client.js';
import type { WorkerAnswer } from '../../engine/protocol.js';
import { ImpactReport } from './report.js';

type Source = 'draft' | 'version';

const NO_DIAGNOSTICS: readonly EditorDiagnostic[] = [];
/** Pause in typing before the draft is linted, in milliseconds. */
const LINT_PAUSE_MS = 80;

function splitList(text: string, separator: RegExp): string[] {
  return text
    .split(separator)
    .map((s) => s.trim())
    .filter((s, i, all) => s !== '' && all.indexOf(s) === i);
}

/**
 * The draft: the content of `base` to start from (an empty file's rules when there is none), linted in the engine
 * worker after each pause in typing while it is the source compared.
 */
function useDraft(base: Version | undefined, active: boolean) {
  const [draft, setDraft] = useState<string | null>(null);
  const [diagnostics, setDiagnostics] = useState<readonly EditorDiagnostic[]>(NO_DIAGNOSTICS);
  const latest = useRef(0);

  useEffect(() => {
    if (!base) {
      setDraft('User-agent: *\nDisallow:\n');
      return;
    }
    apiGet<VersionDetail>(`/api/versions/${base.id}`)
      .then((v) => setDraft(v.content ?? ''))
      .catch(() => setDraft(''));
  }, []);

  const client = useMemo(
    () =>
      new EngineClient((answer: WorkerAnswer) => {
        if (answer.type === 'file' && answer.id === latest.current) setDiagnostics(answer.diagnostics);
      }),
    [],
  );
  useEffect(() => () => client.dispose(), [client]);
  useEffect(() => {
    if (draft === null || !active) return;
    const timer = setTimeout(() => {
      latest.current = client.request({ text: draft, urls: [], crawlers: [], dialect: 'google', matrix: false });
    }, LINT_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [client, draft, active]);

  return { draft, setDraft, diagnostics };
}

/** `POST /api/impact`, one request at a time, with its result or error. */
function useImpactCheck() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [result, setResult] = useState<ImpactResult | null>(null);
  const check = async (body: object) => {
    setBusy(true);
    setError(null);
    // A result stays on screen only beside the question it answers: a new check (or its failure) clears it.
    setResult(null);
    try {
      setResult(await apiSend<ImpactResult>('POST', '/api/impact', body));
    } catch (cause) {
      setError(toApiError(cause));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, result, check };
}

/** What is compared with the current version, and what the current version is. */
function SourceChoice(props: {
  source: Source;
  onSource: (s: Source) => void;
  canVersion: boolean;
  current: Version | null;
}) {
  const { source, onSource, current } = props;
  return (
    <fieldset class="panel source-choice">
      <legend class="panel-title">Compare the current version with</legend>
      <label class="check">
        <input type="radio" name="source" checked={source === 'draft'} onChange={() => onSource('draft')} />A draft
      </label>
      <label class="check">
        <input
          type="radio"
          name="source"
          checked={source === 'version'}
          disabled={!props.canVersion}
          onChange={() => onSource('version')}
        />
        A stored version
      </label>
      {current && (
        <p class="hint">
          Current version: {formatTime(current.fetchedAt)} ({current.status}).
        </p>
      )}
    </fieldset>
  );
}

/** The draft's editor with its error and warning counts. */
function DraftPanel(props: {
  draft: string | null;
  diagnostics: readonly EditorDiagnostic[];
  editor: RefObject<EditorHandle | null>;
  onChange: (text: string) => void;
}) {
  const { draft, diagnostics, editor } = props;
  const counts = { error: 0, warning: 0 };
  for (const d of diagnostics) if (d.severity === 'error' || d.severity === 'warning') counts[d.severity]++;
  return (
    <div class="panel editor-panel">
      <div class="panel-head">
        <span class="panel-title" id="draft-title">
          Draft
        </span>
        <span class="issue-counts" aria-live="polite">
          {counts.error > 0 && <span class="count count-error">{plural(counts.error, 'error')}</span>}
          {counts.warning > 0 && <span class="count count-warning">{plural(counts.warning, 'warning')}</span>}
        </span>
        <span class="spacer" />
        <button type="button" class="small" onClick={() => editor.current?.nextIssue()}>
          Next issue ›
        </button>
      </div>
      <div class="editor draft-editor">
        {draft === null ? (
          <p class="empty">Loading the current content…</p>
        ) : (
          <RobotsEditor
            initial={draft}
            diagnostics={diagnostics}
            label="Draft robots.txt"
            describedBy="draft-title"
            onChange={props.onChange}
            onReady={(handle) => {
              editor.current = handle;
            }}
            onIssue={() => {}}
          />
        )}
      </div>
    </div>
  );
}

/** The stored versions with content, newest (the current one) first. */
function VersionPicker(props: { versions: readonly Version[]; value: number | null; onChange: (id: number) => void }) {
  return (
    <div class="panel">
      <label class="panel-title" for="impact-version">
        Version
      </label>
      <select
        id="impact-version"
        value={props.value ?? ''}
        onChange={(event) => props.onChange(Number(event.currentTarget.value))}
      >
        {props.versions.map((v, i) => (
          <option key={v.id} value={v.id}>
            {formatTime(v.fetchedAt)}
            {i === 0 ? ' (current)' : ''}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The crawlers and URLs to check; empty fields leave the choice to the service. */
function Questions(props: {
  crawlers: string;
  onCrawlers: (s: string) => void;
  urls: string;
  onUrls: (s: string) => void;
}) {
  return (
    <div class="report-grid">
      <div class="panel">
        <label class="panel-title" for="impact-crawlers">
          Crawlers
        </label>
        <input
          id="impact-crawlers"
          type="text"
          autocomplete="off"
          spellcheck={false}
          placeholder="Googlebot, bingbot, GPTBot…"
          value={props.crawlers}
          onInput={(event) => props.onCrawlers(event.currentTarget.value)}
        />
        <p class="hint">Comma-separated. Empty: the major search and AI crawlers and *.</p>
      </div>
      <div class="panel">
        <label class="panel-title" for="impact-urls">
          URLs
        </label>
        <textarea
          id="impact-urls"
          rows={3}
          spellcheck={false}
          placeholder="Empty: the URLs of the site’s sitemaps"
          value={props.urls}
          onInput={(event) => props.onUrls(event.currentTarget.value)}
        />
        <p class="hint">One per line, full URLs or paths. Empty: read from the sitemaps.</p>
      </div>
    </div>
  );
}

/** The form and, once checked, the result. */
export function ImpactForm({ file, versions }: { file: FileDetail; versions: readonly Version[] }) {
  const fetched = versions.filter((v) => v.outcome === 'rules');
  const [source, setSource] = useState<Source>('draft');
  const { draft, setDraft, diagnostics } = useDraft(fetched[0], source === 'draft');
  const [versionId, setVersionId] = useState<number | null>(fetched[1]?.id ?? fetched[0]?.id ?? null);
  const [crawlers, setCrawlers] = useState('');
  const [urls, setUrls] = useState('');
  const { busy, error, result, check } = useImpactCheck();
  const editor = useRef<EditorHandle | null>(null);

  const run = () => {
    const userAgents = splitList(crawlers, /,/);
    const urlList = splitList(urls, /\r\n|\r|\n/);
    return check({
      fileId: file.id,
      ...(source === 'draft' ? { draft: draft ?? '' } : { versionId: versionId ?? 0 }),
      ...(userAgents.length > 0 ? { userAgents } : {}),
      ...(urlList.length > 0 ? { urls: urlList } : {}),
    });
  };

  return (
    <>
      <form
        class="impact-form"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <SourceChoice
          source={source}
          onSource={setSource}
          canVersion={fetched.length > 0}
          current={versions[0] ?? null}
        />
        {source === 'draft' ? (
          <DraftPanel draft={draft} diagnostics={diagnostics} editor={editor} onChange={setDraft} />
        ) : (
          <VersionPicker versions={fetched} value={versionId} onChange={setVersionId} />
        )}
        <Questions crawlers={crawlers} onCrawlers={setCrawlers} urls={urls} onUrls={setUrls} />
        <div class="form-actions">
          <button type="submit" disabled={busy || (source === 'draft' && draft === null)}>
            {busy ? 'Checking…' : 'Check impact'}
          </button>
          {busy && (
            <span class="muted" role="status">
              Reading the sitemaps and comparing verdicts…
            </span>
          )}
        </div>
      </form>
      {error && <ApiErrorNotice error={error} onRetry={() => void run()} focus={true} />}
      {result && <ImpactReport result={result} />}
    </>
  );
}

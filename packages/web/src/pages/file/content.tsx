/**
 * A version's content as fetched, read-only in the robots.txt editor, with its stored lint findings marked in place
 * (gutter, underline, hover text) and listed below, errors first, then warnings, then info, the 1994-dialect notes
 * last (`inListOrder`); F8 / Shift-F8 or the buttons walk them in that same order, a click on the list selects one in
 * the text.
 */

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { LINT_DOCS_BASE } from 'robotskit/lint';
import { type ApiError, apiBytes, apiGet, toApiError } from '../../api.js';
import type { DiagnosticsPage, StoredDiagnostic, VersionDetail } from '../../api-types.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatBytes, formatTime, plural } from '../../components/format.js';
import { type EditorHandle, RobotsEditor } from '../../components/robots-editor.js';
import { SeverityBadge } from '../../components/status.js';
import { inListOrder, type ShownFile, showStoredLint } from '../../components/stored-lint.js';
import { navigate } from '../../router.js';
import { encodeState } from '../tester/share.js';
import { needsBytes } from '../tester/source-bytes.js';

/** Issues listed before "Show all". */
const LIST_LIMIT = 200;

/**
 * Every stored diagnostic of a version: those its detail lists, then the pages after them (the API caps the detail,
 * and the editor marks them all).
 */
async function allDiagnostics(version: VersionDetail): Promise<StoredDiagnostic[]> {
  const all = [...(version.lint?.diagnostics ?? [])];
  for (let next = version.lint?.next ?? null; next !== null; ) {
    const page = await apiGet<DiagnosticsPage>(next);
    all.push(...page.diagnostics);
    next = page.next;
  }
  return all;
}

interface Loaded {
  readonly version: VersionDetail;
  readonly shown: ShownFile;
  /** The version's exact bytes (`/raw`). */
  readonly bytes: Uint8Array;
}

export function VersionContent(props: {
  versionId: number;
  latest: boolean;
  onShowLatest: () => void;
  /** The site's origin (`https://example.com`): the tester opens with its home page as a URL to try. */
  origin: string;
}) {
  const { versionId } = props;
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setError(null);
    Promise.all([
      apiGet<VersionDetail>(`/api/versions/${versionId}?content=false`).then(async (version) => ({
        version,
        diagnostics: await allDiagnostics(version),
      })),
      apiBytes(`/api/versions/${versionId}/raw`),
    ])
      .then(([{ version, diagnostics }, bytes]) => {
        if (!live) return;
        setLoaded({ version, bytes, shown: showStoredLint(bytes, diagnostics, LINT_DOCS_BASE) });
      })
      .catch((cause: unknown) => {
        if (live) setError(toApiError(cause));
      });
    return () => {
      live = false;
    };
  }, [versionId, attempt]);

  if (error) return <ApiErrorNotice error={error} onRetry={() => setAttempt((n) => n + 1)} context="The content" />;
  if (!loaded || loaded.version.id !== versionId) return <p class="empty">Loading the content…</p>;
  return (
    <ContentView
      key={versionId}
      loaded={loaded}
      latest={props.latest}
      onShowLatest={props.onShowLatest}
      origin={props.origin}
    />
  );
}

/**
 * Opens the tester with this file (through its share-link state), Googlebot, and the site's home page. The exact bytes
 * go along when their text is not their UTF-8 (Latin-1, UTF-16, a byte order mark, CR line ends…): the tester decides
 * on them, as a crawler does.
 */
async function openInTester(text: string, bytes: Uint8Array, origin: string): Promise<void> {
  const shared = needsBytes(bytes, text) ? bytes : null;
  navigate(
    `/${await encodeState({ text, bytes: shared, urls: `${origin}/`, crawler: 'Googlebot', dialect: 'google' })}`,
  );
}

function ContentView(props: { loaded: Loaded; latest: boolean; onShowLatest: () => void; origin: string }) {
  const { loaded, latest, onShowLatest, origin } = props;
  const { version, shown } = loaded;
  const editor = useRef<EditorHandle | null>(null);
  const [current, setCurrent] = useState<number | null>(null);
  const [all, setAll] = useState(false);
  /** The issues as listed and walked: by severity, the dialect notes last. */
  const issues = useMemo(() => inListOrder(shown.diagnostics), [shown]);
  const lint = version.lint;

  return (
    <div class="content-view">
      {!latest && (
        <p class="reading-note">
          Showing the version fetched {formatTime(version.fetchedAt)}, not the latest.{' '}
          <button type="button" class="link-button" onClick={onShowLatest}>
            Show the latest
          </button>
        </p>
      )}
      <div class="panel editor-panel content-panel">
        <div class="panel-head">
          <h2 class="panel-title" id="content-title">
            Content
          </h2>
          <span class="issue-counts" aria-live="polite">
            {lint === null ? (
              <span class="muted">not linted</span>
            ) : issues.length === 0 ? (
              <span class="muted">No issues</span>
            ) : (
              <>
                {lint.errors > 0 && <span class="count count-error">{plural(lint.errors, 'error')}</span>}
                {lint.warnings > 0 && <span class="count count-warning">{plural(lint.warnings, 'warning')}</span>}
                {lint.info > 0 && <span class="count count-info">{lint.info} info</span>}
              </>
            )}
          </span>
          <span class="spacer" />
          <button
            type="button"
            class="small"
            disabled={issues.length === 0}
            onClick={() => editor.current?.previousIssue()}
          >
            ‹ Previous<span class="wide-only"> issue</span>
          </button>
          <button
            type="button"
            class="small"
            disabled={issues.length === 0}
            onClick={() => editor.current?.nextIssue()}
          >
            Next<span class="wide-only"> issue</span> ›
          </button>
        </div>
        <div class="editor content-editor">
          <RobotsEditor
            initial={shown.text}
            diagnostics={issues}
            order="given"
            label="Fetched robots.txt"
            readOnly={true}
            describedBy="content-title"
            onReady={(handle) => {
              editor.current = handle;
            }}
            onIssue={(_issue, index) => setCurrent(index)}
          />
        </div>
        <div class="panel-foot muted">
          <span>
            {formatBytes(version.size ?? 0)}
            {shown.bom && ' · starts with a byte order mark'} · fetched {formatTime(version.fetchedAt)}
          </span>
          {version.truncated && (
            <span class="count count-error truncated-note">
              Cut at 500 KiB: Google reads the first 512,000 bytes and ignores the rest
            </span>
          )}
          <span class="spacer" />
          <button
            type="button"
            class="link-button foot-link"
            onClick={() => void openInTester(shown.text, loaded.bytes, origin)}
          >
            Open in the tester
          </button>
          <span aria-hidden="true">·</span>
          <a href={`/api/versions/${version.id}/raw`} target="_blank" rel="noreferrer">
            Raw bytes
          </a>
          <span class="keys"> · F8 / Shift-F8: next / previous issue</span>
        </div>
      </div>
      {issues.length > 0 && (
        <ol class="issue-list" aria-label="Issues">
          {(all ? issues : issues.slice(0, LIST_LIMIT)).map((issue, i) => (
            <li key={`${issue.from}:${issue.code}:${i}`} class={current === i ? 'current' : undefined}>
              <button
                type="button"
                class="issue-button"
                aria-current={current === i ? 'true' : undefined}
                onClick={() => editor.current?.selectIssue(i)}
              >
                <SeverityBadge severity={issue.severity} />
                <span class="line-ref">line {issue.line}</span>
                <span class="issue-message">{issue.message}</span>
              </button>
              <a class="issue-code" href={issue.docs} target="_blank" rel="noreferrer">
                {issue.code}
              </a>
            </li>
          ))}
        </ol>
      )}
      {!all && issues.length > LIST_LIMIT && (
        <p class="more">
          {issues.length - LIST_LIMIT} more.{' '}
          <button type="button" class="link-button" onClick={() => setAll(true)}>
            Show all
          </button>
        </p>
      )}
    </div>
  );
}

/**
 * The tester's editor panel: the robots.txt editor with its issue counts, previous/next issue buttons, the issue the
 * keyboard moved to, and a footer with the file's size and timings.
 */

import type { RefObject } from 'preact';
import { useState } from 'preact/hooks';
import type { EditorDiagnostic } from '../../components/editor-diagnostic.js';
import { formatBytes, formatTime, plural } from '../../components/format.js';
import { type EditorHandle, RobotsEditor } from '../../components/robots-editor.js';
import type { FileAnswer, VerdictsAnswer } from '../../engine/protocol.js';
import type { FileSource } from './use-tester-state.js';

const NO_DIAGNOSTICS: readonly EditorDiagnostic[] = [];

/** An issue the keyboard moved to, with its place among all. */
type CurrentIssue = EditorDiagnostic & { index: number; total: number };

/** The issue counts by severity; "Linting…" until the first lint arrives. */
function IssueCounts({ diagnostics, linted }: { diagnostics: readonly EditorDiagnostic[]; linted: boolean }) {
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return (
    <span class="issue-counts" id="issue-summary" aria-live="polite">
      {diagnostics.length === 0 ? (
        <span class="muted">{linted ? 'No issues' : 'Linting…'}</span>
      ) : (
        <>
          {counts.error > 0 && <span class="count count-error">{plural(counts.error, 'error')}</span>}
          {counts.warning > 0 && <span class="count count-warning">{plural(counts.warning, 'warning')}</span>}
          {counts.info > 0 && <span class="count count-info">{counts.info} info</span>}
        </>
      )}
    </span>
  );
}

function IssueLine({ issue, onClose }: { issue: CurrentIssue; onClose: () => void }) {
  return (
    <div class="issue-line" role="status">
      <span class={`count count-${issue.severity}`}>{issue.severity}</span>
      <span>
        Issue {issue.index + 1} of {issue.total}, line {issue.line}: {issue.message}{' '}
        <a href={issue.docs} target="_blank" rel="noreferrer">
          {issue.code}
        </a>
      </span>
      <button type="button" class="link-button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}

/** Whose file the editor holds, in one line: the example, a shared link, a live file (URL, status, time) or none. */
function SourceLine({ source, text }: { source: FileSource; text: string }) {
  let words: string;
  if (source.kind === 'example') words = 'An example file: edit it, paste your own, or load a live file above.';
  else if (source.kind === 'link') words = 'The file from a shared link.';
  else if (source.kind === 'live') {
    const status = source.status === null ? '' : `HTTP ${source.status}, `;
    const edited = text === source.text ? '' : ' Edited since: the verdicts are for your text, not the live file.';
    words = `Live file ${source.url} (${status}loaded ${formatTime(new Date(source.at).toISOString())}).${edited}`;
  } else {
    const typed =
      text === '' ? ' Nothing is tested until you type or load a file.' : ' The verdicts are for your text.';
    words = `No file: loading ${source.url} failed at ${formatTime(new Date(source.at).toISOString())}. ${source.problem}${typed}`;
  }
  return (
    <p class={`source-line${source.kind === 'failed' ? ' source-failed' : ''}`} id="editor-source">
      {words}
    </p>
  );
}

/** Saves the file as `robots.txt`: the loaded bytes while unedited, else the text as UTF-8. */
function download(text: string, bytes: Uint8Array | null): void {
  // A copy: the Blob wants bytes over a plain ArrayBuffer.
  const blob = new Blob([new Uint8Array(bytes ?? new TextEncoder().encode(text))], { type: 'text/plain' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'robots.txt';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The editor panel. The editor keeps the last diagnostics while a new text is linted (CodeMirror maps them through the
 * edits); `current` is the lint of the text the verdicts are about, once it has arrived.
 */
export function EditorPanel(props: {
  initial: string;
  editor: RefObject<EditorHandle | null>;
  verdicts: VerdictsAnswer | null;
  facts: FileAnswer | null;
  current: FileAnswer | null;
  source: FileSource;
  /** The text in the editor, and the bytes tested for it while unedited. */
  text: string;
  bytes: Uint8Array | null;
  onChange: (text: string) => void;
}) {
  const { editor, verdicts, facts, current } = props;
  const [issue, setIssue] = useState<CurrentIssue | null>(null);
  const diagnostics = facts?.diagnostics ?? NO_DIAGNOSTICS;
  return (
    <div class="panel editor-panel">
      <div class="panel-head">
        <span class="panel-title" id="editor-title">
          robots.txt
        </span>
        <IssueCounts diagnostics={diagnostics} linted={facts !== null} />
        {facts && !current && <span class="muted linting">linting…</span>}
        <span class="spacer" />
        <button type="button" class="small" onClick={() => download(props.text, props.bytes)}>
          Download
        </button>
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
      <SourceLine source={props.source} text={props.text} />
      {/* Above the editor, so the issue moved to is in view with the buttons that moved to it. */}
      {issue && <IssueLine issue={issue} onClose={() => setIssue(null)} />}
      <RobotsEditor
        initial={props.initial}
        diagnostics={diagnostics}
        onChange={(value) => {
          props.onChange(value);
          setIssue(null);
        }}
        onReady={(handle) => {
          editor.current = handle;
        }}
        onIssue={(found, index, total) => setIssue({ ...found, index, total })}
        describedBy="editor-source issue-summary"
      />
      <div class="panel-foot muted">
        {verdicts
          ? `${formatBytes(verdicts.bytes)} · ${plural(verdicts.groups, 'group')} · parsed in ${verdicts.parseMs.toFixed(1)} ms, verdicts ${verdicts.ms.toFixed(1)} ms${current ? `, lint ${current.ms.toFixed(1)} ms` : ''}`
          : 'Checking…'}
        <span class="spacer" />
        <span class="keys">F8 / Shift-F8: next / previous issue</span>
      </div>
    </div>
  );
}

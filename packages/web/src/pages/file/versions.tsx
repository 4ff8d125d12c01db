/**
 * A file's versions (every fetch whose content or outcome differed from the one before) and the changes between any
 * two of them: pick the older and the newer in the table, the diff shows below with line numbers, added and removed
 * lines, and how the lint findings changed.
 */

import type { Version, VersionDiff } from '../../api-types.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatBytes, formatTime, plural } from '../../components/format.js';
import { SeverityBadge } from '../../components/status.js';
import { useApi } from '../../components/use-api.js';

export interface Comparison {
  /** The newer version. */
  readonly version: number;
  /** The older one. */
  readonly against: number | null;
}

/** A version's report status (the engine's `fetchStatusOf`) with its status in its protocol's words (HTTP 200, FTP 550). */
function outcomeText(v: Version): string {
  const reply = v.reply === null ? '' : ` · ${v.reply}`;
  if (v.status === 'fetched') return `Fetched${reply}`;
  if (v.status === 'not-found') return `Not found${reply}`;
  return `Error${reply}`;
}

/**
 * The versions to list: fetches whose content (or found / not found) differed from the one before, as Search Console
 * lists them. Failed fetches are kept on the fetch timeline, not here: a failure has no content, and the last good
 * version stays in use through it.
 */
export function contentVersions(versions: readonly Version[] | null): Version[] | null {
  if (versions === null) return null;
  const kept: Version[] = [];
  // Newest first: a version is kept unless it failed, or it only repeats the kept one below it (a recovery to the
  // same content after a failure).
  const good = versions.filter((v) => v.outcome !== 'disallow-all');
  for (let i = 0; i < good.length; i++) {
    const v = good[i]!;
    const older = good[i + 1];
    if (older && older.outcome === v.outcome && older.bodyHash === v.bodyHash) continue;
    kept.push(v);
  }
  return kept;
}

/** The default comparison: the newest version against the one before it; none for a first version alone. */
export function defaultComparison(versions: readonly Version[]): Comparison | null {
  const [newest, previous] = versions;
  if (!newest) return null;
  return { version: newest.id, against: previous?.id ?? null };
}

export function VersionsTable(props: {
  versions: readonly Version[];
  comparison: Comparison | null;
  onCompare: (comparison: Comparison) => void;
  shown: number | null;
  onShow: (versionId: number) => void;
}) {
  const { versions, comparison, onCompare, shown, onShow } = props;
  if (versions.length === 0) {
    return (
      <p class="empty">
        No versions yet: the first successful fetch makes one (failed fetches are on the timeline above).
      </p>
    );
  }
  // Picking one end keeps the other when the pair stays in order, else the other end moves next to it.
  const index = (id: number | null) => versions.findIndex((v) => v.id === id);
  const pickNew = (id: number) => {
    const i = index(id);
    const j = index(comparison?.against ?? null);
    onCompare({ version: id, against: j > i ? (versions[j]?.id ?? null) : (versions[i + 1]?.id ?? null) });
  };
  const pickOld = (id: number) => {
    const j = index(id);
    const i = index(comparison?.version ?? null);
    onCompare({ version: i >= 0 && i < j ? versions[i]!.id : versions[Math.max(0, j - 1)]!.id, against: id });
  };
  return (
    <div class="table-wrap">
      <table class="data-table versions-table">
        <caption class="visually-hidden">
          Versions, newest first. Choose an older and a newer version to compare them.
        </caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Outcome</th>
            <th scope="col" class="num">
              Size
            </th>
            <th scope="col" class="center">
              Older
            </th>
            <th scope="col" class="center">
              Newer
            </th>
            <th scope="col">
              <span class="visually-hidden">Content</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v, i) => {
            const label = formatTime(v.fetchedAt);
            return (
              <tr key={v.id} class={shown === v.id ? 'selected' : undefined}>
                <th scope="row">
                  <time dateTime={v.fetchedAt}>{label}</time>
                  {i === 0 && <span class="tag">latest</span>}
                </th>
                <td data-label="Outcome">{outcomeText(v)}</td>
                <td class="num" data-label="Size">
                  {v.size === null ? '—' : formatBytes(v.size)}
                </td>
                <td class="center" data-label="Older">
                  <input
                    type="radio"
                    name="compare-old"
                    aria-label={`Compare from ${label}`}
                    checked={comparison?.against === v.id}
                    disabled={i === 0}
                    onChange={() => pickOld(v.id)}
                  />
                </td>
                <td class="center" data-label="Newer">
                  <input
                    type="radio"
                    name="compare-new"
                    aria-label={`Compare to ${label}`}
                    checked={comparison?.version === v.id}
                    disabled={i === versions.length - 1 && versions.length > 1}
                    onChange={() => pickNew(v.id)}
                  />
                </td>
                <td>
                  {v.outcome === 'rules' && (
                    <button
                      type="button"
                      class="small"
                      aria-pressed={shown === v.id}
                      aria-label={`Show the content of ${label}`}
                      onClick={() => onShow(v.id)}
                    >
                      {/* The same word pressed or not (the name must hold the visible text); pressed shows as pressed. */}
                      Show
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** `3–7`, `3`, or `none` for a side of a hunk. */
function lineRange(start: number, count: number): string {
  if (count === 0) return 'none';
  return count === 1 ? `${start}` : `${start}–${start + count - 1}`;
}

/** The engine's report status of a version's fetch, as a verb. */
const STATUS_WORDS = { fetched: 'fetched', 'not-found': 'not found', error: 'failed' } as const;

/** Why two versions have no line diff: what changed instead. */
function noContentChange(d: VersionDiff): string {
  const now = d.version;
  const status = now.reply === null ? '' : ` (${now.reply})`;
  if (d.against === null) {
    return now.outcome === 'rules'
      ? 'The first version is empty.'
      : `The first fetch ${STATUS_WORDS[now.status]}${status}: no content.`;
  }
  if (now.outcome === 'disallow-all' || d.against.outcome === 'disallow-all') {
    const failed = now.outcome === 'disallow-all' ? now : d.against;
    const code = failed.httpStatus === null ? '' : ` (HTTP ${failed.httpStatus})`;
    return `A failed fetch${code} has no content: it is an event of the timeline, not a change of lines. The last good version's rules apply through it.`;
  }
  if (d.against.outcome !== now.outcome) {
    return `No content to compare: the fetch ${STATUS_WORDS[d.against.status]} before and ${STATUS_WORDS[now.status]} now${status}.`;
  }
  return 'No line changed.';
}

export function DiffView({
  comparison,
  onShowContent,
}: {
  comparison: Comparison;
  /** Shows a version's content (a first version is shown as content, not as a diff of added lines). */
  onShowContent?: (versionId: number) => void;
}) {
  // A first version has nothing to compare with (every line would read as added): its content is the thing to see.
  const first = comparison.against === null;
  const diff = useApi<VersionDiff>(
    first ? null : `/api/versions/${comparison.version}/diff?against=${comparison.against}`,
  );
  if (first) {
    return (
      <section class="diff" aria-label="Changes between the two versions">
        <p class="empty">
          This is the first version: there is no earlier version to compare it with.{' '}
          {onShowContent && (
            <button type="button" class="small" onClick={() => onShowContent(comparison.version)}>
              Show its content
            </button>
          )}
        </p>
      </section>
    );
  }
  if (diff.error) return <ApiErrorNotice error={diff.error} onRetry={diff.reload} context="The diff" />;
  const d = diff.data;
  if (!d) return <p class="empty">Comparing…</p>;
  const lint = d.lint;
  // Unknown counts (a side never linted) are left out, never shown as "null".
  const counts = (c: { before: number | null; after: number | null }) =>
    d.against === null || c.before === null || c.after === null || c.before === c.after
      ? `${c.after ?? c.before ?? '—'}`
      : `${c.before} → ${c.after}`;
  const linted = lint.errors.after !== null || lint.errors.before !== null;
  return (
    <section class="diff" aria-label="Changes between the two versions">
      <div class="diff-head">
        <span>
          {d.against ? (
            <>
              <time dateTime={d.against.fetchedAt}>{formatTime(d.against.fetchedAt)}</time> →{' '}
            </>
          ) : (
            'First version: '
          )}
          <time dateTime={d.version.fetchedAt}>{formatTime(d.version.fetchedAt)}</time>
        </span>
        <span class="diff-stat">
          <span class="added-count">+{d.added}</span> <span class="removed-count">−{d.removed}</span>{' '}
          {d.added + d.removed === 1 ? 'line' : 'lines'}
        </span>
        {linted && (
          <span class="muted">
            Errors {counts(lint.errors)} · Warnings {counts(lint.warnings)}
          </span>
        )}
      </div>
      {(lint.added.length > 0 || lint.removed.length > 0) && (
        <ul class="lint-changes">
          {lint.added.map((x, i) => (
            <li key={`a${i}`}>
              <span class="change-sign added-count">new</span>
              <SeverityBadge severity={x.severity} /> line {x.line}: {x.message}
            </li>
          ))}
          {lint.removed.map((x, i) => (
            <li key={`r${i}`}>
              <span class="change-sign removed-count">fixed</span>
              <SeverityBadge severity={x.severity} /> line {x.line}: {x.message}
            </li>
          ))}
          {lint.addedTotal + lint.removedTotal > lint.added.length + lint.removed.length && (
            <li class="muted">
              {lint.addedTotal - lint.added.length + lint.removedTotal - lint.removed.length} more not listed (
              {lint.addedTotal} new, {lint.removedTotal} fixed in all)
            </li>
          )}
        </ul>
      )}
      {!d.complete ? (
        <p class="empty diff-summary">
          Too many changes for a line diff: {plural(d.added, 'line')} of the new version are not in the old one, and{' '}
          {plural(d.removed, 'line')} of the old one are gone (counted in any order). Open each version's content to
          read it.
        </p>
      ) : d.hunks.length === 0 ? (
        <p class="empty">{noContentChange(d)}</p>
      ) : (
        <div class="diff-body">
          <table class="diff-table">
            <caption class="visually-hidden">
              {plural(d.added, 'line')} added and {plural(d.removed, 'line')} removed
            </caption>
            {d.hunks.map((hunk, h) => (
              <tbody key={h}>
                <tr class="hunk-head">
                  <td colSpan={3}>
                    Lines {lineRange(hunk.oldStart, hunk.oldLines)} → {lineRange(hunk.newStart, hunk.newLines)}
                  </td>
                </tr>
                {hunk.lines.map((line, i) => (
                  <tr key={i} class={`diff-${line.kind}`}>
                    <td class="ln">{line.oldLine ?? ''}</td>
                    <td class="ln">{line.newLine ?? ''}</td>
                    <td class="code">
                      <span class="visually-hidden">
                        {line.kind === 'added' ? 'added: ' : line.kind === 'removed' ? 'removed: ' : ''}
                      </span>
                      <span class="sign" aria-hidden="true">
                        {line.kind === 'added' ? '+' : line.kind === 'removed' ? '−' : ' '}
                      </span>
                      {line.text === '' ? '\u00a0' : line.text}
                    </td>
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      )}
    </section>
  );
}

/** The result views under the editor: verdicts for the chosen crawler, the every-crawler matrix, the differences. */

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type CrawlerKind, DIALECT_DIFFERENCE_TITLES, type DialectName, pathOfUrl } from 'robotskit';
import {
  type DifferenceRow,
  MATRIX_MAX_URLS,
  type MatrixRow,
  type Verdict,
  type VerdictRow,
} from '../../engine/protocol.js';
import { shortOperator } from './operator.js';
import { UsageCell } from './usage-cell.js';

/** Rows rendered before "Show all": thousands of URLs would make every keystroke re-render them all. */
const ROW_LIMIT = 500;
const DIFFERENCE_STEP = 100;

/** The readings the tester offers, as their choice is labelled. */
export const READING: Readonly<Record<DialectName, string>> = {
  google: 'Google (RFC 9309)',
  legacy: '1994 convention',
};

function VerdictBadge({ allowed }: { allowed: boolean }) {
  return <span class={allowed ? 'badge badge-allowed' : 'badge badge-blocked'}>{allowed ? 'Allowed' : 'Blocked'}</span>;
}

function RuleText({ verdict }: { verdict: Verdict }) {
  if (verdict.rule === null) return <span>{verdict.groups === 'none' ? 'No group applies' : 'No rule matches'}</span>;
  return <code class="rule">{verdict.rule}</code>;
}

/** Whether the matched path is what anyone would read from the URL (then it need not be shown). */
function obviousPath(url: string, path: string): boolean {
  try {
    return pathOfUrl(new URL(url).href) === path;
  } catch {
    return url === path;
  }
}

function groupText(verdict: Verdict): string {
  if (verdict.groups === 'specific') return verdict.token ? `group for ${verdict.token}` : 'its own group';
  if (verdict.groups === 'global') return 'the * group';
  return 'no group';
}

/** One row per URL and crawler: the verdict, the deciding rule and its group, and the other reading when it differs. */
export function VerdictTable(props: {
  rows: readonly VerdictRow[];
  dialect: DialectName;
  selected: number | null;
  /** The origin of a loaded live file: rows for other hosts are flagged. */
  fileOrigin?: string | null;
  onSelect: (index: number, line: number) => void;
}) {
  const { rows, dialect, selected, onSelect } = props;
  const fileOrigin = props.fileOrigin ?? null;
  const [limit, setLimit] = useState(ROW_LIMIT);
  if (rows.length === 0) {
    return <p class="empty">Add URLs to test (one per line) and each gets a verdict here.</p>;
  }
  const otherName = dialect === 'google' ? READING.legacy : READING.google;
  // The usage column only when the file states AI usage preferences (Content-Usage, Content-Signal).
  const usageShown = rows.some((row) => row.usage !== null);
  return (
    <div class="table-wrap">
      {dialect === 'legacy' && (
        <p class="reading-note">
          Verdicts as a crawler following the 1994 convention reads the file (records end at blank lines, the first
          matching rule decides, no wildcards). Rows where Google decides otherwise say so.
        </p>
      )}
      <table class="results">
        <caption class="visually-hidden">
          Verdicts for each URL as {READING[dialect]} reads the file. Select a row to highlight its deciding line.
        </caption>
        <thead>
          <tr>
            <th scope="col">Verdict</th>
            <th scope="col">URL</th>
            <th scope="col">Crawler</th>
            <th scope="col">Deciding rule</th>
            {usageShown && <th scope="col">AI usage</th>}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, limit).map((row, i) => {
            const differs = row.other.allowed !== row.verdict.allowed;
            return (
              <tr
                key={`${i}:${row.url}`}
                tabIndex={0}
                aria-selected={selected === i}
                class={selected === i ? 'selected' : undefined}
                onClick={() => onSelect(i, row.verdict.line)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    onSelect(i, row.verdict.line);
                  }
                }}
              >
                <td>
                  <VerdictBadge allowed={row.verdict.allowed} />
                </td>
                <td class="url-cell">
                  <span class="url">{row.url}</span>
                  {!obviousPath(row.url, row.path) && <span class="muted path"> matched as {row.path}</span>}
                  {fileOrigin !== null && otherHost(row.url, fileOrigin) && (
                    <span class="other-host">
                      Another host: this file is {fileOrigin}/robots.txt; {originOfUrl(row.url)} has its own.
                    </span>
                  )}
                </td>
                <td>{row.crawler}</td>
                <td>
                  {row.verdict.line > 0 && <span class="line-ref">line {row.verdict.line} </span>}
                  <RuleText verdict={row.verdict} />
                  {row.verdict.groups !== 'none' && <span class="muted"> · {groupText(row.verdict)}</span>}
                  {differs && (
                    <div class="differs">
                      {otherName}: {row.other.allowed ? 'Allowed' : 'Blocked'}
                      {row.other.line > 0 ? ` (line ${row.other.line})` : ''}
                    </div>
                  )}
                </td>
                {usageShown && <td class="usage-cell">{row.usage !== null && <UsageCell usage={row.usage} />}</td>}
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length > limit && (
        <p class="more">
          Showing {limit} of {rows.length} rows.{' '}
          <button type="button" class="small" onClick={() => setLimit(rows.length)}>
            Show all
          </button>
        </p>
      )}
    </div>
  );
}

function originOfUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** Whether `url` is absolute and on another origin than the file's (a path alone is on the file's). */
function otherHost(url: string, fileOrigin: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) return false;
  return originOfUrl(url) !== fileOrigin;
}

const KIND_LABEL: Readonly<Record<CrawlerKind, string>> = {
  search: 'Search',
  ads: 'Ads',
  ai: 'AI',
  tool: 'Tools',
  other: 'Other',
};

/** Every catalogue crawler against the first URLs, filterable; a cell shows its deciding line. */
export function CrawlerMatrix(props: {
  urls: readonly string[];
  matrix: readonly MatrixRow[] | null;
  onShowLine: (line: number) => void;
}) {
  const { matrix, onShowLine } = props;
  const urls = props.urls.slice(0, MATRIX_MAX_URLS);
  const [filter, setFilter] = useState('');
  const [ownOnly, setOwnOnly] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  // A new filter shows its first rows, wherever the list was scrolled to.
  useEffect(() => {
    if (wrap.current) wrap.current.scrollTop = 0;
  }, [filter, ownOnly]);
  const shown = useMemo(() => {
    if (!matrix) return [];
    const needle = filter.trim().toLowerCase();
    return matrix.filter(
      (row) =>
        (needle === '' || row.crawler.toLowerCase().includes(needle) || row.operator.toLowerCase().includes(needle)) &&
        (!ownOnly || row.cells.some((cell) => cell.groups === 'specific')),
    );
  }, [matrix, filter, ownOnly]);
  if (urls.length === 0) return <p class="empty">Add URLs to see every known crawler's verdict for each.</p>;
  if (!matrix) return <p class="empty">Computing…</p>;
  return (
    <div>
      <div class="toolbar">
        <label class="field-inline">
          <span>Filter crawlers</span>
          <input
            type="search"
            value={filter}
            placeholder="name or operator"
            onInput={(e) => setFilter(e.currentTarget.value)}
          />
        </label>
        <label class="check">
          <input type="checkbox" checked={ownOnly} onChange={(e) => setOwnOnly(e.currentTarget.checked)} />
          Only crawlers the file names
        </label>
        <span class="muted">
          {shown.length} of {matrix.length} crawlers
          {props.urls.length > urls.length && ` · the first ${urls.length} of ${props.urls.length} URLs`}
        </span>
      </div>
      {shown.length === 0 ? (
        <p class="empty">No crawler matches this filter.</p>
      ) : (
        <div class="table-wrap matrix-wrap" ref={wrap}>
          <table class="matrix">
            <caption class="visually-hidden">Every known crawler against each URL</caption>
            <thead>
              <tr>
                <th scope="col">Crawler</th>
                {urls.map((url, i) => (
                  <th scope="col" key={`${i}:${url}`} title={url}>
                    {shortUrl(url)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <tr key={row.crawler}>
                  <th scope="row" title={row.operator}>
                    <span class="crawler-name">{row.crawler}</span>
                    <span class="crawler-meta muted">
                      {[shortOperator(row.operator), KIND_LABEL[row.kind]].filter(Boolean).join(' · ')}
                    </span>
                  </th>
                  {row.cells.map((cell, i) => (
                    <td key={i} class={cell.allowed ? 'cell-allowed' : 'cell-blocked'}>
                      <button
                        type="button"
                        class="cell-button"
                        disabled={cell.line === 0}
                        title={cell.line > 0 ? `Show line ${cell.line}` : 'No rule decided'}
                        onClick={() => onShowLine(cell.line)}
                      >
                        {cell.allowed ? 'Allowed' : 'Blocked'}
                        {cell.line > 0 && <span class="cell-line">{cell.line}</span>}
                      </button>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function shortUrl(url: string): string {
  try {
    return pathOfUrl(new URL(url).href);
  } catch {
    return url;
  }
}

/** Where the 1994 reading differs from Google's, a hundred at a time, each with its lines. */
export function DifferenceList(props: { differences: readonly DifferenceRow[]; onShowLine: (line: number) => void }) {
  const { differences, onShowLine } = props;
  const [limit, setLimit] = useState(DIFFERENCE_STEP);
  if (differences.length === 0) {
    return (
      <p class="empty">
        Google and a crawler following the 1994 convention read this file the same way: no difference to show.
      </p>
    );
  }
  return (
    <>
      <ul class="differences">
        {differences.slice(0, limit).map((d, i) => (
          <li key={i}>
            <button type="button" class="line-button" onClick={() => onShowLine(d.line)}>
              {d.lines.length > 1 ? `Lines ${d.lines.join(', ')}` : `Line ${d.line}`}
            </button>
            <div>
              <strong>{DIALECT_DIFFERENCE_TITLES[d.kind]}</strong>
              <dl>
                <dt>Google</dt>
                <dd>{d.google}</dd>
                <dt>1994</dt>
                <dd>{d.legacy}</dd>
              </dl>
            </div>
          </li>
        ))}
      </ul>
      {differences.length > limit && (
        <p class="more">
          Showing {limit} of {differences.length}.{' '}
          <button type="button" class="small" onClick={() => setLimit(limit + DIFFERENCE_STEP)}>
            Show {Math.min(DIFFERENCE_STEP, differences.length - limit)} more
          </button>
        </p>
      )}
    </>
  );
}

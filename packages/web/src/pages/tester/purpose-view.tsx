/**
 * The tester's "By purpose" view: a purpose of the catalogue (or every AI purpose) instead of one crawler; for each
 * URL, the catalogue's crawlers of that purpose in sets that get the same answer, each set with its verdict, the
 * deciding rule and the AI usage preferences (the engine's `explain`, computed in the worker).
 */

import { CRAWLER_PURPOSES, PURPOSE_WORDS } from 'robotskit';
import { MATRIX_MAX_URLS, type PurposeChoice, type PurposeRow } from '../../engine/protocol.js';
import { UsageCell } from './usage-cell.js';

/** Names listed before the rest are folded away. */
const NAMES_SHOWN = 4;

const capital = (words: string) => words[0]!.toUpperCase() + words.slice(1);

/** The choices, in order: every AI purpose, then each purpose of the catalogue. */
const CHOICES: readonly { value: PurposeChoice; label: string }[] = [
  { value: 'ai', label: 'All AI crawlers' },
  ...CRAWLER_PURPOSES.map((p) => ({ value: p, label: capital(PURPOSE_WORDS[p]) })),
];

function Names({ names }: { names: readonly string[] }) {
  if (names.length <= NAMES_SHOWN) return <>{names.join(', ')}</>;
  return (
    <details class="purpose-names">
      <summary>
        {names.slice(0, NAMES_SHOWN - 1).join(', ')} and {names.length - NAMES_SHOWN + 1} more
      </summary>
      {names.join(', ')}
    </details>
  );
}

function groupText(row: PurposeRow): string {
  if (row.verdict.groups === 'specific') return 'their own group';
  if (row.verdict.groups === 'global') return 'the * group';
  return 'no group';
}

export function PurposeView(props: {
  purpose: PurposeChoice;
  onPurpose: (purpose: PurposeChoice) => void;
  urls: readonly string[];
  rows: readonly PurposeRow[] | null;
  onShowLine: (line: number) => void;
}) {
  const { rows, urls } = props;
  const usageShown = rows?.some((row) => row.usage !== null) ?? false;
  const label = CHOICES.find((c) => c.value === props.purpose)?.label ?? '';
  return (
    <div>
      <div class="toolbar">
        <label class="field-inline">
          <span>Purpose</span>
          <select value={props.purpose} onChange={(e) => props.onPurpose(e.currentTarget.value as PurposeChoice)}>
            {CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <span class="hint">
          Instead of the crawler above: every catalogue crawler of the purpose, in sets that get the same answer.
          {urls.length > MATRIX_MAX_URLS ? ` The first ${MATRIX_MAX_URLS} URLs.` : ''}
        </span>
      </div>
      {urls.length === 0 ? (
        <p class="empty">Add URLs to see what the crawlers of a purpose get for each.</p>
      ) : rows === null ? (
        <p class="empty">Computing…</p>
      ) : rows.length === 0 ? (
        <p class="empty">The catalogue has no crawler of this purpose.</p>
      ) : (
        <div class="table-wrap">
          <table class="purpose-table">
            <caption class="visually-hidden">
              {label}: for each URL, the catalogue’s crawlers that get the same verdict and usage preferences.
            </caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Crawlers</th>
                <th scope="col">Verdict</th>
                <th scope="col">Deciding rule</th>
                {usageShown && <th scope="col">AI usage</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                <tr key={`${i}:${row.url}`}>
                  <td class="url-cell">
                    <span class="url">{row.url}</span>
                  </td>
                  <td class="purpose-crawlers">
                    <span class="purpose-count">
                      {row.crawlers.length === 1 ? '1 crawler' : `${row.crawlers.length} crawlers`}:{' '}
                    </span>
                    <Names names={row.crawlers} />
                  </td>
                  <td>
                    <span class={row.verdict.allowed ? 'badge badge-allowed' : 'badge badge-blocked'}>
                      {row.verdict.allowed ? 'Allowed' : 'Blocked'}
                    </span>
                  </td>
                  <td>
                    {row.verdict.line > 0 ? (
                      <button
                        type="button"
                        class="link-button line-ref"
                        onClick={() => props.onShowLine(row.verdict.line)}
                      >
                        line {row.verdict.line}
                      </button>
                    ) : null}{' '}
                    {row.verdict.rule === null ? (
                      <span>{row.verdict.groups === 'none' ? 'No group applies' : 'No rule matches'}</span>
                    ) : (
                      <code class="rule">{row.verdict.rule}</code>
                    )}
                    <div class="muted">{groupText(row)}</div>
                  </td>
                  {usageShown && (
                    <td class="usage-cell">{row.usage === null ? null : <UsageCell usage={row.usage} />}</td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

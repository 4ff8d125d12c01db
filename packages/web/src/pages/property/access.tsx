/**
 * "Access as crawlers" on the property page: the service fetches robots.txt and one page of the property as itself
 * and with each crawler's real User-Agent (`POST /api/properties/:id/access`, the engine's access check), and the
 * table says per crawler what the edge served and whether that agrees with the file. The findings' sentences are the
 * engine's; this panel only names each kind in a few words.
 */

import { useState } from 'preact/hooks';
import { type ApiError, apiSend, toApiError } from '../../api.js';
import type { AccessResult } from '../../api-types.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { plural } from '../../components/format.js';

type CrawlerRow = AccessResult['crawlers'][number];
type FindingKind = CrawlerRow['findings'][number]['kind'];

/** Crawlers asked about unless the person names others: the main search crawler and two AI crawlers. */
const DEFAULT_CRAWLERS = 'Googlebot, GPTBot, ClaudeBot';

/** Each finding kind, in a few words. */
const FINDING_WORDS: Record<FindingKind, string> = {
  'edge-refuses': 'Refused at the edge',
  challenge: 'Challenge page',
  'robots-differs': 'Different robots.txt',
  'stale-robots': 'Stale cached robots.txt',
};

/** What the page answered, in words. */
function pageWords(page: CrawlerRow['page']): string {
  if (page.status === null) return page.error ?? 'no answer';
  return page.challenge ? `HTTP ${page.status}, a challenge` : `HTTP ${page.status}`;
}

/** Whether the robots.txt served to the crawler allows it the page, with the deciding line. */
function RobotsCell({ row }: { row: CrawlerRow }) {
  return (
    <>
      <span class={`badge badge-small ${row.allowed ? 'badge-allowed' : 'badge-blocked'}`}>
        {row.allowed ? 'Allowed' : 'Disallowed'}
      </span>
      <span class="cell-note">
        {row.line > 0 ? (
          <>
            line {row.line}: <code>{row.ruleText}</code>
          </>
        ) : (
          (row.robots.problem ?? 'no rule matches')
        )}
      </span>
    </>
  );
}

function FindingCell({ row }: { row: CrawlerRow }) {
  if (row.findings.length === 0) return <span class="badge badge-good badge-small">Agrees</span>;
  return (
    <ul class="finding-list">
      {row.findings.map((f) => (
        <li key={f.kind}>
          <span class="badge badge-bad badge-small">{FINDING_WORDS[f.kind]}</span>
          <span class="cell-note">{f.message}</span>
        </li>
      ))}
    </ul>
  );
}

function AccessTable({ result }: { result: AccessResult }) {
  return (
    <div class="table-wrap">
      <table class="data-table access-table">
        <caption class="visually-hidden">What the edge served each crawler for {result.url}</caption>
        <thead>
          <tr>
            <th scope="col">Crawler</th>
            <th scope="col">User-Agent used</th>
            <th scope="col">robots.txt allows?</th>
            <th scope="col">Page status</th>
            <th scope="col">Finding</th>
          </tr>
        </thead>
        <tbody>
          {result.crawlers.map((row) => (
            <tr key={row.crawler}>
              <th scope="row">{row.crawler}</th>
              <td data-label="User-Agent used">
                <code class="break">{row.userAgent}</code>
                {!row.documentedUserAgent && <span class="cell-note">built from its name: none is documented</span>}
              </td>
              <td data-label="robots.txt allows?">
                <RobotsCell row={row} />
              </td>
              <td data-label="Page status">{pageWords(row.page)}</td>
              <td data-label="Finding">
                <FindingCell row={row} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The panel: crawlers and a path, a button, and the answer. */
export function AccessPanel({ propertyId }: { propertyId: number }) {
  const [crawlers, setCrawlers] = useState(DEFAULT_CRAWLERS);
  const [path, setPath] = useState('/');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [result, setResult] = useState<AccessResult | null>(null);
  const names = crawlers
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');

  const run = async () => {
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      const body = { crawlers: names, path: path.trim() === '' ? '/' : path.trim() };
      setResult(await apiSend<AccessResult>('POST', `/api/properties/${propertyId}/access`, body));
    } catch (cause) {
      setError(toApiError(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="panel">
      <div class="panel-head">
        <h2 class="panel-title">Access as crawlers</h2>
      </div>
      <p class="hint" id="access-hint">
        Fetches robots.txt and the page with each crawler’s real User-Agent, and says where the site’s edge (CDN,
        firewall, paywall) treats a crawler otherwise than its robots.txt does.
      </p>
      <form
        class="toolbar activity-form"
        aria-describedby="access-hint"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <span class="field-inline">
          <label for="access-crawlers">Crawlers</label>
          <input
            id="access-crawlers"
            class="access-crawlers"
            type="text"
            autocomplete="off"
            spellcheck={false}
            value={crawlers}
            onInput={(event) => setCrawlers(event.currentTarget.value)}
          />
        </span>
        <span class="field-inline">
          <label for="access-path">Page</label>
          <input
            id="access-path"
            type="text"
            autocomplete="off"
            spellcheck={false}
            value={path}
            onInput={(event) => setPath(event.currentTarget.value)}
          />
        </span>
        <button type="submit" disabled={busy || names.length === 0}>
          {busy ? 'Checking…' : 'Check access'}
        </button>
      </form>
      <p class="hint" role="status">
        {busy
          ? `Fetching as ${plural(names.length, 'crawler')}…`
          : result === null
            ? null
            : result.disagreements === 0
              ? `The edge agrees with robots.txt for every crawler on ${result.url}.`
              : `${plural(result.disagreements, 'disagreement')} between the edge and robots.txt on ${result.url}.`}
      </p>
      {error && <ApiErrorNotice error={error} onRetry={() => void run()} />}
      {result && (
        <>
          <p class="hint">
            As the service itself ({result.baseline.userAgent}): robots.txt{' '}
            {result.baseline.robots.status === null
              ? (result.baseline.robots.problem ?? 'no answer')
              : `HTTP ${result.baseline.robots.status}`}
            , page {pageWords(result.baseline.page)}.
          </p>
          <AccessTable result={result} />
        </>
      )}
    </div>
  );
}

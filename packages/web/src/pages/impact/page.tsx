/**
 * Impact of a change: before a robots.txt goes live (a draft, edited here with the linter running as you type) or
 * after (a stored version), which of the site's URLs change verdict, for which crawlers: exactly (every region of
 * URLs decided differently, with a shortest example and the deciding lines, by the engine's comparison) and for the
 * URLs of the sitemaps the versions list (`POST /api/impact`); a list typed here replaces the sitemaps' URLs.
 */

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { type ApiError, apiGet, apiSend, toApiError } from '../../api.js';
import type { FileDetail, ImpactResult, Version, VersionDetail } from '../../api-types.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatTime, plural } from '../../components/format.js';
import { Breadcrumbs, Missing } from '../../components/report-frame.js';
import { type EditorHandle, RobotsEditor } from '../../components/robots-editor.js';
import { useApi, useDocumentTitle } from '../../components/use-api.js';
import { EngineClient } from '../../engine/client.js';
import type { EditorDiagnostic, WorkerAnswer } from '../../engine/protocol.js';
import type { RouteProps } from '../../router.js';

type Source = 'draft' | 'version';

const NO_DIAGNOSTICS: readonly EditorDiagnostic[] = [];
const SHOWN_CHANGES = 200;

function splitList(text: string, separator: RegExp): string[] {
  return text
    .split(separator)
    .map((s) => s.trim())
    .filter((s, i, all) => s !== '' && all.indexOf(s) === i);
}

export default function ImpactPage({ params }: RouteProps) {
  const id = params.id ?? '';
  const valid = /^[1-9]\d{0,15}$/.test(id);
  const file = useApi<FileDetail>(valid ? `/api/files/${id}?content=false` : null);
  const versions = useApi<{ versions: Version[] }>(valid ? `/api/files/${id}/versions` : null);
  useDocumentTitle(file.data ? `Impact · ${file.data.url}` : null);
  if (!valid || file.error?.code === 'not-found') {
    return (
      <Missing title="File not found">
        There is no robots.txt file <code>{id}</code>.
      </Missing>
    );
  }
  const f = file.data;
  const list = versions.data?.versions;
  return (
    <section class="page report">
      <Breadcrumbs
        trail={[
          { label: 'Properties', href: '/properties' },
          f?.properties[0] && { label: f.properties[0].name, href: `/properties/${f.properties[0].id}` },
          { label: 'robots.txt', href: `/files/${id}` },
          { label: 'Impact' },
        ]}
      />
      <div class="page-head">
        <h1>Impact of a change</h1>
        <p class="lede">
          Which of the site’s URLs would change verdict, for which crawlers, if {f ? <code>{f.url}</code> : 'the file'}{' '}
          changed: exactly, for every URL (each region of URLs decided differently, with an example), and for the URLs
          of the sitemaps the file lists.
        </p>
      </div>
      {file.error && <ApiErrorNotice error={file.error} onRetry={file.reload} />}
      {versions.error && <ApiErrorNotice error={versions.error} onRetry={versions.reload} />}
      {f && list ? <ImpactForm file={f} versions={list} /> : <p class="empty">Loading…</p>}
    </section>
  );
}

function ImpactForm({ file, versions }: { file: FileDetail; versions: readonly Version[] }) {
  const fetched = versions.filter((v) => v.outcome === 'rules');
  const current = versions[0] ?? null;
  const [source, setSource] = useState<Source>('draft');
  const [draft, setDraft] = useState<string | null>(null);
  const [versionId, setVersionId] = useState<number | null>(fetched[1]?.id ?? fetched[0]?.id ?? null);
  const [crawlers, setCrawlers] = useState('');
  const [urls, setUrls] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [result, setResult] = useState<ImpactResult | null>(null);
  const [diagnostics, setDiagnostics] = useState<readonly EditorDiagnostic[]>(NO_DIAGNOSTICS);
  const editor = useRef<EditorHandle | null>(null);
  const latest = useRef(0);

  // The draft starts as the current content (or an empty file when there is none).
  useEffect(() => {
    const base = fetched[0];
    if (!base) {
      setDraft('User-agent: *\nDisallow:\n');
      return;
    }
    apiGet<VersionDetail>(`/api/versions/${base.id}`)
      .then((v) => setDraft(v.content ?? ''))
      .catch(() => setDraft(''));
  }, []);

  // The draft is linted in the engine worker as it is typed.
  const client = useMemo(
    () =>
      new EngineClient((answer: WorkerAnswer) => {
        if (answer.type === 'file' && answer.id === latest.current) setDiagnostics(answer.diagnostics);
      }),
    [],
  );
  useEffect(() => () => client.dispose(), [client]);
  useEffect(() => {
    if (draft === null || source !== 'draft') return;
    const timer = setTimeout(() => {
      latest.current = client.request({ text: draft, urls: [], crawlers: [], dialect: 'google', matrix: false });
    }, 80);
    return () => clearTimeout(timer);
  }, [client, draft, source]);

  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const userAgents = splitList(crawlers, /,/);
      const urlList = splitList(urls, /\r\n|\r|\n/);
      const body = {
        fileId: file.id,
        ...(source === 'draft' ? { draft: draft ?? '' } : { versionId: versionId ?? 0 }),
        ...(userAgents.length > 0 ? { userAgents } : {}),
        ...(urlList.length > 0 ? { urls: urlList } : {}),
      };
      setResult(await apiSend<ImpactResult>('POST', '/api/impact', body));
    } catch (cause) {
      setError(toApiError(cause));
    } finally {
      setBusy(false);
    }
  };

  const counts = { error: 0, warning: 0 };
  for (const d of diagnostics) if (d.severity === 'error' || d.severity === 'warning') counts[d.severity]++;

  return (
    <>
      <form
        class="impact-form"
        onSubmit={(event) => {
          event.preventDefault();
          void run();
        }}
      >
        <fieldset class="panel source-choice">
          <legend class="panel-title">Compare the current version with</legend>
          <label class="check">
            <input type="radio" name="source" checked={source === 'draft'} onChange={() => setSource('draft')} />A draft
          </label>
          <label class="check">
            <input
              type="radio"
              name="source"
              checked={source === 'version'}
              disabled={fetched.length === 0}
              onChange={() => setSource('version')}
            />
            A stored version
          </label>
          {current && (
            <p class="hint">
              Current version: {formatTime(current.fetchedAt)} ({current.status}).
            </p>
          )}
        </fieldset>

        {source === 'draft' ? (
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
                  onChange={setDraft}
                  onReady={(handle) => {
                    editor.current = handle;
                  }}
                  onIssue={() => {}}
                />
              )}
            </div>
          </div>
        ) : (
          <div class="panel">
            <label class="panel-title" for="impact-version">
              Version
            </label>
            <select
              id="impact-version"
              value={versionId ?? ''}
              onChange={(event) => setVersionId(Number(event.currentTarget.value))}
            >
              {fetched.map((v, i) => (
                <option key={v.id} value={v.id}>
                  {formatTime(v.fetchedAt)}
                  {i === 0 ? ' (current)' : ''}
                </option>
              ))}
            </select>
          </div>
        )}

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
              value={crawlers}
              onInput={(event) => setCrawlers(event.currentTarget.value)}
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
              value={urls}
              onInput={(event) => setUrls(event.currentTarget.value)}
            />
            <p class="hint">One per line, full URLs or paths. Empty: read from the sitemaps.</p>
          </div>
        </div>
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
      {error && <ApiErrorNotice error={error} onRetry={() => void run()} />}
      {result && <ImpactReport result={result} />}
    </>
  );
}

function VerdictCell({ side }: { side: ImpactResult['changes'][number]['before'] }) {
  return (
    <span class="verdict-cell">
      <span class={side.allowed ? 'badge badge-allowed' : 'badge badge-blocked'}>
        {side.allowed ? 'Allowed' : 'Blocked'}
      </span>
      {side.rule ? (
        <span class="muted">
          {side.line > 0 && <span class="line-ref">line {side.line}</span>}
          <code class="rule">
            {side.rule.kind}: {side.rule.pattern}
          </code>
        </span>
      ) : (
        <span class="muted">{side.note ?? 'no rule matches'}</span>
      )}
    </span>
  );
}

type Exact = ImpactResult['exact'];
type ExactCrawler = Exact['crawlers'][number];
type ExactRule = ExactCrawler['regions'][number]['before'];

/** Crawlers whose exact answer is the same (the same groups in both versions), shown once. */
function groupedCrawlers(crawlers: readonly ExactCrawler[]): { names: string[]; result: ExactCrawler }[] {
  const groups = new Map<string, { names: string[]; result: ExactCrawler }>();
  for (const c of crawlers) {
    const key = JSON.stringify([c.equivalent, c.complete, c.regionsTotal, c.regions]);
    const group = groups.get(key);
    if (group) group.names.push(c.userAgent);
    else groups.set(key, { names: [c.userAgent], result: c });
  }
  return [...groups.values()];
}

function RuleCell({ rule, allowed }: { rule: ExactRule; allowed: boolean }) {
  return (
    <span class="verdict-cell">
      <span class={allowed ? 'badge badge-allowed' : 'badge badge-blocked'}>{allowed ? 'Allowed' : 'Blocked'}</span>
      {rule ? (
        <span class="muted">
          <span class="line-ref">line {rule.line}</span>
          <code class="rule">{rule.lineText ?? `${rule.kind}: ${rule.pattern}`}</code>
          {rule.indexHtml && <span class="hint"> (read as {rule.pattern}, Google’s index.html rule)</span>}
        </span>
      ) : (
        <span class="muted">no rule matches</span>
      )}
    </span>
  );
}

/** The engine's exact comparison: every region of URLs whose verdict changes, per crawler, with an example. */
function ExactRegions({ exact }: { exact: Exact }) {
  if (!exact.available) {
    return <p class="notice notice-info">{exact.note}</p>;
  }
  return (
    <>
      {!exact.complete && (
        <p class="notice notice-warning" role="note">
          The exact comparison was cut short (it reached its bounds before finishing): the regions listed are real, but
          there may be more. The sitemap sample below is complete for the URLs it read.
        </p>
      )}
      {groupedCrawlers(exact.crawlers).map(({ names, result }) => {
        const who = names.join(', ');
        const id = `exact-${names.join('-').replace(/[^A-Za-z0-9_-]/g, '_')}`;
        return (
          <section key={who} class="exact-crawler" aria-labelledby={id}>
            <h4 class="exact-title" id={id}>
              {who}
            </h4>
            {result.equivalent ? (
              <p class="exact-equivalent">
                <span class="badge badge-good">No change in meaning</span> every URL is decided as before.
              </p>
            ) : (
              <>
                <p class="hint">
                  {result.regionsTotal === 0
                    ? 'No region found before the comparison stopped.'
                    : `${plural(result.regionsTotal, 'region')} of URLs decided differently${
                        result.complete ? '' : ' so far (the comparison was cut short)'
                      }${result.regions.length < result.regionsTotal ? `; the first ${result.regions.length} listed` : ''}.`}
                </p>
                {result.regions.length > 0 && (
                  <div class="table-wrap">
                    <table class="data-table changes-table regions-table">
                      <caption class="visually-hidden">Regions whose verdict changes for {who}</caption>
                      <thead>
                        <tr>
                          <th scope="col">Region</th>
                          <th scope="col">Example URL</th>
                          <th scope="col">Now</th>
                          <th scope="col">After the change</th>
                        </tr>
                      </thead>
                      <tbody>
                        {result.regions.map((r, i) => (
                          <tr key={`${i}:${r.pattern}:${r.witness}`}>
                            <td class="url-cell">
                              <span class={r.change === 'blocked' ? 'count count-error' : 'count count-allowed'}>
                                {r.change === 'blocked' ? 'Now blocked' : 'Now allowed'}
                              </span>{' '}
                              <code class="rule">{r.pattern}</code>
                            </td>
                            <td data-label="Example URL" class="url-cell">
                              <a class="url" href={r.witnessUrl} target="_blank" rel="noopener noreferrer">
                                {r.witnessUrl}
                              </a>
                            </td>
                            <td data-label="Now">
                              <RuleCell rule={r.before} allowed={r.change === 'blocked'} />
                            </td>
                            <td data-label="After">
                              <RuleCell rule={r.after} allowed={r.change === 'allowed'} />
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </>
            )}
          </section>
        );
      })}
    </>
  );
}

function ImpactReport({ result }: { result: ImpactResult }) {
  return (
    <section class="panel impact-report" aria-label="Impact">
      <h2 class="panel-title">Result</h2>
      <div class="impact-columns">
        <section class="impact-exact" aria-labelledby="impact-exact-title">
          <h3 class="section-title" id="impact-exact-title">
            Every URL whose verdict changes
          </h3>
          <p class="hint">
            Exact, for every URL of the site, listed in a sitemap or not: each region of URLs decided differently, with
            the shortest example and the lines that decide it now and after the change.
          </p>
          <ExactRegions exact={result.exact} />
        </section>
        <section class="impact-sample" aria-labelledby="impact-sample-title">
          <h3 class="section-title" id="impact-sample-title">
            {result.urls.source === 'request' ? 'The URLs typed' : 'The sitemap sample'}
          </h3>
          <SampleReport result={result} />
        </section>
      </div>
    </section>
  );
}

function SampleReport({ result }: { result: ImpactResult }) {
  const [limit, setLimit] = useState(SHOWN_CHANGES);
  const changed = result.summary.filter((s) => s.newlyBlocked + s.newlyAllowed > 0);
  const sources =
    result.urls.source === 'request'
      ? 'the home page and the URLs typed'
      : result.urls.noSitemap
        ? 'the home page (no sitemap was found)'
        : `the home page and ${plural(result.urls.sitemaps.length, 'sitemap')}`;
  return (
    <>
      <p class="impact-summary" role="status">
        {plural(result.urls.checked, 'URL')} from {sources} checked for {plural(result.userAgents.length, 'crawler')}
        {result.urls.capped ? ' (capped)' : ''}:{' '}
        <strong>
          {result.changesTotal === 0 ? 'no verdict changes' : plural(result.changesTotal, 'verdict change')}
        </strong>
        .
      </p>
      {result.urls.problems.length > 0 && (
        <ul class="problems">
          {result.urls.problems.slice(0, 10).map((p) => (
            <li key={p} class="hint hint-warning">
              {p}
            </li>
          ))}
        </ul>
      )}
      {result.urls.noSitemap && (
        <p class="notice notice-info">
          No sitemap was found: the robots.txt lists none and {result.origin}/sitemap.xml has no URLs, so only the home
          page was checked. Type the URLs that matter above to check them too.
        </p>
      )}
      {changed.length > 0 && (
        <div class="table-wrap">
          <table class="data-table compact summary-table">
            <caption class="visually-hidden">Verdict changes per crawler</caption>
            <thead>
              <tr>
                <th scope="col">Crawler</th>
                <th scope="col" class="num">
                  Newly blocked
                </th>
                <th scope="col" class="num">
                  Newly allowed
                </th>
              </tr>
            </thead>
            <tbody>
              {changed.map((s) => (
                <tr key={s.userAgent}>
                  <th scope="row">{s.userAgent}</th>
                  <td class="num">
                    <span class={s.newlyBlocked > 0 ? 'count count-error' : 'muted'}>{s.newlyBlocked}</span>
                  </td>
                  <td class="num">
                    <span class={s.newlyAllowed > 0 ? 'count count-allowed' : 'muted'}>{s.newlyAllowed}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result.changes.length > 0 && (
        <div class="table-wrap">
          <table class="data-table changes-table">
            <caption class="visually-hidden">URLs whose verdict changes</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Crawler</th>
                <th scope="col">Now</th>
                <th scope="col">After the change</th>
              </tr>
            </thead>
            <tbody>
              {result.changes.slice(0, limit).map((c, i) => (
                <tr key={`${i}:${c.url}:${c.userAgent}`}>
                  <td class="url-cell">
                    <span class="url">{c.url}</span>
                  </td>
                  <td data-label="Crawler">{c.userAgent}</td>
                  <td data-label="Now">
                    <VerdictCell side={c.before} />
                  </td>
                  <td data-label="After">
                    <VerdictCell side={c.after} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {result.changes.length > limit && (
        <p class="more">
          {result.changes.length - limit} more shown on request.{' '}
          <button type="button" class="link-button" onClick={() => setLimit(result.changes.length)}>
            Show all
          </button>
        </p>
      )}
      {result.changesTotal > result.changes.length && (
        <p class="hint">
          The service lists the first {result.changes.length} changes of {result.changesTotal}.
        </p>
      )}
    </>
  );
}

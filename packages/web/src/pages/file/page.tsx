/**
 * One robots.txt file: where it stands (fetch status, the policy crawlers apply now and why), its last fetch, its
 * content with the lint findings in place, its AI use (what it gives AI crawlers, by purpose, and the usage
 * preferences that apply), a timeline of fetch outcomes and sizes, its versions with the changes
 * between any two, and its alerts. Recrawl fetches it now and shows the progress. `?diff=<id>&against=<id>` opens a
 * comparison (alert links use it).
 */

import { useEffect, useMemo, useState } from 'preact/hooks';
import type { FetchPoint, FileDetail, Health, Version } from '../../api-types.js';
import { AlertList, alertChangeHref } from '../../components/alerts.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatBytes, formatDuration, formatRelative, formatTime } from '../../components/format.js';
import { Breadcrumbs, Missing } from '../../components/report-frame.js';
import { FileStatusBadge, Headline, PolicyBadge, SitemapShareNote, statusDetail } from '../../components/status.js';
import { useApi, useDocumentTitle, useNow } from '../../components/use-api.js';
import { Link, type RouteProps } from '../../router.js';
import { AiUseSection } from './ai-use.js';
import { VersionContent } from './content.js';
import { Recrawl } from './recrawl.js';
import { Timeline } from './timeline.js';
import { type Comparison, contentVersions, DiffView, defaultComparison, VersionsTable } from './versions.js';

/** The comparison asked for in the address (`?diff=12&against=9`), if any. */
function comparisonFromAddress(): Comparison | null {
  const query = new URLSearchParams(location.search);
  const version = Number(query.get('diff'));
  if (!Number.isSafeInteger(version) || version < 1) return null;
  const against = Number(query.get('against'));
  return { version, against: Number.isSafeInteger(against) && against >= 1 ? against : null };
}

export default function FilePage({ params }: RouteProps) {
  const id = params.id ?? '';
  const valid = /^[1-9]\d{0,15}$/.test(id);
  const file = useApi<FileDetail>(valid ? `/api/files/${id}?content=false` : null, { pollMs: 30_000 });
  const versions = useApi<{ versions: Version[] }>(valid ? `/api/files/${id}/versions` : null);
  const fetches = useApi<{ fetches: FetchPoint[] }>(valid ? `/api/files/${id}/fetches?limit=1000` : null);
  const health = useApi<Health>('/api/health');
  const now = useNow();
  useDocumentTitle(file.data ? file.data.url : null);
  const [comparison, setComparison] = useState<Comparison | null>(comparisonFromAddress);
  /** Whether someone chose the comparison (address, radio buttons, an alert): then new versions leave it alone. */
  const [chosen, setChosen] = useState(comparison !== null);
  const choose = (next: Comparison) => {
    setChosen(true);
    setComparison(next);
  };
  const [shownVersion, setShownVersion] = useState<number | null>(null);
  const [refreshes, setRefreshes] = useState(0);

  // Versions, as Search Console lists them: fetches whose content differed. Failed fetches stay on the timeline.
  const list = useMemo(() => contentVersions(versions.data?.versions ?? null), [versions.data]);
  const latestContent = useMemo(() => list?.find((v) => v.outcome === 'rules')?.id ?? null, [list]);
  const shown = shownVersion ?? latestContent;

  // Versions arrive after the page (and again after a recrawl): compare the newest two unless a pair was chosen.
  useEffect(() => {
    if (list && !chosen) setComparison(defaultComparison(list));
  }, [list, chosen]);
  useEffect(() => {
    if (location.hash === '#changes' && list) document.getElementById('changes')?.scrollIntoView();
  }, [list !== null]);

  if (!valid || file.error?.code === 'not-found') {
    return (
      <Missing title="File not found">
        There is no robots.txt file <code>{id}</code> here. It goes when the last property watching it is deleted.
      </Missing>
    );
  }
  const f = file.data;
  const property = f?.properties[0];
  const reloadAll = () => {
    void file.reload();
    void versions.reload();
    void fetches.reload();
    setRefreshes((n) => n + 1);
  };

  return (
    <section class="page report">
      <Breadcrumbs
        trail={[
          { label: 'Properties', href: '/properties' },
          property && { label: property.name, href: `/properties/${property.id}` },
          { label: 'robots.txt' },
        ]}
      />
      {file.error && <ApiErrorNotice error={file.error} onRetry={file.reload} />}
      <div class="page-head head-row">
        <div class="head-main">
          <h1 class="url-title">{f?.url ?? 'Loading…'}</h1>
          {f && (
            <p class="lede status-line">
              <FileStatusBadge file={f} />
              <span>{statusDetail(f) ?? ''}</span>
              {f.lastCheckedAt && (
                <span title={formatTime(f.lastCheckedAt)}>checked {formatRelative(f.lastCheckedAt, now)}</span>
              )}
              <span title={formatTime(f.nextCheckAt)}>next check {formatRelative(f.nextCheckAt, now)}</span>
            </p>
          )}
          {f?.headline && (
            <p class="file-headline">
              <Headline file={f} />
              <SitemapShareNote file={f} class="cell-note sitemap-share-note" />
            </p>
          )}
        </div>
        {f && (
          <div class="head-actions">
            <Recrawl
              key={f.id}
              file={f}
              fetching={health.data ? health.data.fetching === 'running' : null}
              onDone={reloadAll}
            />
            <Link href={`/files/${f.id}/impact`} class="button-link">
              Check a change
            </Link>
          </div>
        )}
      </div>

      {f && (
        <div class="report-grid">
          <PolicyPanel file={f} now={now} timeline={health.data?.availability.summary ?? null} />
          <LastFetchPanel file={f} />
        </div>
      )}

      <div class="section">
        {list === null ? (
          versions.error ? (
            <ApiErrorNotice error={versions.error} onRetry={versions.reload} />
          ) : (
            <p class="empty">Loading…</p>
          )
        ) : shown === null ? (
          <div class="panel">
            <div class="panel-head">
              <h2 class="panel-title">Content</h2>
            </div>
            <p class="empty">
              {f?.status === null
                ? 'Not fetched yet: the content shows here after the first fetch.'
                : 'No content: this file has never been fetched successfully (see the fetch status above).'}
            </p>
          </div>
        ) : (
          <VersionContent
            versionId={shown}
            latest={shown === latestContent}
            onShowLatest={() => setShownVersion(null)}
            origin={f ? new URL(f.url).origin : ''}
          />
        )}
      </div>

      {shown !== null && <AiUseSection versionId={shown} />}

      <div class="section panel">
        <div class="panel-head">
          <h2 class="panel-title">Fetch timeline</h2>
        </div>
        {fetches.error ? (
          <ApiErrorNotice error={fetches.error} onRetry={fetches.reload} />
        ) : fetches.data ? (
          <Timeline fetches={fetches.data.fetches} now={now} />
        ) : (
          <p class="empty">Loading…</p>
        )}
      </div>

      <div class="section panel" id="changes">
        <div class="panel-head">
          <h2 class="panel-title">Versions and changes</h2>
          {list && <span class="muted">{list.length === 1 ? '1 version' : `${list.length} versions`}</span>}
        </div>
        {list && (
          <VersionsTable
            versions={list}
            comparison={comparison}
            onCompare={choose}
            shown={shown}
            onShow={(versionId) => {
              setShownVersion(versionId === latestContent ? null : versionId);
              document.querySelector('.content-view')?.scrollIntoView({ block: 'start' });
            }}
          />
        )}
        {comparison && (
          <DiffView
            key={`${comparison.version}:${comparison.against}`}
            comparison={comparison}
            onShowContent={(versionId) => {
              setShownVersion(versionId === latestContent ? null : versionId);
              document.querySelector('.content-view')?.scrollIntoView({ block: 'start' });
            }}
          />
        )}
      </div>

      <div class="section panel">
        <div class="panel-head">
          <h2 class="panel-title">Alerts</h2>
        </div>
        {f && (
          <AlertList
            query={`fileId=${f.id}`}
            showFile={false}
            refreshKey={refreshes}
            onShowChange={(alert) => {
              if (alertChangeHref(alert) === null || alert.versionId === null) return;
              choose({ version: alert.versionId, against: alert.previousVersionId });
              document.getElementById('changes')?.scrollIntoView();
            }}
          />
        )}
      </div>
    </section>
  );
}

/** The engine writes times in its reasons as ISO 8601; people read them in their own zone. */
function readableTimes(text: string): string {
  return text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, (iso) => formatTime(iso));
}

/** The file's policy now; `timeline` is the service's availability timeline in the engine's words. */
function PolicyPanel({ file, now, timeline }: { file: FileDetail; now: number; timeline: string | null }) {
  const policy = file.effectivePolicy;
  return (
    <div class="panel policy-panel">
      <h2 class="panel-title">What crawlers apply now</h2>
      {policy === null ? (
        <p class="empty">Not known until the first fetch.</p>
      ) : (
        <>
          <p class="policy-line">
            {file.headline === null ? <PolicyBadge policy={policy} /> : <Headline file={file} />}
          </p>
          <p>{readableTimes(policy.message)}</p>
          <dl class="facts">
            {policy.since && (
              <>
                <dt>Since</dt>
                <dd>{formatTime(policy.since)}</dd>
              </>
            )}
            {policy.until && (
              <>
                <dt>Changes</dt>
                <dd>
                  {formatTime(policy.until)} ({formatRelative(policy.until, now)}) unless a fetch succeeds first
                </dd>
              </>
            )}
            {policy.versionId !== null && policy.mode === 'rules' && policy.reason !== 'fetched' && (
              <>
                <dt>Rules of</dt>
                <dd>the last good version, #{policy.versionId}</dd>
              </>
            )}
          </dl>
          {timeline !== null && <p class="hint">{timeline}</p>}
        </>
      )}
    </div>
  );
}

const HEADER_ORDER = ['content-type', 'content-length', 'cache-control', 'expires', 'last-modified', 'etag'];

function LastFetchPanel({ file }: { file: FileDetail }) {
  const fetch = file.lastFetch;
  if (!fetch) {
    return (
      <div class="panel">
        <h2 class="panel-title">Last fetch</h2>
        <p class="empty">Not fetched yet. A worker fetches new files within moments.</p>
      </div>
    );
  }
  const headers = Object.entries(fetch.headers).sort(
    ([a], [b]) => (HEADER_ORDER.indexOf(a) + 1 || 99) - (HEADER_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
  );
  const took = Date.parse(fetch.finishedAt) - Date.parse(fetch.startedAt);
  return (
    <div class="panel">
      <h2 class="panel-title">Last fetch</h2>
      <dl class="facts">
        <dt>Started</dt>
        <dd>
          {formatTime(fetch.startedAt)}{' '}
          <span class="muted">· took {took < 1000 ? `${took} ms` : formatDuration(took)}</span>
        </dd>
        <dt>Answer</dt>
        <dd>
          {fetch.reply ?? (fetch.outcome === 'rules' ? 'read over FTP' : 'no answer')}
          {fetch.size !== null && fetch.outcome === 'rules' && ` · ${formatBytes(fetch.size)}`}
        </dd>
        {fetch.summary !== null && (
          <>
            <dt>{fetch.status === 'not-found' ? 'Outcome' : 'Error'}</dt>
            <dd class={fetch.status === 'error' ? 'error-text' : ''}>
              {fetch.summary}
              {fetch.error && (
                <details class="raw-error">
                  <summary>Technical details</summary>
                  <code>{fetch.error.message}</code> <span class="muted">({fetch.error.kind})</span>
                </details>
              )}
            </dd>
          </>
        )}
        {fetch.redirects.length > 0 && (
          <>
            <dt>Redirects</dt>
            <dd>
              <ol class="redirects">
                {fetch.redirects.map((r, i) => (
                  <li key={i}>
                    {r.status > 0 && <span class="muted">{r.status} </span>}
                    <span class="url">{r.url}</span>
                  </li>
                ))}
                {fetch.finalUrl && (
                  <li>
                    <span class="url">{fetch.finalUrl}</span>
                  </li>
                )}
              </ol>
            </dd>
          </>
        )}
        {headers.map(([name, value]) => (
          <div key={name} class="fact-row">
            <dt class="header-name">{name}</dt>
            <dd class="url">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

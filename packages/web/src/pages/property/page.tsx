/**
 * One property, as Search Console's robots.txt report shows it: its robots.txt files (most important hosts first,
 * https before http) with fetch status, last check, size, lint errors and warnings and the policy in force now,
 * sortable; access as crawlers (`access.tsx`: robots.txt and a page fetched with each crawler's User-Agent, and where
 * the edge disagrees with the file); its hosts (add one, or find them in the sitemaps); its alerts. The table refreshes itself while files are
 * waiting for their first fetch or a recrawl.
 */

import { useState } from 'preact/hooks';
import { type ApiError, apiSend, toApiError } from '../../api.js';
import type { DiscoveredHosts, Health, PropertyDetail, PropertyFile } from '../../api-types.js';
import { AlertBadges, useAlertCounts } from '../../components/alert-badges.js';
import { AlertList } from '../../components/alerts.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatBytes, formatDuration, formatRelative, formatTime, plural } from '../../components/format.js';
import { Breadcrumbs, Missing } from '../../components/report-frame.js';
import { SortHeader, type SortValue, useSort, useSorted } from '../../components/sortable.js';
import { FileStatusBadge, Headline, SitemapShareNote, statusDetail } from '../../components/status.js';
import { useApi, useDocumentTitle, useNow } from '../../components/use-api.js';
import { Link, navigate, type RouteProps } from '../../router.js';
import { AccessPanel } from './access.js';

type Column = 'url' | 'status' | 'checked' | 'size' | 'errors' | 'warnings' | 'policy';

const STATUS_ORDER = { fetched: 0, 'not-found': 1, error: 2 } as const;
const POLICY_ORDER = { rules: 0, 'allow-all': 1, 'disallow-all': 2 } as const;

function sortValue(file: PropertyFile, key: Column): SortValue {
  switch (key) {
    case 'url':
      return file.url;
    case 'status':
      return file.status === null ? null : STATUS_ORDER[file.status];
    case 'checked':
      return file.lastCheckedAt === null ? null : Date.parse(file.lastCheckedAt);
    case 'size':
      return file.size;
    case 'errors':
      return file.errors;
    case 'warnings':
      return file.warnings;
    case 'policy':
      return file.effectivePolicy === null ? null : POLICY_ORDER[file.effectivePolicy.mode];
  }
}

const SOURCE_LABEL = { property: null, www: 'www', user: 'added', sitemap: 'from sitemaps' } as const;

/** Files still waiting for a worker: the table polls quickly until they are done. */
function busy({ files }: { files: readonly PropertyFile[] }): boolean {
  return files.some((f) => f.status === null || f.recrawlPending || f.fetchingSince !== null);
}

/** An example subdomain for the add-host field: `shop.example.com`, never `shop.shop.example`. */
function hostExample(domain: string): string {
  const base = domain.replace(/^www\./, '');
  const first = base.split('.')[0];
  const label = ['shop', 'blog', 'news'].find((l) => l !== first) ?? 'shop';
  return `${label}.${base}`;
}

export default function PropertyPage({ params }: RouteProps) {
  const id = params.id ?? '';
  const valid = /^[1-9]\d{0,15}$/.test(id);
  const property = useApi<PropertyDetail>(valid ? `/api/properties/${id}` : null);
  useDocumentTitle(property.data?.name ?? null);
  const [showAll, setShowAll] = useState(false);
  const filesPath = valid ? `/api/properties/${id}/files${showAll ? '?all=true' : ''}` : null;
  // Refreshes every 1.5 s while files wait for a fetch, else once a minute.
  const files = useApi<{ files: PropertyFile[] }>(filesPath, { pollMs: 60_000, busy, busyPollMs: 1500 });
  const list = files.data?.files ?? null;
  const alertCounts = useAlertCounts();
  // How long a file with no robots.txt stays in the list is the service's setting.
  const health = useApi<Health>('/api/health');
  const hideAfter = health.data ? formatDuration(health.data.hideAllowAllAfterMs) : null;
  const hidden = hideAfter === null ? 'files with no robots.txt for long' : `files with no robots.txt for ${hideAfter}`;

  if (!valid || property.error?.code === 'not-found') {
    return (
      <Missing title="Property not found">
        There is no property <code>{id}</code>. It may have been deleted.
      </Missing>
    );
  }
  const p = property.data;
  return (
    <section class="page report">
      <Breadcrumbs trail={[{ label: 'Properties', href: '/properties' }, { label: p?.name ?? '…' }]} />
      {property.error && <ApiErrorNotice error={property.error} onRetry={property.reload} />}
      <div class="page-head head-row">
        <div>
          <h1 class="break">{p?.name ?? 'Loading…'}</h1>
          {p && <AlertBadges propertyId={p.id} counts={alertCounts.get(p.id)} />}
          {p && (
            <p class="lede">
              {p.kind === 'domain'
                ? `Domain property: ${plural(p.hosts.length, 'host')}, each watched over https and http.`
                : 'URL-prefix property: exactly this origin.'}
            </p>
          )}
          {p && (
            <p>
              <Link href={`/properties/${p.id}/activity`}>Crawler activity</Link>: what crawlers did, from your access
              logs, judged against the robots.txt in force at each request.
            </p>
          )}
        </div>
        {p && <DeleteProperty id={p.id} name={p.name} />}
      </div>
      {p?.notice && (
        <div class="notice notice-error" role="alert">
          <span>{p.notice}</span>
        </div>
      )}

      <div class="panel">
        <div class="panel-head">
          <h2 class="panel-title">robots.txt files</h2>
          {list && <span class="muted">{plural(list.length, 'file')}</span>}
          <span class="spacer" />
          <label class="check">
            <input type="checkbox" checked={showAll} onChange={(event) => setShowAll(event.currentTarget.checked)} />
            Show all files
          </label>
        </div>
        {files.error && <ApiErrorNotice error={files.error} onRetry={files.reload} />}
        {list === null ? (
          files.loading && <p class="empty">Loading…</p>
        ) : list.length === 0 ? (
          <p class="empty">
            {showAll
              ? 'This property has no files.'
              : `No files to show: ${hidden} leave the list (they are still checked). Tick “Show all files” to see them.`}
          </p>
        ) : (
          <FilesTable files={list} />
        )}
        {!showAll && list !== null && list.length > 0 && (
          <p class="hint">
            {`${hidden[0]!.toUpperCase()}${hidden.slice(1)} and hosts beyond the 20 most important are hidden; “Show all files” lists them.`}
          </p>
        )}
      </div>

      {p && <AccessPanel propertyId={p.id} />}

      <div class="report-grid">
        <div class="panel">
          <div class="panel-head">
            <h2 class="panel-title">Alerts</h2>
            <span class="spacer" />
            <Link href={`/alerts?propertyId=${id}`}>All alerts of this property</Link>
          </div>

          <AlertList
            query={`propertyId=${id}`}
            showFile={true}
            refreshKey={list?.map((f) => f.latestVersionId).join()}
          />
        </div>
        {p && (
          <HostsPanel
            property={p}
            onChanged={() => {
              void property.reload();
              void files.reload();
            }}
          />
        )}
      </div>
    </section>
  );
}

function FilesTable({ files }: { files: readonly PropertyFile[] }) {
  const [sort, onSort] = useSort<Column>();
  const rows = useSorted(files, sort, sortValue);
  const now = useNow();
  const header = (label: string, key: Column, numeric = false) => (
    <SortHeader label={label} sortKey={key} sort={sort} onSort={onSort} numeric={numeric} />
  );
  return (
    <div class="table-wrap">
      <table class="data-table files-table">
        <caption class="visually-hidden">robots.txt files of this property; select a column header to sort</caption>
        <thead>
          <tr>
            {header('File', 'url')}
            {header('Status', 'status')}
            {header('Checked', 'checked')}
            {header('Size', 'size', true)}
            {header('Errors', 'errors', true)}
            {header('Warnings', 'warnings', true)}
            {header('Policy now', 'policy')}
          </tr>
        </thead>
        <tbody>
          {rows.map((file) => {
            const source = SOURCE_LABEL[file.hostSource];
            const detail = statusDetail(file);
            return (
              <tr key={file.id}>
                <th scope="row" class="file-cell">
                  <Link href={`/files/${file.id}`} class="url file-link">
                    {file.url}
                  </Link>
                  {source && <span class="tag">{source}</span>}
                </th>
                <td data-label="Status">
                  <FileStatusBadge file={file} />
                  {file.fetchingSince !== null ? (
                    <span class="cell-note">fetching…</span>
                  ) : file.recrawlPending ? (
                    <span class="cell-note">recrawl requested</span>
                  ) : (
                    detail && <span class="cell-note">{detail}</span>
                  )}
                </td>
                <td data-label="Checked">
                  {file.lastCheckedAt === null ? (
                    <span class="muted">never</span>
                  ) : (
                    <time dateTime={file.lastCheckedAt} title={formatTime(file.lastCheckedAt)}>
                      {formatRelative(file.lastCheckedAt, now)}
                    </time>
                  )}
                </td>
                <td class="num" data-label="Size">
                  {file.size === null ? <span class="muted">—</span> : formatBytes(file.size)}
                </td>
                <td class="num" data-label="Errors">
                  <Count n={file.errors} tone="error" />
                </td>
                <td class="num" data-label="Warnings">
                  <Count n={file.warnings} tone="warning" />
                </td>
                <td data-label="Policy now">
                  <Headline file={file} />
                  <SitemapShareNote file={file} class="cell-note sitemap-share-note" />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Count({ n, tone }: { n: number | null; tone: 'error' | 'warning' }) {
  if (n === null) return <span class="muted">—</span>;
  return <span class={n > 0 ? `count count-${tone}` : 'muted'}>{n}</span>;
}

function HostsPanel({ property, onChanged }: { property: PropertyDetail; onChanged: () => void }) {
  const [host, setHost] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState<'add' | 'discover' | null>(null);
  const [found, setFound] = useState<DiscoveredHosts | null>(null);
  const domain = property.kind === 'domain';

  const add = async () => {
    setBusy('add');
    setError(null);
    try {
      await apiSend('POST', `/api/properties/${property.id}/hosts`, { host: host.trim() });
      setHost('');
      onChanged();
    } catch (cause) {
      setError(toApiError(cause));
    } finally {
      setBusy(null);
    }
  };
  const discover = async () => {
    setBusy('discover');
    setError(null);
    setFound(null);
    try {
      setFound(await apiSend<DiscoveredHosts>('POST', `/api/properties/${property.id}/discover-hosts`, {}));
      onChanged();
    } catch (cause) {
      setError(toApiError(cause));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div class="panel">
      <div class="panel-head">
        <h2 class="panel-title">Hosts</h2>
        <span class="muted">{plural(property.hosts.length, 'host')}</span>
      </div>
      <ul class="host-list">
        {property.hosts.slice(0, 50).map((h, i) => (
          <li key={h.id}>
            <span class="url">{h.host}</span>
            {SOURCE_LABEL[h.source] && <span class="tag">{SOURCE_LABEL[h.source]}</span>}
            {i >= 20 && <span class="muted"> (not in the table by default)</span>}
          </li>
        ))}
      </ul>
      {property.hosts.length > 50 && <p class="hint">…and {property.hosts.length - 50} more.</p>}
      {domain ? (
        <>
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              void add();
            }}
          >
            <label class="visually-hidden" for="new-host">
              Add a host
            </label>
            <input
              id="new-host"
              type="text"
              autocomplete="off"
              spellcheck={false}
              placeholder={hostExample(property.name)}
              value={host}
              onInput={(event) => setHost(event.currentTarget.value)}
            />
            <button type="submit" class="small" disabled={busy !== null || host.trim() === ''}>
              {busy === 'add' ? 'Adding…' : 'Add host'}
            </button>
          </form>
          <p class="hint">
            <button type="button" class="link-button" disabled={busy !== null} onClick={() => void discover()}>
              {busy === 'discover' ? 'Reading the sitemaps…' : 'Find hosts in the sitemaps'}
            </button>{' '}
            adds the hosts the property’s sitemaps list most (workers also do this daily).
          </p>
        </>
      ) : (
        <p class="hint">A URL-prefix property watches only its own origin.</p>
      )}
      {error && <ApiErrorNotice error={error} onRetry={error.code === 'unauthorized' ? onChanged : undefined} />}
      {found && (
        <p class="hint" role="status">
          Read {plural(found.urlsRead, 'sitemap URL')};{' '}
          {found.hosts.filter((h) => h.added).length === 0
            ? 'no new hosts.'
            : `added ${found.hosts
                .filter((h) => h.added)
                .map((h) => h.host)
                .join(', ')}.`}
          {found.problems.length > 0 && ` Problems: ${found.problems.slice(0, 3).join('; ')}.`}
        </p>
      )}
    </div>
  );
}

function DeleteProperty({ id, name }: { id: number; name: string }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await apiSend('DELETE', `/api/properties/${id}`);
      navigate('/properties', { replace: true });
    } catch (cause) {
      setError(toApiError(cause));
      setBusy(false);
    }
  };
  if (!asking) {
    return (
      <button type="button" class="small danger-outline" onClick={() => setAsking(true)}>
        Delete property
      </button>
    );
  }
  return (
    <fieldset class="confirm">
      <legend class="visually-hidden">Confirm deletion</legend>
      <span>
        Stop watching <strong>{name}</strong> and delete its history?
      </span>
      <span class="confirm-buttons">
        <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
          {busy ? 'Deleting…' : 'Delete'}
        </button>
        <button type="button" class="small" onClick={() => setAsking(false)}>
          Cancel
        </button>
      </span>
      {error && (
        <div class="confirm-error">
          <ApiErrorNotice error={error} onRetry={() => void remove()} />
        </div>
      )}
    </fieldset>
  );
}

/**
 * The properties: every site the service watches, and a form to add one (a domain or a host-level URL prefix, as in
 * Search Console). Adding one opens its page, where its files fill in as the workers fetch them.
 */

import { useState } from 'preact/hooks';
import { ApiError, apiSend, toApiError } from '../../api.js';
import type { ListedProperty, PropertyDetail } from '../../api-types.js';
import { AlertBadges, useAlertCounts } from '../../components/alert-badges.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatRelative, plural } from '../../components/format.js';
import { useApi, useNow } from '../../components/use-api.js';
import { Link, navigate } from '../../router.js';

export default function PropertiesPage() {
  // Refreshes every 3 s while new files wait for their first fetch, else once a minute. The API pages its list
  // (100 by default); this page asks for its largest page, 1,000 properties.
  const list = useApi<{ properties: ListedProperty[] }>('/api/properties?limit=1000', {
    pollMs: 60_000,
    busy: (d) => d.properties.some((p) => p.health.unchecked > 0),
    busyPollMs: 3000,
  });
  const now = useNow();
  const alertCounts = useAlertCounts();
  const properties = list.data?.properties ?? null;
  return (
    <section class="page report">
      <div class="page-head">
        <h1>Properties</h1>
        <p class="lede">
          The sites whose robots.txt files are watched: fetched when their cache lifetime ends, kept as versions,
          checked for errors, and explained.
        </p>
      </div>
      <AddProperty />
      {list.error && <ApiErrorNotice error={list.error} onRetry={list.reload} />}
      <div class="panel">
        <div class="panel-head">
          <h2 class="panel-title">Watched sites</h2>
          {properties && properties.length > 0 && (
            <span class="muted">{plural(properties.length, 'property', 'properties')}</span>
          )}
        </div>
        {properties === null ? (
          list.loading && <p class="empty">Loading…</p>
        ) : properties.length === 0 ? (
          <div class="empty-state">
            <p>
              <strong>No properties yet.</strong>
            </p>
            <p class="muted">
              Add a domain such as <code>example.com</code> to watch the robots.txt of its apex and <code>www</code>{' '}
              hosts over http and https, or a URL prefix such as <code>https://shop.example.com/</code> (or{' '}
              <code>ftp://ftp.example.com/</code>) to watch exactly one origin.
            </p>
          </div>
        ) : (
          <div class="table-wrap">
            <table class="data-table properties-table">
              <caption class="visually-hidden">Properties</caption>
              <thead>
                <tr>
                  <th scope="col">Property</th>
                  <th scope="col">Kind</th>
                  <th scope="col" class="num">
                    Hosts
                  </th>
                  <th scope="col">Files</th>
                  <th scope="col">Lint issues</th>
                  <th scope="col">Alerts</th>
                  <th scope="col">Added</th>
                </tr>
              </thead>
              <tbody>
                {properties.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">
                      <Link href={`/properties/${p.id}`} class="strong-link">
                        {p.name}
                      </Link>
                      {p.headline && (
                        <span class="cell-note property-headline">
                          <span class={`headline headline-${p.headline.tone}`} data-tone={p.headline.tone}>
                            {p.headline.text}
                          </span>
                        </span>
                      )}
                    </th>
                    <td data-label="Kind">{p.kind === 'domain' ? 'Domain' : 'URL prefix'}</td>
                    <td class="num" data-label="Hosts">
                      {p.hostCount}
                    </td>
                    <td data-label="Files">
                      <FileHealth property={p} />
                    </td>
                    <td data-label="Lint issues">
                      <LintHealth property={p} />
                    </td>
                    <td data-label="Alerts">
                      <AlertBadges propertyId={p.id} counts={alertCounts.get(p.id)} showNone={true} />
                    </td>
                    <td data-label="Added" title={p.createdAt}>
                      {formatRelative(p.createdAt, now)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}

/**
 * `4 files` and what needs a look, counted by the engine's report status: not fetched for any reason but a missing
 * file (a 5xx, a 403, a failure), not found, waiting for their first fetch.
 */
function FileHealth({ property }: { property: ListedProperty }) {
  const h = property.health;
  return (
    <span class="health">
      <span>{plural(property.fileCount, 'file')}</span>
      {h.error > 0 && <span class="badge badge-bad badge-small">{h.error} not fetched</span>}
      {h.notFound > 0 && <span class="badge badge-neutral badge-small">{h.notFound} not found</span>}
      {h.unchecked > 0 && <span class="badge badge-info badge-small">{h.unchecked} waiting</span>}
    </span>
  );
}

function LintHealth({ property }: { property: ListedProperty }) {
  const h = property.health;
  if (h.fetched === 0) return <span class="muted">—</span>;
  if (h.lintErrors === 0 && h.lintWarnings === 0) return <span class="muted">none</span>;
  return (
    <span class="health">
      {h.lintErrors > 0 && <span class="count count-error">{plural(h.lintErrors, 'error')}</span>}
      {h.lintWarnings > 0 && <span class="count count-warning">{plural(h.lintWarnings, 'warning')}</span>}
    </span>
  );
}

/** The URL prefix the service suggests typing instead (`… type http://127.0.0.1:18720/`), if any. */
function suggestion(error: ApiError): string | null {
  return /type (https?:\/\/\S+\/)$/.exec(error.message)?.[1] ?? null;
}

function AddProperty() {
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const submit = async () => {
    if (value.trim() === '') {
      setError(new ApiError('Type a domain (example.com) or a URL prefix (https://example.com/).', 400, 'empty'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await apiSend<PropertyDetail>('POST', '/api/properties', { property: value.trim() });
      navigate(`/properties/${created.id}`);
    } catch (cause) {
      setError(toApiError(cause));
      setBusy(false);
    }
  };
  return (
    <form
      class="panel add-form"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label class="panel-title" for="new-property">
        Add a property
      </label>
      <div class="inline-form">
        <input
          id="new-property"
          type="text"
          inputMode="url"
          autocomplete="off"
          spellcheck={false}
          placeholder="example.com or https://example.com/"
          value={value}
          onInput={(event) => setValue(event.currentTarget.value)}
          aria-describedby="new-property-hint"
          aria-invalid={error !== null && error.code !== 'unauthorized'}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Adding…' : 'Add'}
        </button>
      </div>
      <p class="hint" id="new-property-hint">
        A domain covers its apex and <code>www</code> hosts (add others later); a URL prefix is one origin, such as{' '}
        <code>https://example.com/</code>.
      </p>
      {error && (
        <div class="form-error">
          <ApiErrorNotice error={error} onRetry={error.code === 'unauthorized' ? () => void submit() : undefined} />
          {suggestion(error) && (
            <button type="button" class="small" onClick={() => setValue(suggestion(error) ?? '')}>
              Use {suggestion(error)}
            </button>
          )}
        </div>
      )}
    </form>
  );
}

/**
 * Every alert across the properties, newest first, with filters (severity, kind, property, time) kept in the address
 * so a filtered view can be shared or linked from a badge. Each alert links to its file and to the change.
 */

import { useMemo, useState } from 'preact/hooks';
import type { Alert, ListedProperty } from '../../api-types.js';
import { AlertList, KIND_LABEL } from '../../components/alerts.js';
import { useApi } from '../../components/use-api.js';
import { Link } from '../../router.js';

const WINDOWS = {
  '1d': { label: 'Last 24 hours', ms: 86_400_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 86_400_000 },
  '30d': { label: 'Last 30 days', ms: 30 * 86_400_000 },
  all: { label: 'Any time', ms: null },
} as const;
type Window = keyof typeof WINDOWS;

const SEVERITIES = ['critical', 'warning', 'info'] as const;

interface Filters {
  severity: string;
  kind: string;
  propertyId: string;
  window: Window;
}

function filtersFromLocation(): Filters {
  const q = new URLSearchParams(location.search);
  const severity = q.get('severity') ?? '';
  const kind = q.get('kind') ?? '';
  const propertyId = q.get('propertyId') ?? '';
  const window = (q.get('time') ?? '7d') as Window;
  return {
    severity: (SEVERITIES as readonly string[]).includes(severity) ? severity : '',
    kind: kind in KIND_LABEL ? kind : '',
    propertyId: /^[1-9]\d{0,15}$/.test(propertyId) ? propertyId : '',
    window: window in WINDOWS ? window : '7d',
  };
}

function searchOf(f: Filters): string {
  const q = new URLSearchParams();
  if (f.severity) q.set('severity', f.severity);
  if (f.kind) q.set('kind', f.kind);
  if (f.propertyId) q.set('propertyId', f.propertyId);
  if (f.window !== '7d') q.set('time', f.window);
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}

export default function AlertsPage() {
  const [filters, setFilters] = useState(filtersFromLocation);
  const properties = useApi<{ properties: ListedProperty[] }>('/api/properties');
  // The start of the window, fixed when the window is chosen (not on every render).
  const since = useMemo(() => {
    const ms = WINDOWS[filters.window].ms;
    return ms === null ? null : new Date(Date.now() - ms).toISOString();
  }, [filters.window]);
  const update = (change: Partial<Filters>) => {
    const next = { ...filters, ...change };
    setFilters(next);
    history.replaceState(history.state, '', `${location.pathname}${searchOf(next)}`);
  };
  const query = new URLSearchParams();
  if (filters.severity) query.set('severity', filters.severity);
  if (filters.kind) query.set('kind', filters.kind);
  if (filters.propertyId) query.set('propertyId', filters.propertyId);
  if (since !== null) query.set('since', since);
  const filtered = filters.severity || filters.kind || filters.propertyId;

  return (
    <section class="page report">
      <div class="page-head head-row">
        <div>
          <h1>Alerts</h1>
          <p class="lede">
            What changed on every watched site, newest first: files that cannot be fetched, the whole site blocked,
            sitemaps removed, content changes.
          </p>
        </div>
        <Link href="/webhooks" class="button-link">
          Webhooks
        </Link>
      </div>
      <form class="panel filters" aria-label="Filter alerts" onSubmit={(event) => event.preventDefault()}>
        <label>
          Severity
          <select value={filters.severity} onChange={(e) => update({ severity: e.currentTarget.value })}>
            <option value="">Any severity</option>
            <option value="critical">Critical</option>
            <option value="warning">Warning</option>
            <option value="info">Info</option>
          </select>
        </label>
        <label>
          Kind
          <select value={filters.kind} onChange={(e) => update({ kind: e.currentTarget.value })}>
            <option value="">Any kind</option>
            {(Object.keys(KIND_LABEL) as Alert['kind'][]).map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABEL[kind]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Property
          <select value={filters.propertyId} onChange={(e) => update({ propertyId: e.currentTarget.value })}>
            <option value="">Every property</option>
            {(properties.data?.properties ?? []).map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
            {filters.propertyId !== '' &&
              !(properties.data?.properties ?? []).some((p) => String(p.id) === filters.propertyId) && (
                <option value={filters.propertyId}>Property {filters.propertyId}</option>
              )}
          </select>
        </label>
        <label>
          Time
          <select value={filters.window} onChange={(e) => update({ window: e.currentTarget.value as Window })}>
            {(Object.keys(WINDOWS) as Window[]).map((w) => (
              <option key={w} value={w}>
                {WINDOWS[w].label}
              </option>
            ))}
          </select>
        </label>
      </form>
      <div class="panel">
        <AlertList
          query={query.toString()}
          showFile={true}
          limit={200}
          empty={
            filtered || since !== null
              ? `No alerts match these filters${since === null ? '' : ` in the ${WINDOWS[filters.window].label.toLowerCase()}`}.`
              : undefined
          }
        />
      </div>
    </section>
  );
}

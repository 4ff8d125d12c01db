/**
 * A property's crawler activity: upload an access log (Combined or Common Log Format, JSON lines; gzip or not) and see
 * what each crawler did, judged by the service against the robots.txt in force at each request's time: requests and
 * disallowed requests per version with the deciding lines, whether its addresses are the operator's (verified,
 * spoofed, unverifiable), and the first violations. Earlier uploads can be shown again.
 */

import { useState } from 'preact/hooks';
import { type ApiError, apiUpload, toApiError } from '../../api.js';
import type { ActivityPage as ActivityJson, PropertyDetail, PropertyFile, UploadDetail } from '../../api-types.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatBytes, formatTime, plural } from '../../components/format.js';
import { Breadcrumbs, Missing } from '../../components/report-frame.js';
import { useApi, useDocumentTitle } from '../../components/use-api.js';
import type { RouteProps } from '../../router.js';

type Crawler = UploadDetail['crawlers'][number];

const VERIFICATION = {
  verified: { label: 'Verified', tone: 'good' },
  spoofed: { label: 'Spoofed', tone: 'bad' },
  unverifiable: { label: 'Unverifiable', tone: 'neutral' },
  unchecked: { label: 'Not checked', tone: 'neutral' },
} as const;

function VerificationBadge({ status, reason }: { status: keyof typeof VERIFICATION; reason?: string | null }) {
  const { label, tone } = VERIFICATION[status];
  return (
    <span class={`badge badge-${tone} badge-small`} title={reason ?? undefined}>
      {label}
    </span>
  );
}

export default function ActivityPage({ params }: RouteProps) {
  const id = params.id ?? '';
  const valid = /^[1-9]\d{0,15}$/.test(id);
  const property = useApi<PropertyDetail>(valid ? `/api/properties/${id}` : null);
  const files = useApi<{ files: PropertyFile[] }>(valid ? `/api/properties/${id}/files?all=true` : null);
  const [shown, setShown] = useState<number | null>(null);
  const activity = useApi<ActivityJson>(
    valid ? `/api/properties/${id}/logs${shown === null ? '' : `?upload=${shown}`}` : null,
  );
  const [latest, setLatest] = useState<UploadDetail | null>(null);
  useDocumentTitle(property.data ? `Crawler activity of ${property.data.name}` : null);

  if (!valid || property.error?.code === 'not-found') {
    return (
      <Missing title="Property not found">
        There is no property <code>{id}</code>. It may have been deleted.
      </Missing>
    );
  }
  const p = property.data;
  const upload = latest ?? activity.data?.upload ?? null;
  return (
    <section class="page report">
      <Breadcrumbs
        trail={[
          { label: 'Properties', href: '/properties' },
          { label: p?.name ?? '…', href: `/properties/${id}` },
          { label: 'Crawler activity' },
        ]}
      />
      <div class="page-head">
        <h1 class="break">Crawler activity{p ? ` of ${p.name}` : ''}</h1>
        <p class="lede">
          Each request of an access log is judged against the robots.txt that was in force at its time, as the service
          recorded it, and each crawler’s addresses are checked against its operator’s (reverse DNS confirmed forward).
        </p>
      </div>
      {property.error && <ApiErrorNotice error={property.error} onRetry={property.reload} />}
      <UploadForm
        propertyId={id}
        files={files.data?.files ?? []}
        onDone={(detail) => {
          setLatest(detail);
          void activity.reload();
        }}
      />
      {activity.error && <ApiErrorNotice error={activity.error} onRetry={activity.reload} />}
      {activity.data && activity.data.uploads.length > 1 && (
        <div class="panel">
          <div class="panel-head">
            <h2 class="panel-title">Uploaded logs</h2>
          </div>
          <ul class="host-list">
            {activity.data.uploads.map((u) => (
              <li key={u.id}>
                <button
                  type="button"
                  class="link-button"
                  aria-current={upload?.id === u.id ? 'true' : undefined}
                  onClick={() => {
                    setLatest(null);
                    setShown(u.id);
                  }}
                >
                  {u.name ?? `Upload ${u.id}`}
                </button>{' '}
                <span class="muted">
                  {formatTime(u.createdAt)}: {plural(u.requests, 'request')}, {plural(u.violations, 'violation')}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {upload === null ? activity.data && <p class="empty">No log uploaded yet.</p> : <UploadReport upload={upload} />}
    </section>
  );
}

function UploadForm(props: { propertyId: string; files: readonly PropertyFile[]; onDone: (d: UploadDetail) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [robots, setRobots] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const send = async () => {
    if (file === null) return;
    setBusy(true);
    setError(null);
    setDone(null);
    const query = new URLSearchParams({ name: file.name.slice(0, 200) });
    if (robots !== '') query.set('file', robots);
    try {
      const detail = await apiUpload<UploadDetail>(`/api/properties/${props.propertyId}/logs?${query}`, file);
      setDone(
        `Judged ${plural(detail.requests, 'request')}: ${plural(detail.violations, 'violation')} of the robots.txt in force.`,
      );
      props.onDone(detail);
    } catch (cause) {
      setError(toApiError(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="panel">
      <div class="panel-head">
        <h2 class="panel-title">Upload an access log</h2>
      </div>
      <form
        class="toolbar activity-form"
        onSubmit={(event) => {
          event.preventDefault();
          void send();
        }}
      >
        <span class="field-inline">
          <label for="log-file">Access log</label>
          <input
            id="log-file"
            type="file"
            aria-describedby="log-file-hint"
            onChange={(event) => setFile(event.currentTarget.files?.[0] ?? null)}
          />
        </span>
        <span class="field-inline">
          <label for="log-robots">Judged by</label>
          <select id="log-robots" value={robots} onChange={(event) => setRobots(event.currentTarget.value)}>
            <option value="">the property’s first robots.txt</option>
            {props.files.map((f) => (
              <option key={f.id} value={String(f.id)}>
                {f.url}
              </option>
            ))}
          </select>
        </span>
        <button type="submit" disabled={busy || file === null}>
          {busy ? 'Judging…' : 'Upload and judge'}
        </button>
      </form>
      <p class="hint" id="log-file-hint">
        Combined or Common Log Format (Apache’s and nginx’s default lines) or JSON lines, gzip or not.
      </p>
      <p class="hint" role="status">
        {busy ? 'Uploading and judging the log…' : done}
      </p>
      {error && <ApiErrorNotice error={error} onRetry={() => void send()} />}
    </div>
  );
}

function UploadReport({ upload }: { upload: UploadDetail }) {
  return (
    <>
      <div class="panel">
        <div class="panel-head">
          <h2 class="panel-title">{upload.name ?? `Upload ${upload.id}`}</h2>
          <span class="muted">{formatTime(upload.createdAt)}</span>
        </div>
        <p>
          {plural(upload.lines, 'line')} ({formatBytes(upload.bytes)}): {plural(upload.requests, 'request')},{' '}
          {upload.otherRequests} from clients that name no crawler, {plural(upload.malformed, 'unreadable line')};{' '}
          <strong>{plural(upload.violations, 'request')} to URLs the robots.txt in force disallowed</strong>. Judged by
          the history of <span class="url">{upload.fileUrl}</span> ({plural(upload.versions.length, 'version')}).
        </p>
      </div>
      <div class="panel">
        <div class="panel-head">
          <h2 class="panel-title">Crawlers</h2>
          <span class="muted">{plural(upload.crawlers.length, 'crawler')}</span>
        </div>
        {upload.crawlers.length === 0 ? (
          <p class="empty">No request of the log names a crawler.</p>
        ) : (
          <CrawlerTable crawlers={upload.crawlers} />
        )}
      </div>
      <div class="panel">
        <div class="panel-head">
          <h2 class="panel-title">Violations</h2>
          <span class="muted">
            {upload.firstViolations.length < upload.violations
              ? `the first ${upload.firstViolations.length} of ${upload.violations}`
              : plural(upload.violations, 'violation')}
          </span>
        </div>
        {upload.firstViolations.length === 0 ? (
          <p class="empty">No crawler fetched a URL the robots.txt in force disallowed.</p>
        ) : (
          <ViolationTable upload={upload} />
        )}
      </div>
    </>
  );
}

function perVersion(crawler: Crawler) {
  return (
    <ul class="host-list">
      {crawler.versions.map((v) => (
        <li key={v.version}>
          {v.version}: {plural(v.requests, 'request')} ({v.verification.verified} verified, {v.verification.spoofed}{' '}
          spoofed)
          {v.disallowed > 0 &&
            `, ${v.disallowed} disallowed (${v.lines.map((l) => `line ${l.line} ${l.rule}: ${l.requests}`).join('; ')})`}
        </li>
      ))}
    </ul>
  );
}

function CrawlerTable({ crawlers }: { crawlers: readonly Crawler[] }) {
  return (
    <div class="table-wrap">
      <table class="data-table activity-table">
        <caption class="visually-hidden">What each crawler of the log did, with violations first</caption>
        <thead>
          <tr>
            <th scope="col">Crawler</th>
            <th scope="col">Addresses</th>
            <th scope="col" class="num">
              Requests
            </th>
            <th scope="col" class="num">
              Disallowed
            </th>
            <th scope="col" class="num">
              From verified addresses
            </th>
            <th scope="col">Per version</th>
          </tr>
        </thead>
        <tbody>
          {crawlers.map((c) => (
            <tr key={c.name}>
              <th scope="row">
                {c.name}
                {c.operator && <span class="cell-note">{c.operator}</span>}
              </th>
              <td data-label="Addresses">
                <VerificationBadge status={c.verification.status} reason={c.verification.reason} />
                <span class="cell-note">
                  {c.verification.requests.verified} verified, {c.verification.requests.spoofed} spoofed,{' '}
                  {c.verification.requests.unverifiable} unverifiable
                </span>
              </td>
              <td class="num" data-label="Requests">
                {c.requests}
              </td>
              <td class="num" data-label="Disallowed">
                <span class={c.disallowed > 0 ? 'count count-error' : 'muted'}>{c.disallowed}</span>
              </td>
              <td class="num" data-label="From verified addresses">
                {c.verifiedDisallowed}
              </td>
              <td data-label="Per version">{perVersion(c)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ViolationTable({ upload }: { upload: UploadDetail }) {
  return (
    <div class="table-wrap">
      <table class="data-table activity-table">
        <caption class="visually-hidden">Requests to URLs the robots.txt in force disallowed, in log order</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Crawler</th>
            <th scope="col">Address</th>
            <th scope="col">URL</th>
            <th scope="col">Disallowed by</th>
          </tr>
        </thead>
        <tbody>
          {upload.firstViolations.map((v) => (
            <tr key={v.logLine}>
              <td data-label="Time">
                <time dateTime={v.time}>{formatTime(v.time)}</time>
              </td>
              <th scope="row">{v.crawler}</th>
              <td data-label="Address">
                <span class="url">{v.ip}</span>{' '}
                <VerificationBadge status={v.verification} reason={v.verificationReason} />
              </td>
              <td data-label="URL">
                <span class="url break">{v.target}</span>
              </td>
              <td data-label="Disallowed by">
                line {v.line} <code>{v.rule}</code>
                <span class="cell-note">{v.version}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Webhooks: where alerts are POSTed. List them with their delivery counts (each named by its number, origin and a
 * fingerprint of its whole URL, so hooks to one host are told apart without showing their secret path), add one (a
 * test delivery is sent at once and its answer shown), choose the alert kinds each is sent, delete one, and open a
 * hook's delivery history with why failed deliveries failed.
 */

import { useEffect, useState } from 'preact/hooks';
import { type ApiError, apiSend, toApiError } from '../../api.js';
import type { Alert, ListedProperty, Webhook, WebhookDelivery, WebhookTestResult } from '../../api-types.js';
import { KIND_LABEL } from '../../components/alerts.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatTime, plural } from '../../components/format.js';
import { Breadcrumbs } from '../../components/report-frame.js';
import { useApi } from '../../components/use-api.js';

type Kind = Alert['kind'];
const KINDS = Object.keys(KIND_LABEL) as Kind[];

/** A hook's alert kinds as checkboxes; none ticked means every kind (the API's null). */
function KindChooser(props: {
  legend: string;
  kinds: readonly Kind[] | null;
  onChange: (kinds: Kind[] | null) => void;
}) {
  const chosen = new Set(props.kinds ?? []);
  const toggle = (kind: Kind, on: boolean) => {
    const next = KINDS.filter((k) => (k === kind ? on : chosen.has(k)));
    props.onChange(next.length === 0 ? null : next);
  };
  return (
    <fieldset class="kind-chooser">
      <legend>{props.legend}</legend>
      <p class="hint">
        {props.kinds === null ? 'Every kind is sent; tick some to send only those.' : 'Only the kinds ticked are sent.'}
      </p>
      {KINDS.map((kind) => (
        <label class="check" key={kind}>
          <input type="checkbox" checked={chosen.has(kind)} onChange={(e) => toggle(kind, e.currentTarget.checked)} />
          {KIND_LABEL[kind]}
        </label>
      ))}
    </fieldset>
  );
}

/** How a hook is named on the page: its number, where it points and the fingerprint of its whole URL. */
function hookName(hook: Webhook): string {
  return `Webhook ${hook.id} to ${hook.url} (fingerprint ${hook.fingerprint})`;
}

function TestOutcome({ result }: { result: WebhookTestResult }) {
  return result.ok ? (
    <p class="notice notice-info" role="status">
      Test delivery received: the receiver answered HTTP {result.httpStatus}.
    </p>
  ) : (
    <p class="notice notice-error" role="alert">
      Test delivery failed: {result.error}
    </p>
  );
}

export default function WebhooksPage() {
  const hooks = useApi<{ webhooks: Webhook[] }>('/api/webhooks', { pollMs: 30_000 });
  const properties = useApi<{ properties: ListedProperty[] }>('/api/properties');
  const names = new Map((properties.data?.properties ?? []).map((p) => [p.id, p.name]));
  const [lastTest, setLastTest] = useState<{ id: number; result: WebhookTestResult } | null>(null);
  const list = hooks.data?.webhooks ?? null;
  return (
    <section class="page report">
      <Breadcrumbs trail={[{ label: 'Alerts', href: '/alerts' }, { label: 'Webhooks' }]} />
      <div class="page-head">
        <h1>Webhooks</h1>
        <p class="lede">
          Each alert is POSTed as JSON to every webhook that wants it, signed with HMAC-SHA256 when the hook has a
          secret, and retried with backoff until the receiver answers 2xx.
        </p>
      </div>
      <AddWebhook
        properties={properties.data?.properties ?? []}
        onAdded={(id, result) => {
          setLastTest({ id, result });
          void hooks.reload();
        }}
      />
      {hooks.error && <ApiErrorNotice error={hooks.error} onRetry={hooks.reload} />}
      <div class="panel">
        <div class="panel-head">
          <h2 class="panel-title">Webhooks</h2>
          {list && <span class="muted">{plural(list.length, 'webhook')}</span>}
        </div>
        {list === null ? (
          hooks.loading && <p class="empty">Loading…</p>
        ) : list.length === 0 ? (
          <p class="empty">No webhooks yet. Add one above to have alerts sent to your chat or ticket system.</p>
        ) : (
          <ul class="webhook-list">
            {list.map((hook) => (
              <WebhookItem
                key={hook.id}
                hook={hook}
                propertyName={hook.propertyId === null ? null : (names.get(hook.propertyId) ?? `#${hook.propertyId}`)}
                test={lastTest?.id === hook.id ? lastTest.result : null}
                onTested={(result) => setLastTest({ id: hook.id, result })}
                onDeleted={() => void hooks.reload()}
                onChanged={() => void hooks.reload()}
              />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function WebhookItem(props: {
  hook: Webhook;
  propertyName: string | null;
  test: WebhookTestResult | null;
  onTested: (result: WebhookTestResult) => void;
  onDeleted: () => void;
  onChanged: () => void;
}) {
  const { hook } = props;
  const [open, setOpen] = useState(false);
  const [choosing, setChoosing] = useState(false);
  // The kinds as last chosen here, shown at once while the change is saved (then the list's answer replaces them).
  const [kinds, setKinds] = useState<Kind[] | null>(hook.kinds);
  const saved = JSON.stringify(hook.kinds);
  useEffect(() => setKinds(JSON.parse(saved) as Kind[] | null), [saved]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (cause) {
      setError(toApiError(cause));
    } finally {
      setBusy(false);
    }
  };
  const d = hook.deliveries;
  return (
    <li class="webhook">
      <div class="webhook-head">
        <h3 class="webhook-title">
          <span class="webhook-number">#{hook.id}</span> <code class="url break">{hook.url}</code>{' '}
          <span class="fingerprint" title="The first digits of the SHA-256 of the whole URL">
            fingerprint <code>{hook.fingerprint}</code>
          </span>
        </h3>
        <span class="spacer" />
        <button
          type="button"
          class="small"
          disabled={busy}
          onClick={() =>
            void run(async () =>
              props.onTested(await apiSend<WebhookTestResult>('POST', `/api/webhooks/${hook.id}/test`)),
            )
          }
        >
          Send a test
        </button>
        <button type="button" class="small" aria-expanded={choosing} onClick={() => setChoosing(!choosing)}>
          Alert kinds
        </button>
        <button
          type="button"
          class="small danger-outline"
          aria-label={`Delete webhook ${hook.id}`}
          disabled={busy}
          onClick={() => {
            if (!confirm(`Delete ${hookName(hook)}? Its pending deliveries are dropped.`)) return;
            void run(async () => {
              await apiSend('DELETE', `/api/webhooks/${hook.id}`);
              props.onDeleted();
            });
          }}
        >
          Delete
        </button>
      </div>
      <p class="muted webhook-meta">
        {props.propertyName === null ? 'Every property' : props.propertyName} ·{' '}
        {hook.kinds === null ? 'every kind' : hook.kinds.map((k) => KIND_LABEL[k]).join(', ')}
        {hook.hasSecret ? ' · signed' : ''} · added {formatTime(hook.createdAt)}
      </p>
      <p class="health">
        <span class="badge badge-good badge-small">{d.delivered} delivered</span>
        {d.pending > 0 && <span class="badge badge-info badge-small">{d.pending} retrying</span>}
        {d.failed > 0 && <span class="badge badge-bad badge-small">{d.failed} failed</span>}
        <button type="button" class="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide deliveries' : 'Show deliveries'}
        </button>
      </p>
      {choosing && (
        <KindChooser
          legend={`Alert kinds sent to webhook ${hook.id}`}
          kinds={kinds}
          onChange={(chosen) => {
            setKinds(chosen);
            void run(async () => {
              await apiSend<Webhook>('PATCH', `/api/webhooks/${hook.id}`, { kinds: chosen });
              props.onChanged();
            });
          }}
        />
      )}
      {props.test && <TestOutcome result={props.test} />}
      {error && <ApiErrorNotice error={error} />}
      {open && <Deliveries id={hook.id} />}
    </li>
  );
}

const STATUS_LABEL = { delivered: 'Delivered', pending: 'Retrying', failed: 'Failed' } as const;

function Deliveries({ id }: { id: number }) {
  const deliveries = useApi<{ deliveries: WebhookDelivery[] }>(`/api/webhooks/${id}/deliveries`, { pollMs: 30_000 });
  if (deliveries.error) return <ApiErrorNotice error={deliveries.error} onRetry={deliveries.reload} />;
  const list = deliveries.data?.deliveries;
  if (!list) return <p class="empty">Loading…</p>;
  if (list.length === 0) return <p class="empty">No deliveries yet: one is queued with each new alert.</p>;
  return (
    <div class="table-wrap">
      <table class="data-table deliveries-table">
        <caption class="visually-hidden">Deliveries of webhook {id}</caption>
        <thead>
          <tr>
            <th scope="col">Alert</th>
            <th scope="col">Status</th>
            <th scope="col" class="num">
              Attempts
            </th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {list.map((delivery) => (
            <tr key={delivery.id}>
              <td data-label="Alert">
                {delivery.alertKind ? KIND_LABEL[delivery.alertKind] : '—'}
                {delivery.alertMessage && <div class="muted small-text">{delivery.alertMessage}</div>}
              </td>
              <td data-label="Status">
                <span
                  class={`badge badge-small badge-${delivery.status === 'delivered' ? 'good' : delivery.status === 'failed' ? 'bad' : 'info'}`}
                >
                  {STATUS_LABEL[delivery.status]}
                </span>
              </td>
              <td class="num" data-label="Attempts">
                {delivery.attempts}
              </td>
              <td data-label="Details">
                {delivery.deliveredAt
                  ? `at ${formatTime(delivery.deliveredAt)}`
                  : delivery.lastError
                    ? `${delivery.lastError}${delivery.nextAttemptAt ? `; next try ${formatTime(delivery.nextAttemptAt)}` : ''}`
                    : delivery.nextAttemptAt
                      ? `first try ${formatTime(delivery.nextAttemptAt)}`
                      : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AddWebhook(props: {
  properties: readonly ListedProperty[];
  onAdded: (id: number, result: WebhookTestResult) => void;
}) {
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [propertyId, setPropertyId] = useState('');
  const [kinds, setKinds] = useState<Kind[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const body: Record<string, unknown> = { url: url.trim() };
      if (secret !== '') body.secret = secret;
      if (propertyId !== '') body.propertyId = Number(propertyId);
      if (kinds !== null) body.kinds = kinds;
      const created = await apiSend<Webhook>('POST', '/api/webhooks', body);
      const result = await apiSend<WebhookTestResult>('POST', `/api/webhooks/${created.id}/test`);
      setUrl('');
      setSecret('');
      setKinds(null);
      props.onAdded(created.id, result);
    } catch (cause) {
      setError(toApiError(cause));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="panel add-form"
      aria-label="Add a webhook"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 class="panel-title">Add a webhook</h2>
      <div class="webhook-fields">
        <label>
          URL
          <input
            type="url"
            required
            placeholder="https://hooks.example.com/robots"
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </label>
        <label>
          Secret (optional, 8 characters or more)
          <input
            type="password"
            autocomplete="new-password"
            value={secret}
            onInput={(e) => setSecret(e.currentTarget.value)}
          />
        </label>
        <label>
          Alerts of
          <select value={propertyId} onChange={(e) => setPropertyId(e.currentTarget.value)}>
            <option value="">Every property</option>
            {props.properties.map((p) => (
              <option key={p.id} value={String(p.id)}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Adding…' : 'Add and send a test'}
        </button>
      </div>
      <KindChooser legend="Alert kinds" kinds={kinds} onChange={setKinds} />
      {error && (
        <ApiErrorNotice error={error} onRetry={error.code === 'unauthorized' ? () => void submit() : undefined} />
      )}
    </form>
  );
}

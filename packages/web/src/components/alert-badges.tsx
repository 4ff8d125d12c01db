/**
 * Alert badges: how many critical and warning alerts a property had in the last seven days, linking to the alerts
 * page filtered to it. One request (`GET /api/alerts/summary`) serves the whole properties list.
 */

import type { AlertSummary } from '../api-types.js';
import { Link } from '../router.js';
import { plural } from './format.js';
import { useApi } from './use-api.js';

export type PropertyAlertCounts = AlertSummary['properties'][number];

/** The last seven days' alert counts by property id (empty until loaded), refreshed every minute. */
export function useAlertCounts(): ReadonlyMap<number, PropertyAlertCounts> {
  const summary = useApi<AlertSummary>('/api/alerts/summary', { pollMs: 60_000 });
  return new Map((summary.data?.properties ?? []).map((p) => [p.propertyId, p]));
}

/** `2 critical` `1 warning` (links to the alerts page), or nothing when there is neither. */
export function AlertBadges({
  propertyId,
  counts,
  showNone = false,
}: {
  propertyId: number;
  counts: PropertyAlertCounts | undefined;
  showNone?: boolean;
}) {
  const critical = counts?.critical ?? 0;
  const warning = counts?.warning ?? 0;
  if (critical === 0 && warning === 0) {
    return showNone ? <span class="muted">none in 7 days</span> : null;
  }
  return (
    <span class="health">
      {critical > 0 && (
        <Link
          href={`/alerts?propertyId=${propertyId}&severity=critical`}
          class="badge badge-bad badge-small badge-link"
          title="Critical alerts in the last 7 days"
        >
          {plural(critical, 'critical alert')}
        </Link>
      )}
      {warning > 0 && (
        <Link
          href={`/alerts?propertyId=${propertyId}&severity=warning`}
          class="badge badge-warn badge-small badge-link"
          title="Warnings in the last 7 days"
        >
          {plural(warning, 'warning')}
        </Link>
      )}
    </span>
  );
}

/**
 * The top bar's alert count: critical and warning alerts of the last seven days on every property, each counted
 * once, linking to the alerts page; nothing when there are none.
 */
export function TopBarAlerts() {
  const summary = useApi<AlertSummary>('/api/alerts/summary', { pollMs: 60_000 });
  const total = summary.data?.total;
  if (!total) return null;
  const serious = total.critical + total.warning;
  if (serious === 0) return null;
  const label = `${plural(serious, 'alert')} in the last 7 days${total.critical > 0 ? ` (${total.critical} critical)` : ''}`;
  return (
    <Link
      href={total.critical > 0 ? '/alerts?severity=critical' : '/alerts?severity=warning'}
      class={`topbar-alerts badge badge-small badge-link ${total.critical > 0 ? 'badge-bad' : 'badge-warn'}`}
      aria-label={label}
      title={label}
    >
      {plural(serious, 'alert')}
    </Link>
  );
}

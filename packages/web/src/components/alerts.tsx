/**
 * A list of alerts (newest first): severity, what changed in words, when, and a link to the change. Used by the
 * property page (alerts of all its files) and the file page (that file's).
 */

import { useEffect, useRef } from 'preact/hooks';
import type { Alert } from '../api-types.js';
import { Link } from '../router.js';
import { ApiErrorNotice } from './api-error.js';
import { formatRelative, formatTime } from './format.js';
import { SeverityBadge } from './status.js';
import { useApi, useNow } from './use-api.js';

/** Each alert kind in two or three words: keyed by the service's one list of kinds, so none can be missing. */
export const KIND_LABEL: Record<Alert['kind'], string> = {
  'file-changed': 'Changed',
  'file-unreachable': 'Unreachable',
  'file-recovered': 'Recovered',
  'disallow-all-added': 'Everything disallowed',
  'sitemap-removed': 'Sitemap removed',
  'became-html': 'HTML page',
  'no-rules': 'No rules',
  'ai-policy-changed': 'AI policy changed',
  'assets-blocked': 'CSS/JS blocked',
  'crawler-ignores-robots': 'Crawler ignores robots.txt',
};

/** Where an alert's change is shown: the file page with the two versions compared. */
export function alertChangeHref(alert: Alert): string | null {
  // A file that failed from its first fetch has no earlier version: there is no change to show, only the file.
  if (alert.fileId === null || alert.versionId === null || alert.previousVersionId === null) return null;
  return `/files/${alert.fileId}?diff=${alert.versionId}&against=${alert.previousVersionId}#changes`;
}

export function AlertList(props: {
  /** Query of `GET /api/alerts` (`propertyId=3`, `fileId=7`). */
  query: string;
  /** Show the file of each alert (on a property's page; not on the file's own). */
  showFile: boolean;
  /** Reload whenever this changes (a recrawl finished…). */
  refreshKey?: unknown;
  /** Instead of navigating, show the change in place (the file page). */
  onShowChange?: (alert: Alert) => void;
  limit?: number;
  /** What to say when there are none (filters that match nothing). */
  empty?: string | undefined;
}) {
  const limit = props.limit ?? 20;
  const alerts = useApi<{ alerts: Alert[] }>(`/api/alerts?${props.query}&limit=${limit}`, { pollMs: 60_000 });
  const now = useNow();
  const reload = alerts.reload;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void reload();
  }, [props.refreshKey, reload]);
  if (alerts.error) return <ApiErrorNotice error={alerts.error} onRetry={alerts.reload} />;
  const list = alerts.data?.alerts;
  if (!list) return <p class="empty">Loading…</p>;
  if (list.length === 0) {
    return (
      <p class="empty">
        {props.empty ??
          'No alerts. You will see one here when a file changes, cannot be fetched, or a change blocks crawling.'}
      </p>
    );
  }
  return (
    <ul class="alert-list">
      {list.map((alert) => {
        const href = alertChangeHref(alert);
        return (
          <li key={alert.id} class={`alert alert-${alert.severity}`}>
            <div class="alert-head">
              <SeverityBadge severity={alert.severity} />
              <strong>{KIND_LABEL[alert.kind]}</strong>
              <span class="spacer" />
              <time class="muted" dateTime={alert.createdAt} title={formatTime(alert.createdAt)}>
                {formatRelative(alert.createdAt, now)}
              </time>
            </div>
            <p class="alert-message">{alert.message}</p>
            <div class="alert-links">
              {props.showFile && alert.fileId !== null && (
                <Link href={`/files/${alert.fileId}`} class="url">
                  {alert.fileUrl ?? `file ${alert.fileId}`}
                </Link>
              )}
              {href &&
                (props.onShowChange ? (
                  <button type="button" class="link-button" onClick={() => props.onShowChange?.(alert)}>
                    Show the change
                  </button>
                ) : (
                  <Link href={href}>Show the change</Link>
                ))}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

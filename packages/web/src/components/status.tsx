/** Badges the report pages share: a file's fetch status, its effective policy, an alert's severity. */

import type { Alert, FilePolicy, RobotsFile } from '../api-types.js';

const STATUS = {
  fetched: { label: 'Fetched', tone: 'good' },
  'not-found': { label: 'Not found', tone: 'neutral' },
  error: { label: 'Error', tone: 'bad' },
} as const;

/** The engine's report status (`fetchStatusOf`): `Fetched`, `Not found`, `Error`; `Not checked yet` before a fetch. */
export function FileStatusBadge({ file }: { file: Pick<RobotsFile, 'status'> }) {
  if (file.status === null) return <span class="badge badge-neutral">Not checked yet</span>;
  const { label, tone } = STATUS[file.status];
  return <span class={`badge badge-${tone}`}>{label}</span>;
}

/** What a file's status means, in a few words (its reason when not fetched). */
export function statusDetail(file: Pick<RobotsFile, 'status' | 'statusReason' | 'httpStatus'>): string | null {
  if (file.status === 'fetched') return file.httpStatus === null ? null : `HTTP ${file.httpStatus}`;
  return file.statusReason;
}

const POLICY = {
  rules: { label: 'Rules apply', tone: 'good' },
  'allow-all': { label: 'Allow all', tone: 'neutral' },
  'disallow-all': { label: 'Disallow all', tone: 'bad' },
} as const;

/** The effective policy in two words, its reason as the tooltip. */
export function PolicyBadge({ policy }: { policy: FilePolicy | null }) {
  if (policy === null) return <span class="muted">—</span>;
  const { label, tone } = POLICY[policy.mode];
  return (
    <span class={`badge badge-${tone}`} title={policy.message}>
      {label}
    </span>
  );
}

export function SeverityBadge({ severity }: { severity: Alert['severity'] | 'error' | 'warning' | 'info' }) {
  const tone = severity === 'critical' || severity === 'error' ? 'bad' : severity === 'warning' ? 'warn' : 'info';
  const label = severity[0]!.toUpperCase() + severity.slice(1);
  return <span class={`badge badge-${tone} badge-small`}>{label}</span>;
}

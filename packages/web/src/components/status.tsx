/**
 * Badges the report pages share: a file's fetch status, its headline (what each watched crawler gets now, stated by
 * the service from the engine), its effective policy, an alert's severity.
 */

import type { Alert, FilePolicy, RobotsFile } from '../api-types.js';
import { formatTime } from './format.js';

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
export function statusDetail(file: Pick<RobotsFile, 'status' | 'statusReason' | 'reply'>): string | null {
  // The status in its protocol's words (HTTP 200; none for a file read over FTP), from the engine via the API.
  if (file.status === 'fetched') return file.reply;
  return file.statusReason;
}

const POLICY = {
  rules: { label: 'Rules apply', tone: 'good' },
  'allow-all': { label: 'Allow all', tone: 'neutral' },
  'disallow-all': { label: 'Disallow all', tone: 'bad' },
} as const;

/**
 * What the file does now, in the service's words ("blocks everything for every crawler"), coloured by its tone: never
 * a green "rules apply" for a file that blocks the site. Falls back to the policy badge before the first fetch.
 */
export function Headline({ file }: { file: Pick<RobotsFile, 'headline' | 'effectivePolicy'> }) {
  const h = file.headline;
  if (h === null) return <PolicyBadge policy={file.effectivePolicy} />;
  return (
    <span class={`headline headline-${h.tone}`} data-tone={h.tone} title={file.effectivePolicy?.message}>
      {h.text}
    </span>
  );
}

/**
 * What the headline's share of sitemap URLs rests on, in the service's plain words ("measured over 50 sitemap URLs",
 * "no sitemap: …", "the sitemaps could not be read, so … unknown"), with when it was measured; nothing when no share
 * was measured for the version whose rules apply.
 */
export function SitemapShareNote({ file, class: className }: { file: Pick<RobotsFile, 'headline'>; class: string }) {
  const share = file.headline?.sitemapShare ?? null;
  if (share === null) return null;
  return (
    <span class={className} data-status={share.status}>
      Sitemap URLs: {share.note} (<time dateTime={share.measuredAt}>measured {formatTime(share.measuredAt)}</time>)
    </span>
  );
}

/**
 * The effective policy in two words, its reason as the tooltip. Before the first fetch the engine's policy is
 * disallow-all (a crawler waits for robots.txt), which is no fact about the site: said as "Not fetched yet", not as a
 * red "Disallow all" a site owner would read as the file blocking everything.
 */
export function PolicyBadge({ policy }: { policy: FilePolicy | null }) {
  if (policy === null) return <span class="muted">—</span>;
  if (policy.reason === 'not-fetched') {
    return (
      <span class="badge badge-neutral" title={policy.message}>
        Not fetched yet
      </span>
    );
  }
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

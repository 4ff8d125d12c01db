/**
 * A judged access log recorded for a property, in one write transaction: the upload, its crawler rows, and a
 * `crawler-ignores-robots` alert (with its webhook deliveries) for each crawler whose verified addresses fetched URLs
 * the robots.txt in force disallowed. Spoofed and unverifiable requests in a crawler's name raise no alert: the
 * operator is not the one who sent them.
 */

import type { Kysely } from 'kysely';
import type { RobotsVersion } from 'robotskit/logs';
import type { JudgedLog } from '../analysis/crawler-activity.js';
import { ALERT_KINDS } from '../storage/alert-kinds.js';
import { activeWebhooks, insertAlert, queueDelivery } from '../storage/alerts.js';
import type { DialectName } from '../storage/config.js';
import { insertUpload } from '../storage/crawler-activity.js';
import type { Schema } from '../storage/schema.js';
import { writeTransaction } from '../storage/storage-dialect.js';

/** What was uploaded, and against which file's history it was judged. */
export interface UploadFacts {
  readonly propertyId: number;
  readonly fileId: number;
  readonly fileUrl: string;
  readonly name: string | null;
  readonly bytes: number;
  readonly now: number;
  readonly versions: readonly RobotsVersion[];
}

/** The alert's words for one crawler. */
function alertMessage(crawler: string, hit: NonNullable<ReturnType<JudgedLog['verifiedDisallowed']['get']>>): string {
  const { first, count } = hit;
  return (
    `${crawler}, verified as its operator's (${hit.reason}), fetched ${count} URL${count === 1 ? '' : 's'} that ` +
    `robots.txt disallowed, such as ${first.target} at ${first.time} (line ${first.line} of ${first.version}: ` +
    `${first.rule})`
  );
}

/** Stores the upload, its crawlers and its alerts; returns the upload's id and the alerts' ids. */
export async function recordActivity(
  db: Kysely<Schema>,
  dialect: DialectName,
  facts: UploadFacts,
  judged: JudgedLog,
): Promise<{ uploadId: number; alertIds: number[] }> {
  return writeTransaction(db, dialect, async (trx) => {
    const uploadId = await insertUpload(
      trx,
      {
        property_id: facts.propertyId,
        file_id: facts.fileId,
        file_url: facts.fileUrl,
        name: facts.name,
        created_at: facts.now,
        bytes: facts.bytes,
        lines: judged.lines,
        requests: judged.requests,
        other_requests: judged.otherRequests,
        malformed: judged.malformed,
        violations: judged.violations,
        first_request_at: judged.firstRequestAt,
        last_request_at: judged.lastRequestAt,
        versions_json: JSON.stringify(
          facts.versions.map((v) => ({
            label: v.label,
            since: Number.isFinite(v.since) ? new Date(v.since).toISOString() : null,
          })),
        ),
        malformed_json: JSON.stringify(judged.malformedExamples.map(({ line, reason }) => ({ line, reason }))),
        violations_json: JSON.stringify(judged.kept),
      },
      judged.crawlers.map((row) => ({
        crawler: row.name,
        known: row.known ? 1 : 0,
        operator: row.operator,
        requests: row.requests,
        unjudged: row.unjudged,
        disallowed: row.disallowed,
        verified_disallowed: judged.verifiedDisallowed.get(row.name)?.count ?? 0,
        verification: row.verification.status,
        verification_reason: row.verification.reason,
        verified: row.verification.requests.verified,
        spoofed: row.verification.requests.spoofed,
        unverifiable: row.verification.requests.unverifiable,
        unchecked: row.verification.requests.unchecked,
        robots_fetches: row.robotsTxt.fetches,
        first_seen: Date.parse(row.firstSeen),
        last_seen: Date.parse(row.lastSeen),
        versions_json: JSON.stringify(
          (row.versions ?? []).map((v) => ({
            ...v,
            lines: row.violations
              .filter((hit) => hit.version === v.version)
              .map(({ line, rule, requests }) => ({ line, rule, requests })),
          })),
        ),
      })),
    );
    const alertIds: number[] = [];
    const webhooks = judged.verifiedDisallowed.size === 0 ? [] : await activeWebhooks(trx);
    const kind = 'crawler-ignores-robots';
    for (const [crawler, hit] of judged.verifiedDisallowed) {
      const alertId = await insertAlert(trx, {
        property_id: facts.propertyId,
        file_id: facts.fileId,
        kind,
        severity: ALERT_KINDS[kind],
        message: alertMessage(crawler, hit),
        details_json: JSON.stringify({
          uploadId,
          crawler,
          verifiedDisallowed: hit.count,
          example: {
            target: hit.first.target,
            time: hit.first.time,
            ip: hit.first.ip,
            version: hit.first.version,
            line: hit.first.line,
            rule: hit.first.rule,
          },
        }),
        version_id: null,
        previous_version_id: null,
        created_at: facts.now,
      });
      for (const hook of webhooks) {
        if (hook.property_id !== null && Number(hook.property_id) !== facts.propertyId) continue;
        const kinds = hook.kinds_json === null ? null : (JSON.parse(hook.kinds_json) as string[]);
        if (kinds !== null && !kinds.includes(kind)) continue;
        await queueDelivery(trx, hook.id, alertId, facts.now);
      }
      alertIds.push(alertId);
    }
    return { uploadId, alertIds };
  });
}

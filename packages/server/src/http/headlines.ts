/**
 * Headlines: what each watched crawler gets from a file now, in one line (`analysis/headline.ts`), for the files
 * API and the properties list (a property's headline is its first own file's). Their JSON shape is here.
 */

import { Type } from 'typebox';
import { type HeadlineFacts, headlineOf } from '../analysis/headline.js';
import { ownFilesOfProperty } from '../storage/properties.js';
import { type FileReportRow, getBody, getFileReport, latestGoodVersion, versionBodyFacts } from '../storage/report.js';
import { type FilePolicy as FilePolicyRow, headersFromJson } from '../storage/rows.js';
import { sitemapShareOfVersion } from '../storage/sitemap-shares.js';
import type { ApiContext } from './context.js';
import { lastFetchFacts, reportStatusOf } from './json.js';

/** What each watched crawler gets from the file now, in one line (`analysis/headline.ts`). */
export const Headline = Type.Object(
  {
    tone: Type.Union([Type.Literal('bad'), Type.Literal('warn'), Type.Literal('good'), Type.Literal('neutral')], {
      description: 'bad: a crawler the site depends on gets nothing, or the file is unreachable',
    }),
    text: Type.String({
      description:
        'what the file does now: "blocks everything for every crawler", "HTML page: no rules, all allowed", ' +
        '"unreachable since …: Google treats the site as disallowed until …"',
    }),
    crawlers: Type.Array(
      Type.Object({
        crawler: Type.String(),
        access: Type.Union([Type.Literal('nothing'), Type.Literal('everything'), Type.Literal('some')]),
      }),
      { description: "what each watched crawler gets by the engine's crawlerAccess; empty when no rules apply" },
    ),
    sitemapShare: Type.Union(
      [
        Type.Object({
          status: Type.Union(
            [
              Type.Literal('measured'),
              Type.Literal('partial'),
              Type.Literal('no-sitemap'),
              Type.Literal('no-urls'),
              Type.Literal('unreachable'),
              Type.Literal('failed'),
            ],
            {
              description:
                'measured; partial (some sitemaps unreadable); no-sitemap, no-urls, unreachable, failed: no share',
            },
          ),
          measuredAt: Type.String({ description: 'when the version was recorded and its share measured' }),
          checked: Type.Integer({ description: "sitemap URLs of the file's site decided" }),
          capped: Type.Boolean({ description: 'the walk stopped at a limit: the share is over a sample' }),
          sitemaps: Type.Array(Type.String(), { description: 'the sitemaps the walk started from' }),
          crawlers: Type.Array(
            Type.Object({ crawler: Type.String(), blocked: Type.Integer(), percent: Type.Integer() }),
            { description: 'per watched crawler, the sitemap URLs the version blocks' },
          ),
          note: Type.String({ description: 'what the share is, in plain words' }),
        }),
        Type.Null(),
      ],
      {
        description:
          'the share of sitemap URLs the applying version blocks per watched crawler, measured when it was recorded; ' +
          'null when none was measured or no rules apply',
      },
    ),
  },
  { description: 'the headline of the file; null before its first fetch' },
);

/** A file's policy now, by the service's resolver (null without one). */
export async function policyOf(context: ApiContext, row: FileReportRow): Promise<FilePolicyRow | null> {
  return context.resolvePolicy ? await context.resolvePolicy(row, context.now()) : null;
}

/** The headline of a file now, from its policy and the body whose rules apply (read only when not known yet). */
export async function headlineOfFile(context: ApiContext, row: FileReportRow, policy: FilePolicyRow | null) {
  const { db } = context.database;
  let body: HeadlineFacts['body'] = null;
  const applying = policy?.versionId ?? null;
  // The version whose rules apply: the policy's, else the last fetch's when its rules apply.
  const shareVersion = applying ?? (row.fetch_outcome === 'rules' ? row.latest_version_id : null);
  if (applying !== null) {
    const v = await versionBodyFacts(db, applying);
    if (v?.body_hash) {
      const hash = v.body_hash;
      body = {
        hash,
        contentType: headersFromJson(v.headers_json)['content-type'] ?? null,
        bytes: async () => (await getBody(db, hash))?.content,
      };
    }
  } else if (row.fetch_outcome === 'rules' && row.fetch_body_hash !== null) {
    const hash = row.fetch_body_hash;
    body = {
      hash,
      contentType: headersFromJson(row.fetch_headers_json ?? '{}')['content-type'] ?? null,
      bytes: async () => (await getBody(db, hash))?.content,
    };
  }
  const last = lastFetchFacts(row);
  const facts = last === null ? null : reportStatusOf(last);
  return headlineOf(
    {
      policy,
      lastOutcome: row.fetch_outcome,
      statusReason: facts?.reason ?? null,
      body,
      failingSince: row.failing_since,
      // Only a failing file needs to know whether it ever had a good fetch.
      everFetched: row.fetch_outcome !== 'disallow-all' || (await latestGoodVersion(db, row.id)) !== undefined,
      sitemapShare: shareVersion === null ? null : await sitemapShareOfVersion(db, Number(shareVersion)),
    },
    context.analysisThreads,
  );
}

/** A property's headline: its first own file's (the property's host, https first), with that file's URL. */
export async function headlineOfProperty(context: ApiContext, propertyId: number) {
  const [first] = await ownFilesOfProperty(context.database.db, propertyId);
  if (first === undefined) return null;
  const row = await getFileReport(context.database.db, first.id);
  if (row === undefined) return null;
  const headline = await headlineOfFile(context, row, await policyOf(context, row));
  return headline === null ? null : { ...headline, fileId: Number(first.id), fileUrl: first.url };
}

/**
 * The impact page's result: the engine's exact comparison (every region of URLs decided differently, per crawler,
 * with an example and the deciding lines) beside the sample of URLs checked (the sitemaps' or the ones typed).
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import type { ImpactResult } from '../../api-types.js';
import { formatTime, plural } from '../../components/format.js';

const SHOWN_CHANGES = 200;

type Exact = ImpactResult['exact'];
type ExactCrawler = Exact['crawlers'][number];
type ExactRule = ExactCrawler['regions'][number]['before'];
type Change = ImpactResult['changes'][number];

function VerdictCell({ side }: { side: Change['before'] }) {
  return (
    <span class="verdict-cell">
      <span class={side.allowed ? 'badge badge-allowed' : 'badge badge-blocked'}>
        {side.allowed ? 'Allowed' : 'Blocked'}
      </span>
      {side.rule ? (
        <span class="muted">
          {side.line > 0 && <span class="line-ref">line {side.line}</span>}
          <code class="rule">
            {side.rule.kind}: {side.rule.pattern}
          </code>
        </span>
      ) : (
        <span class="muted">{side.note ?? 'no rule matches'}</span>
      )}
    </span>
  );
}

/** Crawlers whose exact answer is the same (the same groups in both versions), shown once. */
function groupedCrawlers(crawlers: readonly ExactCrawler[]): { names: string[]; result: ExactCrawler }[] {
  const groups = new Map<string, { names: string[]; result: ExactCrawler }>();
  for (const c of crawlers) {
    const key = JSON.stringify([c.equivalent, c.complete, c.regionsTotal, c.regions]);
    const group = groups.get(key);
    if (group) group.names.push(c.userAgent);
    else groups.set(key, { names: [c.userAgent], result: c });
  }
  return [...groups.values()];
}

function RuleCell({ rule, allowed }: { rule: ExactRule; allowed: boolean }) {
  return (
    <span class="verdict-cell">
      <span class={allowed ? 'badge badge-allowed' : 'badge badge-blocked'}>{allowed ? 'Allowed' : 'Blocked'}</span>
      {rule ? (
        <span class="muted">
          <span class="line-ref">line {rule.line}</span>
          <code class="rule">{rule.lineText ?? `${rule.kind}: ${rule.pattern}`}</code>
          {rule.indexHtml && <span class="hint"> (read as {rule.pattern}, Google’s index.html rule)</span>}
        </span>
      ) : (
        <span class="muted">no rule matches</span>
      )}
    </span>
  );
}

/** The regions of one group of crawlers, with an example URL each and the lines deciding it now and after. */
function RegionsTable({ who, regions }: { who: string; regions: ExactCrawler['regions'] }) {
  return (
    <div class="table-wrap">
      <table class="data-table changes-table regions-table">
        <caption class="visually-hidden">Regions whose verdict changes for {who}</caption>
        <thead>
          <tr>
            <th scope="col">Region</th>
            <th scope="col">Example URL</th>
            <th scope="col">Now</th>
            <th scope="col">After the change</th>
          </tr>
        </thead>
        <tbody>
          {regions.map((r, i) => (
            <tr key={`${i}:${r.pattern}:${r.witness}`}>
              <td class="url-cell">
                <span class={r.change === 'blocked' ? 'count count-error' : 'count count-allowed'}>
                  {r.change === 'blocked' ? 'Now blocked' : 'Now allowed'}
                </span>{' '}
                <code class="rule">{r.pattern}</code>
              </td>
              <td data-label="Example URL" class="url-cell">
                <a class="url" href={r.witnessUrl} target="_blank" rel="noopener noreferrer">
                  {r.witnessUrl}
                </a>
              </td>
              <td data-label="Now">
                <RuleCell rule={r.before} allowed={r.change === 'blocked'} />
              </td>
              <td data-label="After">
                <RuleCell rule={r.after} allowed={r.change === 'allowed'} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One group of crawlers with the same exact answer. */
function ExactCrawlerResult({ names, result }: { names: string[]; result: ExactCrawler }) {
  const who = names.join(', ');
  const id = `exact-${names.join('-').replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return (
    <section class="exact-crawler" aria-labelledby={id}>
      <h4 class="exact-title" id={id}>
        {who}
      </h4>
      {result.equivalent ? (
        <p class="exact-equivalent">
          <span class="badge badge-good">No change in meaning</span> every URL is decided as before.
        </p>
      ) : (
        <>
          <p class="hint">
            {result.regionsTotal === 0
              ? 'No region found before the comparison stopped.'
              : `${plural(result.regionsTotal, 'region')} of URLs decided differently${
                  result.complete ? '' : ' so far (the comparison was cut short)'
                }${result.regions.length < result.regionsTotal ? `; the first ${result.regions.length} listed` : ''}.`}
          </p>
          {result.regions.length > 0 && <RegionsTable who={who} regions={result.regions} />}
        </>
      )}
    </section>
  );
}

/** The engine's exact comparison: every region of URLs whose verdict changes, per crawler, with an example. */
function ExactRegions({ exact }: { exact: Exact }) {
  if (!exact.available) {
    return <p class="notice notice-info">{exact.note}</p>;
  }
  return (
    <>
      {!exact.complete && (
        <p class="notice notice-warning" role="note">
          The exact comparison was cut short (it reached its bounds before finishing): the regions listed are real, but
          there may be more. The sitemap sample below is complete for the URLs it read.
        </p>
      )}
      {groupedCrawlers(exact.crawlers).map(({ names, result }) => (
        <ExactCrawlerResult key={names.join(', ')} names={names} result={result} />
      ))}
    </>
  );
}

/** One side of the comparison in words: "your draft", "version 4 (fetched …, the current one)". */
function sideName(side: ImpactResult['before']): string {
  if (side.draft || side.versionId === null) return 'your draft';
  const when = side.fetchedAt === null ? '' : `fetched ${formatTime(side.fetchedAt)}`;
  const parts = [when, side.current ? 'the current one' : ''].filter((p) => p !== '');
  return `version ${side.versionId}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}

/** The result panel, naming the two sides it compared. */
export function ImpactReport({ result }: { result: ImpactResult }) {
  // Shown once per check (the form clears the last result first): keyboard and screen-reader users land on it.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="panel impact-report" aria-labelledby="impact-result-title">
      <h2 class="panel-title" id="impact-result-title" tabIndex={-1} ref={heading}>
        Result
      </h2>
      <p class="impact-compared">
        Compared {sideName(result.after)} with {sideName(result.before)}.
      </p>
      <div class="impact-columns">
        <section class="impact-exact" aria-labelledby="impact-exact-title">
          <h3 class="section-title" id="impact-exact-title">
            Every URL whose verdict changes
          </h3>
          <p class="hint">
            Exact, for every URL of the site, listed in a sitemap or not: each region of URLs decided differently, with
            the shortest example and the lines that decide it now and after the change.
          </p>
          <ExactRegions exact={result.exact} />
        </section>
        <section class="impact-sample" aria-labelledby="impact-sample-title">
          <h3 class="section-title" id="impact-sample-title">
            {result.urls.source === 'request' ? 'The URLs typed' : 'The sitemap sample'}
          </h3>
          <SampleReport result={result} />
        </section>
      </div>
    </section>
  );
}

/** Newly blocked and newly allowed URLs per crawler, for the crawlers with any. */
function SummaryTable({ summary }: { summary: ImpactResult['summary'] }) {
  return (
    <div class="table-wrap">
      <table class="data-table compact summary-table">
        <caption class="visually-hidden">Verdict changes per crawler</caption>
        <thead>
          <tr>
            <th scope="col">Crawler</th>
            <th scope="col" class="num">
              Newly blocked
            </th>
            <th scope="col" class="num">
              Newly allowed
            </th>
          </tr>
        </thead>
        <tbody>
          {summary.map((s) => (
            <tr key={s.userAgent}>
              <th scope="row">{s.userAgent}</th>
              <td class="num">
                <span class={s.newlyBlocked > 0 ? 'count count-error' : 'muted'}>{s.newlyBlocked}</span>
              </td>
              <td class="num">
                <span class={s.newlyAllowed > 0 ? 'count count-allowed' : 'muted'}>{s.newlyAllowed}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The URLs whose verdict changes, for each crawler, now and after the change. */
function ChangesTable({ changes }: { changes: readonly Change[] }) {
  return (
    <div class="table-wrap">
      <table class="data-table changes-table">
        <caption class="visually-hidden">URLs whose verdict changes</caption>
        <thead>
          <tr>
            <th scope="col">URL</th>
            <th scope="col">Crawler</th>
            <th scope="col">Now</th>
            <th scope="col">After the change</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c, i) => (
            <tr key={`${i}:${c.url}:${c.userAgent}`}>
              <td class="url-cell">
                <span class="url">{c.url}</span>
              </td>
              <td data-label="Crawler">{c.userAgent}</td>
              <td data-label="Now">
                <VerdictCell side={c.before} />
              </td>
              <td data-label="After">
                <VerdictCell side={c.after} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Where the sample's URLs came from, in words. */
function sourcesOf(urls: ImpactResult['urls']): string {
  if (urls.source === 'request') return 'the home page and the URLs typed';
  if (urls.noSitemap) return 'the home page (no sitemap was found)';
  return `the home page and ${plural(urls.sitemaps.length, 'sitemap')}`;
}

function SampleReport({ result }: { result: ImpactResult }) {
  const [limit, setLimit] = useState(SHOWN_CHANGES);
  const changed = result.summary.filter((s) => s.newlyBlocked + s.newlyAllowed > 0);
  return (
    <>
      <p class="impact-summary" role="status">
        {plural(result.urls.checked, 'URL')} from {sourcesOf(result.urls)} checked for{' '}
        {plural(result.userAgents.length, 'crawler')}
        {result.urls.capped ? ' (capped)' : ''}:{' '}
        <strong>
          {result.changesTotal === 0 ? 'no verdict changes' : plural(result.changesTotal, 'verdict change')}
        </strong>
        .
      </p>
      {result.urls.problems.length > 0 && (
        <ul class="problems">
          {result.urls.problems.slice(0, 10).map((p) => (
            <li key={p} class="hint hint-warning">
              {p}
            </li>
          ))}
        </ul>
      )}
      {result.urls.noSitemap && (
        <p class="notice notice-info">
          No sitemap was found: the robots.txt lists none and {result.origin}/sitemap.xml has no URLs, so only the home
          page was checked. Type the URLs that matter above to check them too.
        </p>
      )}
      {changed.length > 0 && <SummaryTable summary={changed} />}
      {result.changes.length > 0 && <ChangesTable changes={result.changes.slice(0, limit)} />}
      {result.changes.length > limit && (
        <p class="more">
          {result.changes.length - limit} more shown on request.{' '}
          <button type="button" class="link-button" onClick={() => setLimit(result.changes.length)}>
            Show all
          </button>
        </p>
      )}
      {result.changesTotal > result.changes.length && (
        <p class="hint">
          The service lists the first {result.changes.length} changes of {result.changesTotal}.
        </p>
      )}
    </>
  );
}

/**
 * A crawl client's own refusals (an SSRF guard's `blocked`, no FTP client for `ftp://`, a cancelled fetch) are no
 * facts about the site: they apply in the process that made them, but never reach a shared store, so another client
 * on the same store fetches the site and gets its real answer.
 */

import { describe, expect, it } from 'vitest';
import { isLocalRefusal, siteHistory } from '../../../src/fetch/client/site-facts.js';
import {
  BlockedFetchError,
  createMemoryRobotsStore,
  createRobotsClient,
  describeFetchOutcome,
  effectivePolicy,
  type FetchLike,
  fetchRobotsTxt,
  type RetrievalResult,
  statusLabel,
} from '../../../src/fetch/index.js';
import { clockAt, DAY, fetched, T0 } from './fetches.js';

const SITE = 'https://site.test';
const RULES = 'User-agent: *\nDisallow: /private/\n';

/** A fetch that serves RULES for every robots.txt. */
const serving: FetchLike = async () => new Response(RULES, { status: 200 });
/** A fetch that refuses every request, as the service's SSRF guard refuses a private address. */
const refusing: FetchLike = async (url) => {
  throw new BlockedFetchError(`refused to connect to ${new URL(url).hostname}: a private (RFC 1918) address`);
};

function refusal(origin: string, at: number, kind: 'blocked' | 'aborted'): RetrievalResult {
  return {
    ...fetched(origin, at, null, 'disallow-all'),
    status: null,
    error: { kind, message: 'not fetched', phase: 'request', code: null },
  };
}

describe('local refusals and the shared store', () => {
  it('tells refusals of the process from site facts, and leaves them out of a history', () => {
    const real = fetched(SITE, T0, RULES);
    const down = fetched(SITE, T0 + 1, null, 'disallow-all');
    expect(isLocalRefusal(refusal(SITE, T0, 'blocked'))).toBe(true);
    expect(isLocalRefusal(refusal(SITE, T0, 'aborted'))).toBe(true);
    expect(isLocalRefusal(real)).toBe(false);
    // A 503 is the site's own answer.
    expect(isLocalRefusal(down)).toBe(false);
    const history = [real, refusal(SITE, T0 + 2, 'blocked'), down];
    expect(siteHistory(history)).toEqual([real, down]);
    // Nothing to leave out: the same array.
    const clean = [real, down];
    expect(siteHistory(clean)).toBe(clean);
  });

  it('a refused site is disallowed in the refusing client, and another client on the store gets the real answer', async () => {
    const store = createMemoryRobotsStore({ maxOrigins: 10 });
    const clock = clockAt();
    const service = createRobotsClient({ userAgent: 'Svc', fetch: refusing, store, clock });
    const refused = await service.explain(`${SITE}/page`);
    expect(refused.allowed).toBe(false);
    expect(refused.latest.error?.kind).toBe('blocked');
    expect(await store.get(SITE)).toBeUndefined();

    const crawler = createRobotsClient({ userAgent: 'Bot', fetch: serving, store, clock });
    const verdict = await crawler.explain(`${SITE}/page`);
    expect(verdict.allowed).toBe(true);
    expect(verdict.policy.mode).toBe('rules');
    const record = await store.get(SITE);
    expect(record?.history.map((r) => r.outcome)).toEqual(['rules']);
    expect(crawler.stats().fetches).toBe(1);
  });

  it('a later real fetch of the refusing client writes its history without the refusal', async () => {
    const store = createMemoryRobotsStore({ maxOrigins: 10 });
    const clock = clockAt();
    let refuse = true;
    const sometimes: FetchLike = (url, init) => (refuse ? refusing(url, init) : serving(url, init));
    const client = createRobotsClient({ userAgent: 'Svc', fetch: sometimes, store, clock });
    expect(await client.isAllowed(`${SITE}/x`)).toBe(false);
    expect(await store.get(SITE)).toBeUndefined();
    refuse = false;
    clock.at = T0 + DAY;
    await client.refresh(SITE);
    const record = await store.get(SITE);
    expect(record?.history.map((r) => [r.outcome, r.error?.kind ?? null])).toEqual([['rules', null]]);
    expect(await client.isAllowed(`${SITE}/x`)).toBe(true);
  });

  it('an ftp:// robots.txt without an FTP client is refused by the process, in its own words, and never stored', async () => {
    let asked = 0;
    const counting: FetchLike = async (url, init) => {
      asked++;
      return serving(url, init);
    };
    const result = await fetchRobotsTxt('ftp://files.test/pub/', { fetch: counting });
    expect(asked).toBe(0);
    expect(result.outcome).toBe('disallow-all');
    expect(result.error).toMatchObject({ kind: 'blocked', code: 'ERR_UNSUPPORTED_SCHEME' });
    expect(describeFetchOutcome(result).summary).toBe('not fetched: no FTP client here to read an ftp:// robots.txt');

    const store = createMemoryRobotsStore({ maxOrigins: 10 });
    const client = createRobotsClient({ userAgent: 'Svc', fetch: counting, store, clock: clockAt() });
    expect(await client.isAllowed('ftp://files.test/pub/x.zip')).toBe(false);
    expect(await store.get('ftp://files.test')).toBeUndefined();
  });

  it('words a bare status in its protocol: an FTP reply is never called HTTP', () => {
    expect(statusLabel({ status: 503, error: null })).toBe('HTTP 503');
    expect(statusLabel({ status: 530, error: { kind: 'protocol', code: 'FTP_530' } })).toBe('FTP 530');
    expect(statusLabel({ status: 550, error: { kind: 'protocol', code: 'FTP_550' } })).toBe('FTP 550');
    expect(statusLabel({ status: null, error: { kind: 'dns', code: 'ENOTFOUND' } })).toBeNull();
    expect(describeFetchOutcome({ status: 530, error: { kind: 'protocol', code: 'FTP_530' } }).summary).toBe(
      'FTP login refused (530)',
    );
    // The policy's message words the failure by its own code and phase, not as a broken HTTP answer.
    const refused: RetrievalResult = {
      ...fetched('ftp://files.test', T0, null, 'disallow-all'),
      status: 530,
      error: { kind: 'protocol', message: 'FTP login refused: FTP 530', phase: 'request', code: 'FTP_530' },
    };
    const policy = effectivePolicy([refused], T0 + 1);
    expect(policy.message).toContain('(latest: FTP login refused (530))');
    expect(policy.message).not.toContain('HTTP');
  });
});

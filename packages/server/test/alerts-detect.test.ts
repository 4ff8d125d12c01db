/** Alert detection between two versions, as a pure function (the engine decides every rules question). */

import { ANY_CRAWLER, resolveCrawler } from 'robotskit';
import { availabilityRules } from 'robotskit/fetch';
import { describe, expect, it } from 'vitest';
import { detectAlerts, looksLikeAssetPattern, type VersionSnapshot } from '../src/alerts/detect.js';
import { WATCHED_CRAWLERS } from '../src/analysis/watched-crawlers.js';

const ORIGIN = 'https://example.com';
const enc = new TextEncoder();
const fetched = (body: string, contentType = 'text/plain'): VersionSnapshot => ({
  outcome: 'rules',
  httpStatus: 200,
  body: enc.encode(body),
  contentType,
});
const notFound: VersionSnapshot = { outcome: 'allow-all', httpStatus: 404, body: null, contentType: null };
const failed: VersionSnapshot = { outcome: 'disallow-all', httpStatus: 503, body: null, contentType: null };
const kinds = (next: VersionSnapshot, previous: VersionSnapshot | null, lastGood: VersionSnapshot | null = null) =>
  detectAlerts(ORIGIN, next, previous, lastGood)
    .map((a) => a.kind)
    .sort();

describe('detectAlerts', () => {
  it('says nothing about an ordinary first version, and what it is when it blocks everything', () => {
    expect(kinds(fetched('User-agent: *\nDisallow: /private/\n'), null)).toEqual([]);
    expect(kinds(fetched('User-agent: *\nDisallow: /\n'), null)).toEqual(['disallow-all-added']);
    expect(kinds(fetched(''), null)).toEqual(['no-rules']);
  });

  it('sees / newly blocked for Googlebot only, through its own group', () => {
    const alerts = detectAlerts(
      ORIGIN,
      fetched('User-agent: Googlebot\nDisallow: /\n'),
      fetched('User-agent: *\nDisallow: /x\n'),
      null,
    );
    expect(alerts.find((a) => a.kind === 'disallow-all-added')?.message).toBe(
      'The whole site is now blocked for Googlebot: line 2 disallows /',
    );
  });

  it('does not call / blocked when an allow rule keeps it open', () => {
    expect(kinds(fetched('User-agent: *\nDisallow: /\nAllow: /$\n'), notFound)).toEqual(['file-changed']);
  });

  it('reads a 404 before as allow-all: a new Disallow: / is critical', () => {
    expect(kinds(fetched('User-agent: *\nDisallow: /\n'), notFound)).toEqual(['disallow-all-added', 'file-changed']);
  });

  it('reports asset paths only when newly blocked', () => {
    const before = fetched('User-agent: *\nDisallow: /assets/\n');
    expect(kinds(fetched('User-agent: *\nDisallow: /assets/\nDisallow: /admin\n'), before)).toEqual(['file-changed']);
    const alerts = detectAlerts(
      ORIGIN,
      fetched('User-agent: *\nDisallow: /assets/\nDisallow: /static/\nDisallow: /*.css$\n'),
      before,
      null,
    );
    expect(alerts.find((a) => a.kind === 'assets-blocked')?.message).toBe(
      'Stylesheet or script paths newly disallowed: /static/ (line 3, every crawler (*)), /*.css$ (line 4, every crawler (*)). ' +
        'Google needs CSS and JavaScript to render pages',
    );
    // Blocked for *, but Googlebot has its own group that keeps it open: reported for * only.
    const mixed = detectAlerts(
      ORIGIN,
      fetched('User-agent: *\nDisallow: /js/\n\nUser-agent: Googlebot\nAllow: /\n'),
      fetched('User-agent: *\nAllow: /\n'),
      null,
    );
    expect(mixed.find((a) => a.kind === 'assets-blocked')?.details).toEqual({
      rules: [{ crawler: 'every crawler (*)', pattern: '/js/', line: 2 }],
    });
  });

  it('says what an edit changes in meaning, or that no crawler decides differently', () => {
    const before = fetched('User-agent: *\nDisallow: /admin/\n');
    const changed = (next: VersionSnapshot, previous: VersionSnapshot = before) =>
      detectAlerts(ORIGIN, next, previous, null, { added: 1, removed: 1 }).find((a) => a.kind === 'file-changed');
    // Same rules, other spelling and order: lines changed, meaning did not.
    const same = changed(fetched('user-agent: *\n# admin stays out\ndisallow: /admin/\n'));
    expect(same?.message).toBe('robots.txt changed (+1 −1 lines): no crawler decides differently');
    expect(same?.details).toMatchObject({ added: 1, removed: 1, meaning: { equivalent: true, complete: true } });
    // Four new regions for Googlebot (and Applebot, which follows Googlebot's group), named by the one with the
    // shortest example (/.pdf); one reopened for everyone else.
    const edited = changed(
      fetched(
        'User-agent: *\nDisallow: /admin/\nAllow: /admin/help\n\n' +
          'User-agent: Googlebot\nDisallow: /admin/\nDisallow: /checkout/\nDisallow: /cart\nDisallow: /*.pdf$\nDisallow: /search?\n',
      ),
    );
    expect(edited?.message).toBe(
      'robots.txt changed (+1 −1 lines): now blocks /*.pdf$ and 3 other regions for Googlebot, Applebot, ' +
        'Googlebot-Image, Googlebot-News and 2 more; ' +
        'now allows /admin/help for bingbot, GPTBot, ClaudeBot and other crawlers (*)',
    );
    const details = edited?.details.meaning as { changes: { crawler: string; regions: number }[] };
    expect(details.changes.map((c) => [c.crawler, c.regions])).toEqual([
      ['Googlebot', 4],
      ['bingbot', 1],
      ['Applebot', 4],
      ['GPTBot', 1],
      ['ClaudeBot', 1],
      // The catalogue crawlers that read Googlebot's group when none names them: the file names Googlebot.
      ['Googlebot-Image', 4],
      ['Googlebot-News', 4],
      ['Googlebot-Video', 4],
      ['Google-InspectionTool', 4],
      ['*', 1],
    ]);
    // A file that went 404 reads as allow-all: everything blocked before is now allowed.
    expect(changed(notFound)?.message).toBe(
      'robots.txt changed: now not found (HTTP 404), was fetched (HTTP 200) (+1 −1 lines): now allows /admin/ for ' +
        'Googlebot, bingbot, Applebot, GPTBot, ClaudeBot and other crawlers (*)',
    );
  });

  it('says what an edit changes for AI crawlers and AI uses, as its own alert', () => {
    const before = fetched('User-agent: *\nAllow: /\nContent-Usage: / train-ai=y\n');
    // GPTBot (AI training) and OAI-SearchBot (AI search) newly blocked, and training now refused for everyone else.
    const after = fetched(
      'User-agent: *\nAllow: /\nContent-Usage: / train-ai=n\n\nUser-agent: GPTBot\nUser-agent: OAI-SearchBot\nDisallow: /\n',
    );
    const ai = detectAlerts(ORIGIN, after, before, null).find((a) => a.kind === 'ai-policy-changed');
    expect(ai?.severity).toBe('warning');
    expect(ai?.message).toBe(
      'AI policy changed: GPTBot (AI training) now blocks /; OAI-SearchBot (AI search) now blocks /; ' +
        'train-ai allowed → disallowed at / for other crawlers (*) (line 3); train-ai allowed → unstated at / for GPTBot; and 1 more',
    );
    expect(ai?.details).toMatchObject({
      crawlers: [
        { crawler: 'GPTBot', purpose: 'ai-training' },
        { crawler: 'OAI-SearchBot', purpose: 'ai-search' },
      ],
      usageChanges: 3,
    });
    // Only a usage preference: information.
    const usageOnly = detectAlerts(
      ORIGIN,
      fetched('User-agent: *\nAllow: /\nContent-Usage: / train-ai=n\n'),
      before,
      null,
    );
    expect(usageOnly.find((a) => a.kind === 'ai-policy-changed')).toMatchObject({
      severity: 'info',
      message: 'AI policy changed: train-ai allowed → disallowed at / for other crawlers (*) (line 3)',
    });
    // Nothing about AI: no such alert.
    expect(kinds(fetched('User-agent: *\nDisallow: /b\n'), fetched('User-agent: *\nDisallow: /a\n'))).toEqual([
      'file-changed',
    ]);
  });

  it('knows asset-like patterns', () => {
    for (const p of ['/css/', '/js', '/wp-includes/', '/wp-content/themes/', '/_next/static/', '/*.js$', '/app.css']) {
      expect(looksLikeAssetPattern(p), p).toBe(true);
    }
    for (const p of ['/admin', '/jsonapi', '/search?', '/cart/', '/private/*.pdf$']) {
      expect(looksLikeAssetPattern(p), p).toBe(false);
    }
  });

  it('sees HTML by content as well as by Content-Type', () => {
    expect(kinds(fetched('<!DOCTYPE html><html><body>Hi</body></html>'), fetched('User-agent: *\n'))).toEqual([
      'became-html',
      'file-changed',
    ]);
    expect(
      kinds(fetched('User-agent: *\nDisallow:\n', 'text/html; charset=utf-8'), fetched('User-agent: *\n')),
    ).toEqual(['became-html', 'file-changed']);
  });

  it('reports a failure once, and a recovery compared with the last good version', () => {
    const good = fetched('User-agent: *\nDisallow: /x\n\nSitemap: https://example.com/s.xml\n');
    expect(kinds(failed, good)).toEqual(['file-unreachable']);
    expect(kinds(failed, failed)).toEqual([]);
    expect(kinds(good, failed, good)).toEqual(['file-recovered']);
    expect(kinds(fetched('User-agent: *\nDisallow: /x\n'), failed, good)).toEqual([
      'file-changed',
      'file-recovered',
      'sitemap-removed',
    ]);
  });
});

describe('the watched crawlers and the availability timeline in alerts', () => {
  it('watches catalogue crawlers and any crawler (*), each for a reason', () => {
    for (const crawler of WATCHED_CRAWLERS) {
      const read = resolveCrawler(crawler.name);
      expect(read.kind, crawler.name).toBe(crawler.name === ANY_CRAWLER ? 'any' : 'profile');
      expect(crawler.why.length, crawler.name).toBeGreaterThan(10);
    }
    expect(new Set(WATCHED_CRAWLERS.map((c) => c.name)).size).toBe(WATCHED_CRAWLERS.length);
  });

  it('says what a failure means with the periods the service applies', () => {
    const failure = (rules?: ReturnType<typeof availabilityRules>) =>
      detectAlerts(ORIGIN, failed, fetched('User-agent: *\nDisallow:\n'), null, undefined, undefined, rules)[0]
        ?.message;
    expect(failure()).toContain(
      'Google stops crawling the site for 12 h, then uses the last good version for up to 30 days',
    );
    expect(
      failure(availabilityRules({ disallowPeriod: 6 * 3_600_000, lastGoodVersionPeriod: 10 * 86_400_000 })),
    ).toContain('for 6 h, then uses the last good version for up to 10 days');
  });
});

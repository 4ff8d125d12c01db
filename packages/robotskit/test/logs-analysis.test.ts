/**
 * `LogAnalysis`' bounds: bots beyond `maxCrawlers` are counted in one more row, `(other bots)`, and each of them is
 * still judged. And its caches in a log of several sites: one User-Agent's requests for hosts in turn each counted in
 * its host's row and judged by its host's version in force (the crawler cached per User-Agent, the row per host, the
 * verdicts per version of all hosts), an unknown host never judged, `(other bots)` one row per host.
 */

import { parseRobotsTxt } from 'robotskit';
import { LogAnalysis } from 'robotskit/logs';
import { describe, expect, it } from 'vitest';

describe('LogAnalysis', () => {
  it('counts the bots beyond maxCrawlers in an (other bots) row', async () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
    const analysis = new LogAnalysis({
      versions: [{ label: 'robots.txt', since: Number.NEGATIVE_INFINITY, robots }],
      verifier: null,
      maxAddresses: 4,
      maxCrawlers: 2,
    });
    const agents = ['FirstBot/1.0', 'SecondBot/1.0', 'ThirdBot/1.0', 'FourthBot/1.0', 'ThirdBot/1.0'];
    const found = agents.map((userAgent, i) =>
      analysis.add({
        ip: `192.0.2.${i}`,
        time: i * 1000,
        method: 'GET',
        target: '/private/x',
        status: 200,
        userAgent,
        host: null,
      }),
    );
    expect(found).toEqual([true, true, true, true, true]);
    // The violation names the bot; its address is verified as the row's.
    const last = {
      ip: '192.0.2.4',
      time: 4000,
      method: 'GET',
      target: '/private/x',
      status: 200,
      userAgent: agents[4]!,
      host: null,
    };
    expect(analysis.violation(last, '-', 5)).toMatchObject({ crawler: 'ThirdBot', line: 2, logLine: 5 });
    expect(analysis.identityOf('ThirdBot').name).toBe('(other bots)');
    const rows = await analysis.rows();
    expect(rows.map((r) => [r.name, r.requests, r.disallowed])).toEqual([
      ['(other bots)', 3, 3],
      ['FirstBot', 1, 1],
      ['SecondBot', 1, 1],
    ]);
  });

  it("judges each request by its host's versions, one row per host and crawler, whatever the order of the hosts", async () => {
    const version = (label: string, since: number, text: string) => ({ label, since, robots: parseRobotsTxt(text) });
    const analysis = new LogAnalysis({
      sites: new Map([
        ['a.invalid', [version('a', Number.NEGATIVE_INFINITY, 'User-agent: *\nDisallow: /private/\n')]],
        [
          'b.invalid',
          [
            version('b-1', Number.NEGATIVE_INFINITY, 'User-agent: *\nDisallow: /x/\n'),
            version('b-2', 5000, 'User-agent: *\nAllow: /\nDisallow: /private/\n'),
          ],
        ],
      ]),
      verifier: null,
      maxAddresses: 4,
      maxCrawlers: 3,
      perVersion: true,
    });
    const request = (userAgent: string, host: string | null, time: number, target: string) => ({
      ip: '192.0.2.1',
      time,
      method: 'GET',
      target,
      status: 200,
      userAgent,
      host,
    });
    const log = [
      request('FirstBot/1.0', 'a.invalid', 0, '/private/x'),
      request('FirstBot/1.0', 'b.invalid', 1000, '/private/x'),
      request('FirstBot/1.0', 'b.invalid', 1500, '/x/y'),
      request('FirstBot/1.0', 'A.invalid:443', 2000, '/private/x'),
      request('FirstBot/1.0', 'b.invalid', 6000, '/private/x'),
      request('FirstBot/1.0', 'b.invalid', 7000, '/x/y'),
      request('FirstBot/1.0', 'c.invalid', 8000, '/private/x'),
      request('FirstBot/1.0', null, 8100, '/private/x'),
      request('Mozilla/5.0 (X11; Linux x86_64)', 'a.invalid', 8200, '/private/x'),
      request('SecondBot/1.0', 'a.invalid', 9000, '/robots.txt'),
      request('ThirdBot/1.0', 'b.invalid', 9500, '/private/x'),
      request('ThirdBot/1.0', 'a.invalid', 9600, '/private/x'),
    ];
    const found = log.map((r, i) => (analysis.add(r) ? analysis.violation(r, '-', i + 1) : null));
    expect(found.map((v) => v?.version ?? null)).toEqual([
      'a',
      null,
      'b-1',
      'a',
      'b-2',
      null,
      null,
      null,
      null,
      null,
      'b-2',
      'a',
    ]);
    expect(found[3]).toMatchObject({ host: 'a.invalid', crawler: 'FirstBot', line: 2, logLine: 4 });
    expect(found[4]).toMatchObject({ host: 'b.invalid', crawler: 'FirstBot', line: 3, rule: 'Disallow: /private/' });
    expect(found[10]).toMatchObject({ host: 'b.invalid', crawler: 'ThirdBot', line: 3 });
    expect(found[11]).toMatchObject({ host: 'a.invalid', crawler: 'ThirdBot', line: 2 });
    expect(analysis.identityOf('ThirdBot', 'b.invalid').name).toBe('(other bots)');
    expect(analysis.identityOf('ThirdBot', 'a.invalid').name).toBe('(other bots)');
    expect(analysis.identityOf('FirstBot', 'b.invalid').name).toBe('FirstBot');
    expect(analysis.unknownHosts()).toEqual([
      { host: 'c.invalid', requests: 1, crawlerRequests: 1 },
      { host: null, requests: 1, crawlerRequests: 1 },
    ]);
    expect(analysis.otherRequests).toBe(1);
    const rows = await analysis.rows();
    // Without a verifier, every request of a version is unchecked.
    const unchecked = (requests: number) => ({ verified: 0, spoofed: 0, unverifiable: 0, unchecked: requests });
    expect(rows.map((r) => [r.host, r.name, r.requests, r.disallowed, r.robotsTxt.fetches, r.versions])).toEqual([
      ['a.invalid', 'FirstBot', 2, 2, 0, [{ version: 'a', requests: 2, disallowed: 2, verification: unchecked(2) }]],
      [
        'a.invalid',
        '(other bots)',
        1,
        1,
        0,
        [{ version: 'a', requests: 1, disallowed: 1, verification: unchecked(1) }],
      ],
      ['a.invalid', 'SecondBot', 1, 0, 1, [{ version: 'a', requests: 1, disallowed: 0, verification: unchecked(1) }]],
      [
        'b.invalid',
        'FirstBot',
        4,
        2,
        0,
        [
          { version: 'b-1', requests: 2, disallowed: 1, verification: unchecked(2) },
          { version: 'b-2', requests: 2, disallowed: 1, verification: unchecked(2) },
        ],
      ],
      [
        'b.invalid',
        '(other bots)',
        1,
        1,
        0,
        [{ version: 'b-2', requests: 1, disallowed: 1, verification: unchecked(1) }],
      ],
    ]);
  });
});

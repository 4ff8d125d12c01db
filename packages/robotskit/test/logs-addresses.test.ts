/**
 * The analysis' sets of ids (`IdCounts`: ids in typed arrays, found by an open-addressing index, as IPv4 addresses are
 * found by their number): members in the order first added, each counted, through growth; and through `LogAnalysis`
 * (a crawler row's addresses counted in its pair table, `PairCounts`), an
 * address counted by its text exactly as written (`01.2.3.4` is not `1.2.3.4`; `255.255.255.255` and IPv6 by text),
 * the limit per row kept, each address verified once per crawler and its answer counted in every row it is in.
 */

import { parseRobotsTxt } from 'robotskit';
import { LogAnalysis, Verifier } from 'robotskit/logs';
import { describe, expect, it } from 'vitest';
import { IdCounts } from '../src/logs/address-set.js';

describe('IdCounts', () => {
  it('keeps its members in the order first added, with their counts, as it grows', () => {
    const set = new IdCounts();
    const members = Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? i * 7919 : -i * 104_729));
    members.forEach((id, i) => {
      expect(set.find(id)).toBe(-1);
      expect(set.add(id, i)).toBe(i);
    });
    expect(set.size).toBe(1000);
    members.forEach((id, i) => {
      expect(set.find(id)).toBe(i);
      expect(set.ids[i]).toBe(id);
      expect(set.counts[i]).toBe(i);
    });
    expect(set.find(3)).toBe(-1);
    set.clear();
    expect(set.size).toBe(0);
    expect(set.find(members[5]!)).toBe(-1);
    expect(set.add(42)).toBe(0);
    expect(set.counts[0]).toBe(1);
  });
});

describe("LogAnalysis' addresses", () => {
  const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
  const request = (ip: string, userAgent: string, host: string) => ({
    ip,
    time: 1000,
    method: 'GET',
    target: '/x',
    status: 200,
    userAgent,
    host,
  });

  it('counts each address by its text, up to the limit per row, verified once per crawler and address', async () => {
    const asked: string[] = [];
    // A real verifier with no DNS and no ranges: every answer is `unverifiable`, each question recorded.
    const verifier = new Verifier({ dns: null, ranges: new Map(), ttl: 60_000, timeout: 1000 });
    const verify = verifier.verify.bind(verifier);
    verifier.verify = (crawler, ip) => {
      asked.push(`${crawler.name} ${ip}`);
      return verify(crawler, ip);
    };
    const version = { label: 'robots.txt', since: Number.NEGATIVE_INFINITY, robots };
    const analysis = new LogAnalysis({
      sites: new Map([
        ['a.invalid', [version]],
        ['b.invalid', [version]],
      ]),
      verifier,
      maxAddresses: 5,
    });
    const ips = ['1.2.3.4', '01.2.3.4', '1.2.3.4', '255.255.255.255', '2001:db8::1', '0.0.0.0', '9.9.9.9', '1.2.3.4'];
    for (const host of ['a.invalid', 'b.invalid'])
      for (const ip of ips) analysis.add(request(ip, 'FirstBot/1.0', host));
    analysis.add(request('255.255.255.255', 'SecondBot/1.0', 'a.invalid'));
    // Asked as the requests came (rows() then awaits an answer not in yet, asking the verifier's cache again).
    const askedByAdd = asked.slice().sort();
    const rows = await analysis.rows();
    expect(rows.map((r) => [r.host, r.name, r.requests, r.addresses, r.verification.requests])).toEqual([
      ['a.invalid', 'FirstBot', 8, 5, { verified: 0, spoofed: 0, unverifiable: 7, unchecked: 1 }],
      ['a.invalid', 'SecondBot', 1, 1, { verified: 0, spoofed: 0, unverifiable: 1, unchecked: 0 }],
      ['b.invalid', 'FirstBot', 8, 5, { verified: 0, spoofed: 0, unverifiable: 7, unchecked: 1 }],
    ]);
    // The reason is of the first address the row saw.
    expect(rows[0]!.verification.reason).toBe('1.2.3.4: not a crawler of the catalogue');
    expect(askedByAdd).toEqual(
      [
        'FirstBot 0.0.0.0',
        'FirstBot 01.2.3.4',
        'FirstBot 1.2.3.4',
        'FirstBot 2001:db8::1',
        'FirstBot 255.255.255.255',
        'SecondBot 255.255.255.255',
      ].sort(),
    );
  });
});

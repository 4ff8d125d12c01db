/**
 * The analysis' sets of ids (`IdCounts`: ids in typed arrays, found by an open-addressing index, as IPv4 addresses are
 * found by their number): members in the order first added, each counted, through growth; and through `LogAnalysis`
 * (a row's addresses counted through `AddressTally`'s slots, one per crawler and address, marking the sites that saw
 * it), an address counted by its text exactly as written (`01.2.3.4` is not `1.2.3.4`; `255.255.255.255` and IPv6 by
 * text), the limit per row kept, each address verified once per crawler and its answer counted in every row it is in;
 * the rows held to a plain model with one bit per site and with a set of (slot, site) pairs (past 256 sites), and the
 * reason of a row naming its first address even when that address' answer came last.
 */

import { identifyCrawler, parseRobotsTxt } from 'robotskit';
import { LogAnalysis, parseRanges, rangesFor, Verifier } from 'robotskit/logs';
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
    // An answer that needs no DNS question (as here: no DNS, no ranges) is asked for at once.
    const verifyNow = verifier.verifyNow.bind(verifier);
    verifier.verifyNow = (crawler, ip) => {
      asked.push(`${crawler.name} ${ip}`);
      return verifyNow(crawler, ip);
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
    // Asked as the requests came, once per crawler and address.
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

describe("LogAnalysis' address tally", () => {
  const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
  const version = { label: 'robots.txt', since: Number.NEGATIVE_INFINITY, robots };
  /**
   * A verifier with Google's ranges as one /27 (Googlebot's addresses in it verified at once) and a DNS of the test's,
   * answered after a turn of the event loop: an IPv4 address whose last number is not a multiple of 3 has names under
   * googlebot.com and search.msn.com that resolve back (Googlebot outside the range and bingbot verified), any other
   * none (spoofed). FirstBot is no crawler of the catalogue (unverifiable at once).
   */
  const verifierOf = () => {
    const parsed = parseRanges(JSON.stringify({ prefixes: [{ ipv4Prefix: '66.249.64.0/27' }] }), 'google.json');
    const ranges = new Map(rangesFor(parsed, 'Googlebot').map(([name, file]) => [name, [file]]));
    const later = () => new Promise((resolve) => setImmediate(resolve));
    const resolvePtr = async (name: string) => {
      await later();
      const parts = name.split('.');
      if (!name.endsWith('.in-addr.arpa') || Number(parts[0]) % 3 === 0) {
        throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
      }
      const dashed = parts.slice(0, 4).reverse().join('-');
      return [`crawl-${dashed}.googlebot.com`, `msnbot-${dashed}.search.msn.com`];
    };
    const resolve4 = async (name: string) => {
      await later();
      return [name.slice(name.indexOf('-') + 1, name.indexOf('.')).replaceAll('-', '.')];
    };
    const dns = { resolvePtr, resolve4, resolve6: resolve4 };
    return new Verifier({ dns, ranges, ttl: 60_000, timeout: 1000 });
  };
  /** A deterministic generator (31-bit LCG). */
  const generator = (seed: number) => () => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed;
  };

  /**
   * Requests over `sites` hosts by three crawlers from a few hundred addresses (some shared by two crawlers, some
   * IPv6), and what a plain model of the rows says of them: per (host, crawler) its distinct addresses up to the limit in
   * the order first seen, each request counted under its address' answer (the verifier's, asked directly), or unchecked
   * past the limit.
   */
  async function world(sites: number) {
    const verifier = verifierOf();
    const hosts = Array.from({ length: sites }, (_, i) => `site${i}.invalid`);
    const agents = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
      'FirstBot/1.0',
    ];
    const next = generator(36);
    const requests = Array.from({ length: 20_000 }, () => {
      const r = next();
      const k = r % 3;
      const n = (r >> 8) % 64;
      const ip = n % 16 === 15 ? `2001:db8::${n}` : k === 2 ? `66.249.64.${n}` : `66.249.64.${n + 16 * k}`;
      return {
        ip,
        time: 1000,
        method: 'GET',
        target: '/x',
        status: 200,
        userAgent: agents[k]!,
        host: hosts[(r >> 2) % sites]!,
      };
    });
    const limit = 12;
    const model = new Map<string, { addresses: string[]; requests: Record<string, number> }>();
    const names = ['Googlebot', 'bingbot', 'FirstBot'];
    for (const request of requests) {
      const name = names[agents.indexOf(request.userAgent)]!;
      const key = `${request.host} ${name}`;
      let row = model.get(key);
      if (row === undefined) {
        row = { addresses: [], requests: { verified: 0, spoofed: 0, unverifiable: 0, unchecked: 0 } };
        model.set(key, row);
      }
      if (!row.addresses.includes(request.ip)) {
        if (row.addresses.length >= limit) {
          row.requests.unchecked!++;
          continue;
        }
        row.addresses.push(request.ip);
      }
      row.requests[(await verifier.verify(identifyCrawler(request.userAgent)!, request.ip)).status]!++;
    }
    const versions = new Map(hosts.map((h) => [h, [version]]));
    return { verifier, requests, model, versions, limit };
  }

  for (const sites of [200, 300]) {
    it(`counts each row's addresses and their answers as a plain model does (${sites} sites: ${sites > 256 ? 'a set of (address, site) pairs' : 'one bit per site'})`, async () => {
      const { requests, model, versions, limit } = await world(sites);
      // A verifier of its own: its answers arrive while the requests are counted (between blocks) and after.
      const verifier = verifierOf();
      const analysis = new LogAnalysis({ sites: versions, verifier, maxAddresses: limit });
      for (let i = 0; i < requests.length; i++) {
        analysis.add(requests[i]!);
        if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
      }
      const rows = await analysis.rows();
      // The model has every kind of answer, and rows past their limit.
      const totals = { verified: 0, spoofed: 0, unverifiable: 0, unchecked: 0 };
      for (const row of model.values())
        for (const [k, n] of Object.entries(row.requests)) totals[k as keyof typeof totals] += n;
      expect(Math.min(...Object.values(totals))).toBeGreaterThan(100);
      expect(rows.length).toBe(model.size);
      for (const row of rows) {
        const expected = model.get(`${row.host} ${row.name}`)!;
        expect([row.host, row.name, row.addresses, row.verification.requests]).toEqual([
          row.host,
          row.name,
          expected.addresses.length,
          expected.requests,
        ]);
      }
    });
  }

  it("names the row's first address of an answer even when a later address' answer came first", async () => {
    // Googlebot verified by reverse DNS (a DNS of the test's: names under googlebot.com resolving back), the question
    // about 192.0.2.1 held until released.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const ptr = async (name: string) => {
      if (name === '1.2.0.192.in-addr.arpa') await held;
      return [`crawl-${name.split('.').slice(0, 4).reverse().join('-')}.googlebot.com`];
    };
    const forward = async (name: string) => [name.slice(6, name.indexOf('.')).replaceAll('-', '.')];
    const verifier = new Verifier({
      dns: { resolvePtr: ptr, resolve4: forward, resolve6: forward },
      ranges: new Map(),
      ttl: 60_000,
      timeout: 1000,
    });
    const analysis = new LogAnalysis({
      sites: new Map([
        ['a.invalid', [version]],
        ['b.invalid', [version]],
      ]),
      verifier,
      maxAddresses: 10,
    });
    const at = (ip: string, host: string) => ({
      ip,
      time: 1000,
      method: 'GET',
      target: '/x',
      status: 200,
      userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      host,
    });
    // 192.0.2.2's answer is in once a.invalid saw it; b.invalid then sees 192.0.2.1 (answer held) before it.
    analysis.add(at('192.0.2.2', 'a.invalid'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(verifier.settled(identifyCrawler(at('', '').userAgent)!, '192.0.2.2')?.status).toBe('verified');
    analysis.add(at('192.0.2.1', 'b.invalid'));
    analysis.add(at('192.0.2.2', 'b.invalid'));
    analysis.add(at('192.0.2.1', 'b.invalid'));
    setTimeout(release, 20);
    const rows = await analysis.rows();
    const b = rows.find((r) => r.host === 'b.invalid')!;
    expect(b.verification.requests).toEqual({ verified: 3, spoofed: 0, unverifiable: 0, unchecked: 0 });
    expect(b.verification.reason).toBe('192.0.2.1: crawl-192-0-2-1.googlebot.com (resolves back)');
    // Asked again, the rows say the same (the requests counted while an answer was to come are counted once).
    expect((await analysis.rows()).find((r) => r.host === 'b.invalid')!.verification.requests.verified).toBe(3);
  });
});

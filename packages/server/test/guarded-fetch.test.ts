/**
 * SSRF protection. Every address below is refused. The end-to-end rows go through the real fetch and connector but
 * only with addresses on this machine (loopback and the unspecified address, which also means this machine), so a
 * broken guard could never send a packet elsewhere; rows for other ranges check the same policy and the same guarded
 * name resolution the connector uses, without connecting.
 */

import { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../src/net/address-policy.js';
import { AddressRefusedError, peerRefusal } from '../src/net/address-refused-error.js';
import { createGuardedFetch, guardedLookup } from '../src/net/guarded-fetch.js';

/** Every address tried, with the range it must be refused as. */
const REFUSED: [address: string, range: string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.254', 'carrierGradeNat'],
  ['169.254.169.254', 'linkLocal'],
  ['169.254.0.1', 'linkLocal'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456:789a::1', 'uniqueLocal'],
  ['fe80::1', 'linkLocal'],
  ['febf::1', 'linkLocal'],
  ['ff02::1', 'multicast'],
  ['ff05::1:3', 'multicast'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:169.254.169.254', 'linkLocal'],
  ['::ffff:192.168.1.1', 'private'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['64:ff9b::a00:1', 'rfc6052'],
  ['2002:a00:1::1', '6to4'],
  ['2001::1', 'teredo'],
  ['2001:db8::1', 'reserved'],
  ['100::1', 'discard'],
  ['64:ff9b:1::a00:1', 'rfc6052'],
  ['fec0::1', 'deprecatedSiteLocal'],
  ['::7f00:1', 'ipv4Compatible'],
  ['::a9fe:a9fe', 'ipv4Compatible'],
  ['::a00:1', 'ipv4Compatible'],
  ['1::1', 'unassigned'],
  ['4000::1', 'unassigned'],
  ['fb00::1', 'unassigned'],
];

const ALLOWED = ['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888'];

describe('address policy', () => {
  const policy = new AddressPolicy();
  it.each(REFUSED)('refuses %s (%s)', (address, range) => {
    expect(policy.check(address)?.range).toBe(range);
  });
  it.each(ALLOWED)('allows the global unicast address %s', (address) => {
    expect(policy.check(address)).toBeNull();
  });
  it('lets allowPrivate through loopback, RFC 1918, CGNAT and ULA, never link-local or the metadata address', () => {
    const lenient = new AddressPolicy({ allowPrivate: true });
    for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '100.64.1.1', 'fd00::1', '::1']) {
      expect(lenient.check(address), address).toBeNull();
    }
    for (const address of [
      '169.254.169.254',
      'fe80::1',
      '::ffff:169.254.169.254',
      '224.0.0.1',
      '0.0.0.0',
      '::7f00:1',
    ]) {
      expect(lenient.check(address), address).not.toBeNull();
    }
  });
  it('refuses cloud metadata addresses outside link-local even with allowPrivate, unless listed exactly', () => {
    const lenient = new AddressPolicy({ allowPrivate: true, allowAddresses: ['100.64.0.0/10', 'fd00::/8'] });
    for (const address of ['fd00:ec2::254', 'fd00:ec2::253', '100.100.100.200', '::ffff:100.100.100.200']) {
      expect(lenient.check(address)?.range, address).toBe('metadata');
      expect(policy.check(address), address).not.toBeNull();
    }
    expect(lenient.check('fd00:ec2::254')?.description).toContain('AWS instance metadata');
    expect(lenient.check('100.100.100.201')).toBeNull();
    expect(new AddressPolicy({ allowAddresses: ['100.100.100.200'] }).check('100.100.100.200')).toBeNull();
  });
  it('refuses a connection whose peer address is unknown', () => {
    const lenient = new AddressPolicy({ allowPrivate: true });
    expect(peerRefusal(lenient, 'site.test', { remoteAddress: undefined })?.code).toBe('address-refused');
    expect(peerRefusal(lenient, 'site.test', {})?.message).toContain('peer address is unknown');
    expect(peerRefusal(lenient, 'site.test', { remoteAddress: '127.0.0.1' })).toBeNull();
    expect(peerRefusal(new AddressPolicy(), 'site.test', { remoteAddress: '127.0.0.1' })?.range).toBe('loopback');
  });
  it('allows listed addresses and ranges only', () => {
    const listed = new AddressPolicy({ allowAddresses: ['127.0.0.1', '10.9.0.0/16'] });
    expect(listed.check('127.0.0.1')).toBeNull();
    expect(listed.check('::ffff:127.0.0.1')).toBeNull();
    expect(listed.check('10.9.200.1')).toBeNull();
    expect(listed.check('127.0.0.2')?.range).toBe('loopback');
    expect(listed.check('10.10.0.1')?.range).toBe('private');
  });
  it('refuses what is not an IP address', () => {
    expect(policy.check('example.com')?.range).toBe('invalid');
  });
});

/** A lookup that answers from a table, recording each question, as a DNS server under an attacker's control would. */
function fakeLookup(answers: Record<string, string[] | (() => string[])>, asked: string[] = []): LookupFunction {
  return ((hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    const answer = answers[hostname];
    if (answer === undefined) {
      const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
      error.code = 'ENOTFOUND';
      return process.nextTick(() => callback(error));
    }
    const list = (typeof answer === 'function' ? answer() : answer).map((address) => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
    process.nextTick(() => callback(null, list));
  }) as LookupFunction;
}

function resolveThrough(lookup: LookupFunction, hostname: string, all: boolean): Promise<unknown> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all }, (error, address) => (error ? reject(error) : resolve(address)));
  });
}

describe('guarded name resolution', () => {
  const names = Object.fromEntries(REFUSED.map(([address], i) => [`host${i}.attacker.test`, [address]]));
  const lookup = guardedLookup(new AddressPolicy(), fakeLookup({ ...names, 'mixed.test': ['8.8.8.8', '10.0.0.1'] }));
  it.each(REFUSED.map(([address, range], i) => [`host${i}.attacker.test`, address, range]))(
    'refuses %s resolving to %s (%s)',
    async (hostname, address, range) => {
      const error = await resolveThrough(lookup, hostname, true).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AddressRefusedError);
      expect(error).toMatchObject({ host: hostname, address, range, code: 'address-refused' });
    },
  );
  it('refuses a name when any of its addresses is refused', async () => {
    await expect(resolveThrough(lookup, 'mixed.test', true)).rejects.toMatchObject({ address: '10.0.0.1' });
  });
  it('passes a public answer through in both lookup shapes', async () => {
    const open = guardedLookup(new AddressPolicy(), fakeLookup({ 'public.test': ['8.8.8.8', '2001:4860:4860::8888'] }));
    expect(await resolveThrough(open, 'public.test', true)).toEqual([
      { address: '8.8.8.8', family: 4 },
      { address: '2001:4860:4860::8888', family: 6 },
    ]);
    expect(await resolveThrough(open, 'public.test', false)).toBe('8.8.8.8');
  });
});

describe('guarded fetch, end to end on this machine', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits++;
      if (req.url?.startsWith('/redirect')) {
        const to = new URL(req.url, 'http://x').searchParams.get('to') ?? '/';
        res.writeHead(301, { location: to, connection: 'close' });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'text/plain', connection: 'close' });
      res.end('User-agent: *\nDisallow: /private\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** URLs that all point at this machine, with the address the guard must name. */
  const localTargets = (): [url: string, address: string, range: string][] => [
    [`http://127.0.0.1:${port}/robots.txt`, '127.0.0.1', 'loopback'],
    [`http://127.1.2.3:${port}/robots.txt`, '127.1.2.3', 'loopback'],
    [`http://127.1:${port}/robots.txt`, '127.0.0.1', 'loopback'],
    [`http://2130706433:${port}/robots.txt`, '127.0.0.1', 'loopback'],
    [`http://0x7f000001:${port}/robots.txt`, '127.0.0.1', 'loopback'],
    [`http://0177.0.0.1:${port}/robots.txt`, '127.0.0.1', 'loopback'],
    [`http://[::1]:${port}/robots.txt`, '::1', 'loopback'],
    [`http://[::ffff:127.0.0.1]:${port}/robots.txt`, '::ffff:7f00:1', 'loopback'],
    [`http://[::127.0.0.1]:${port}/robots.txt`, '::7f00:1', 'ipv4Compatible'],
    [`http://0.0.0.0:${port}/robots.txt`, '0.0.0.0', 'unspecified'],
    [`http://0:${port}/robots.txt`, '0.0.0.0', 'unspecified'],
    [`http://[::]:${port}/robots.txt`, '::', 'unspecified'],
    [`https://127.0.0.1:${port}/robots.txt`, '127.0.0.1', 'loopback'],
  ];

  it('refuses every literal form of this machine, before connecting', async () => {
    const guarded = createGuardedFetch();
    const before = hits;
    try {
      for (const [url, address, range] of localTargets()) {
        const error = await guarded(url).catch((e: unknown) => e);
        expect(error, url).toBeInstanceOf(AddressRefusedError);
        expect(error, url).toBeInstanceOf(TypeError);
        expect(error, url).toMatchObject({ address, range });
      }
    } finally {
      await guarded.close();
    }
    expect(hits).toBe(before);
  });

  it('refuses localhost as the system resolves it', async () => {
    const guarded = createGuardedFetch();
    try {
      const error = await guarded(`http://localhost:${port}/robots.txt`).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AddressRefusedError);
      expect((error as AddressRefusedError).range).toBe('loopback');
      expect((error as AddressRefusedError).message).toMatch(/^refused to connect to localhost: it resolves to/);
    } finally {
      await guarded.close();
    }
  });

  it('refuses a name an injected resolver points at this machine', async () => {
    const guarded = createGuardedFetch({
      lookup: fakeLookup({ 'internal.attacker.test': ['127.0.0.1'], 'v6.attacker.test': ['::1'] }),
    });
    try {
      for (const name of ['internal.attacker.test', 'v6.attacker.test']) {
        await expect(guarded(`http://${name}:${port}/robots.txt`)).rejects.toMatchObject({
          host: name,
          range: 'loopback',
        });
      }
    } finally {
      await guarded.close();
    }
  });

  it('fetches local servers when allowPrivate is set, through names and literals', async () => {
    const guarded = createGuardedFetch({ allowPrivate: true, lookup: fakeLookup({ 'site.test': ['127.0.0.1'] }) });
    try {
      for (const url of [`http://127.0.0.1:${port}/robots.txt`, `http://site.test:${port}/robots.txt`]) {
        const response = await guarded(url);
        expect(response.status, url).toBe(200);
        expect(await response.text()).toBe('User-agent: *\nDisallow: /private\n');
      }
    } finally {
      await guarded.close();
    }
  });

  it('says ahead whether a URL would be refused (names resolved, unknown names not refused)', async () => {
    const guarded = createGuardedFetch({
      allowPrivate: true,
      lookup: fakeLookup({ 'site.test': ['127.0.0.1'], 'meta.attacker.test': ['10.0.0.1', 'fd00:ec2::254'] }),
    });
    try {
      expect(await guarded.refusalOf!(`http://site.test:${port}/`)).toBeNull();
      expect((await guarded.refusalOf!('http://meta.attacker.test/'))?.address).toBe('fd00:ec2::254');
      expect((await guarded.refusalOf!('http://[fd00:ec2::254]/'))?.range).toBe('metadata');
      expect((await guarded.refusalOf!('http://169.254.169.254/'))?.range).toBe('linkLocal');
      expect(await guarded.refusalOf!('http://nowhere.invalid/')).toBeNull();
    } finally {
      await guarded.close();
    }
  });

  it('checks every connection: a name that rebinds to a refused address is refused on the next connect', async () => {
    let answers = 0;
    const asked: string[] = [];
    const guarded = createGuardedFetch({
      allowAddresses: ['127.0.0.1'],
      lookup: fakeLookup({ 'rebind.attacker.test': () => (answers++ === 0 ? ['127.0.0.1'] : ['127.0.0.2']) }, asked),
    });
    try {
      const first = await guarded(`http://rebind.attacker.test:${port}/robots.txt`);
      expect(first.status).toBe(200);
      await first.text();
      const before = hits;
      await expect(guarded(`http://rebind.attacker.test:${port}/robots.txt`)).rejects.toMatchObject({
        address: '127.0.0.2',
        range: 'loopback',
      });
      expect(hits).toBe(before);
      expect(asked).toEqual(['rebind.attacker.test', 'rebind.attacker.test']);
    } finally {
      await guarded.close();
    }
  });

  it('checks every redirect hop, whether fetch follows redirects or the caller does', async () => {
    const guarded = createGuardedFetch({ allowAddresses: ['127.0.0.1'] });
    const target = `http://127.0.0.2:${port}/robots.txt`;
    const start = `http://127.0.0.1:${port}/redirect?to=${encodeURIComponent(target)}`;
    try {
      await expect(guarded(start)).rejects.toMatchObject({ address: '127.0.0.2', range: 'loopback' });
      const hop = await guarded(start, { redirect: 'manual' });
      expect(hop.status).toBe(301);
      const next = hop.headers.get('location')!;
      await expect(guarded(next, { redirect: 'manual' })).rejects.toBeInstanceOf(AddressRefusedError);
      // An allowed hop is followed normally.
      const ok = await guarded(`http://127.0.0.1:${port}/redirect?to=/robots.txt`);
      expect(ok.status).toBe(200);
      expect(ok.redirected).toBe(true);
      await ok.text();
    } finally {
      await guarded.close();
    }
  });

  it('reports ordinary network failures as fetch does', async () => {
    const guarded = createGuardedFetch({ lookup: fakeLookup({}) });
    try {
      const error = await guarded('http://nowhere.test/robots.txt').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).not.toBeInstanceOf(AddressRefusedError);
    } finally {
      await guarded.close();
    }
  });
});

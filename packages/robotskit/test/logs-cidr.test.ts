/**
 * `robotskit/logs`' own address reading and subnet matching (the engine has no `node:net`) answer as node:net's
 * `isIP` and `BlockList` do, on a table of addresses and on pseudo-random ones around the subnets.
 */

import { BlockList, isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseIp, SubnetList } from '../src/logs/cidr.js';

const ADDRESSES = [
  '66.249.66.1',
  '0.0.0.0',
  '255.255.255.255',
  '256.1.1.1',
  '01.2.3.4',
  '1.2.3',
  '1.2.3.4.5',
  '1.2.3.',
  ' 1.2.3.4',
  '::',
  '::1',
  '1::',
  '2001:db8::b1',
  '2001:DB8:0:0:0:0:0:1',
  '2001:db8:0:0:0:0:0:0:1',
  '2001:db8::1::2',
  '::ffff:192.0.2.1',
  '64:ff9b::192.0.2.33',
  '::ffff:300.0.2.1',
  'fe80::1%eth0',
  '12345::',
  ':1:2:3:4:5:6:7',
  '1:2:3:4:5:6:7:',
  'g::1',
  '',
  '-',
  'localhost',
];

describe('parseIp', () => {
  it.each(ADDRESSES)('%j is an address exactly when isIP says so, of its family', (text) => {
    const family = isIP(text);
    expect(parseIp(text)?.family ?? null).toBe(family === 0 ? null : family === 4 ? 'ipv4' : 'ipv6');
  });
});

describe('SubnetList', () => {
  const subnets: [string, number, 'ipv4' | 'ipv6'][] = [
    ['66.249.64.0', 27, 'ipv4'],
    ['192.0.2.0', 24, 'ipv4'],
    ['10.0.0.0', 8, 'ipv4'],
    ['203.0.113.7', 32, 'ipv4'],
    ['2001:db8:1::', 48, 'ipv6'],
    ['2001:4860:4801:10::', 64, 'ipv6'],
    ['fe80::', 10, 'ipv6'],
  ];
  const ours = new SubnetList();
  const theirs = new BlockList();
  for (const [address, bits, family] of subnets) {
    expect(ours.addSubnet(address, bits, family)).toBe(true);
    theirs.addSubnet(address, bits, family);
  }

  it('holds the addresses BlockList holds, near each subnet and far from it', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const probes: [string, 'ipv4' | 'ipv6'][] = [];
    for (let i = 0; i < 3000; i++) {
      const [base] = subnets[next(subnets.length)]!;
      if (base.includes(':')) {
        const groups = base.replace(/::$/, '').split(':');
        while (groups.length < 8) groups.push('0');
        const at = next(2) === 0 ? 7 : next(8);
        groups[at] = next(65536).toString(16);
        probes.push([groups.join(':'), 'ipv6']);
      } else {
        const parts = base.split('.').map(Number);
        parts[next(2) === 0 ? 3 : next(4)] = next(256);
        probes.push([parts.join('.'), 'ipv4']);
      }
    }
    probes.push(['66.249.64.31', 'ipv4'], ['66.249.64.32', 'ipv4'], ['1.2.3.4', 'ipv6'], ['::1', 'ipv4']);
    const disagree = probes.filter(([a, f]) => ours.check(a, f) !== theirs.check(a, f));
    expect(disagree).toEqual([]);
    const inside = probes.filter(([a, f]) => ours.check(a, f)).length;
    expect(inside).toBeGreaterThan(300);
    expect(probes.length - inside).toBeGreaterThan(300);
  });

  it('refuses a subnet that is not one', () => {
    const list = new SubnetList();
    expect(list.addSubnet('300.1.1.1', 8, 'ipv4')).toBe(false);
    expect(list.addSubnet('10.0.0.0', 33, 'ipv4')).toBe(false);
    expect(list.addSubnet('2001:db8::', 24, 'ipv4')).toBe(false);
    expect(list.addSubnet('2001:db8::', 129, 'ipv6')).toBe(false);
  });
});

/**
 * IP addresses and CIDR subnets without `node:net` (the engine runs in browsers too): an address read as node:net's
 * `isIP` reads it (IPv4 dotted decimal without leading zeros; IPv6 with `::`, an embedded IPv4 tail and an optional
 * `%zone`, which matching ignores), a subnet list that says whether it holds an address (as `BlockList.check` does).
 */

export type IpFamily = 'ipv4' | 'ipv6';

/** An address as numbers: IPv4 as one 32-bit word, IPv6 as eight 16-bit groups. */
export interface IpAddress {
  readonly family: IpFamily;
  readonly words: readonly number[];
}

const IPV4_PART = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;

function ipv4Words(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return null;
    n = n * 256 + Number(part);
  }
  return n;
}

const GROUP = /^[0-9a-fA-F]{1,4}$/;

function groupsOf(part: string, tailAllowed: boolean): number[] | null {
  if (part === '') return [];
  const pieces = part.split(':');
  const groups: number[] = [];
  for (const [i, piece] of pieces.entries()) {
    if (tailAllowed && i === pieces.length - 1 && piece.includes('.')) {
      const v4 = ipv4Words(piece);
      if (v4 === null) return null;
      groups.push(Math.floor(v4 / 65536), v4 % 65536);
    } else if (GROUP.test(piece)) groups.push(Number.parseInt(piece, 16));
    else return null;
  }
  return groups;
}

function ipv6Groups(text: string): number[] | null {
  const zone = text.indexOf('%');
  if (zone >= 0 && !/^%[0-9a-zA-Z\-.:]+$/.test(text.slice(zone))) return null;
  const bare = zone >= 0 ? text.slice(0, zone) : text;
  const halves = bare.split('::');
  if (halves.length > 2) return null;
  if (halves.length === 1) {
    const all = groupsOf(bare, true);
    return all !== null && all.length === 8 ? all : null;
  }
  const head = groupsOf(halves[0]!, false);
  const tail = groupsOf(halves[1]!, true);
  if (head === null || tail === null || head.length + tail.length > 7) return null;
  return [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** The address `text` names, null when it is none (`isIP(text) === 0`). */
export function parseIp(text: string): IpAddress | null {
  if (text.includes(':')) {
    const groups = ipv6Groups(text);
    return groups === null ? null : { family: 'ipv6', words: groups };
  }
  const v4 = ipv4Words(text);
  return v4 === null ? null : { family: 'ipv4', words: [v4] };
}

/** Whether the first `bits` bits of two addresses of one family are the same. */
function samePrefix(a: IpAddress, b: IpAddress, bits: number): boolean {
  const width = a.family === 'ipv4' ? 32 : 16;
  let left = bits;
  for (let i = 0; i < a.words.length && left > 0; i++) {
    const take = Math.min(width, left);
    const shift = 2 ** (width - take);
    if (Math.floor(a.words[i]! / shift) !== Math.floor(b.words[i]! / shift)) return false;
    left -= take;
  }
  return true;
}

/** Subnets of both families; `check` says whether one holds an address. */
export class SubnetList {
  private readonly subnets: { network: IpAddress; bits: number }[] = [];

  /** Adds `address/bits`; false (nothing added) when the address is not of `family` or the bits are out of range. */
  addSubnet(address: string, bits: number, family: IpFamily): boolean {
    const network = parseIp(address);
    const max = family === 'ipv4' ? 32 : 128;
    if (network === null || network.family !== family || !Number.isInteger(bits) || bits < 0 || bits > max) {
      return false;
    }
    this.subnets.push({ network, bits });
    return true;
  }

  /** Whether a subnet of the list holds `address` (of `family`; an address of another family is in none). */
  check(address: string, family: IpFamily): boolean {
    const ip = parseIp(address);
    if (ip === null || ip.family !== family) return false;
    return this.subnets.some((s) => s.network.family === family && samePrefix(s.network, ip, s.bits));
  }
}

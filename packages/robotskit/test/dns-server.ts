/**
 * A DNS server on 127.0.0.1 for the tests of bot verification: UDP, one question per message, answering PTR, A and
 * AAAA from a table (NXDOMAIN for names not in it, no answer at all for names listed as silent, to make the client
 * time out). Written here rather than taken from a library (dns2): what the tests need is the wire format of three
 * record types, about a hundred lines, and the repository gains no dependency for it.
 */

import { createSocket, type Socket } from 'node:dgram';

/** The records of one name. */
export interface DnsRecords {
  readonly PTR?: readonly string[];
  readonly A?: readonly string[];
  readonly AAAA?: readonly string[];
}

export interface TestDnsServer {
  /** `127.0.0.1:port`, for `--dns-server`. */
  readonly address: string;
  /** Questions received, as `TYPE name`. */
  readonly questions: string[];
  close(): Promise<void>;
}

const TYPES: Record<number, keyof DnsRecords> = { 12: 'PTR', 1: 'A', 28: 'AAAA' };
const CODES: Record<keyof DnsRecords, number> = { PTR: 12, A: 1, AAAA: 28 };

/** The name `in-addr.arpa` / `ip6.arpa` a reverse query asks for an address. */
export function reverseName(ip: string): string {
  if (ip.includes(':')) {
    const halves = ip.split('::');
    const groups = (s: string | undefined) => (s === undefined || s === '' ? [] : s.split(':'));
    const head = groups(halves[0]);
    const tail = groups(halves[1]);
    const full = [...head, ...Array(8 - head.length - tail.length).fill('0'), ...tail];
    const nibbles = full.map((g) => g.padStart(4, '0')).join('');
    return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
  }
  return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
}

function readName(message: Buffer, offset: number): { name: string; end: number } {
  const labels: string[] = [];
  let at = offset;
  while (message[at]! !== 0) {
    const length = message[at]!;
    labels.push(message.subarray(at + 1, at + 1 + length).toString('latin1'));
    at += 1 + length;
  }
  return { name: labels.join('.'), end: at + 1 };
}

function encodeName(name: string): Buffer {
  const parts = name.replace(/\.$/, '').split('.');
  return Buffer.concat([
    ...parts.map((p) => Buffer.concat([Buffer.from([p.length]), Buffer.from(p, 'latin1')])),
    Buffer.from([0]),
  ]);
}

function rdata(type: keyof DnsRecords, value: string): Buffer {
  if (type === 'PTR') return encodeName(value);
  if (type === 'A') return Buffer.from(value.split('.').map(Number));
  const halves = value.split('::');
  const groups = (s: string | undefined) => (s === undefined || s === '' ? [] : s.split(':'));
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const full = [...head, ...Array(8 - head.length - tail.length).fill('0'), ...tail];
  const bytes = Buffer.alloc(16);
  for (const [i, g] of full.entries()) bytes.writeUInt16BE(Number.parseInt(g, 16), i * 2);
  return bytes;
}

function answer(query: Buffer, records: ReadonlyMap<string, DnsRecords>): Buffer {
  const { name, end } = readName(query, 12);
  const qtype = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const type = TYPES[qtype];
  const known = records.get(name.toLowerCase());
  const values = type === undefined ? [] : (known?.[type] ?? []);
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2);
  // QR, RD, RA; NXDOMAIN (3) when the name is unknown, else NOERROR (possibly with no data).
  header.writeUInt16BE(0x8180 | (known === undefined ? 3 : 0), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(values.length, 6);
  const answers = values.map((value) => {
    const data = rdata(type!, value);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0);
    rr.writeUInt16BE(CODES[type!], 2);
    rr.writeUInt16BE(1, 4);
    rr.writeUInt32BE(300, 6);
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([header, question, ...answers]);
}

/**
 * Starts the server. `records` by name (reverse names from {@link reverseName}); `silent`: names whose questions get
 * no answer.
 */
export async function startDnsServer(
  records: ReadonlyMap<string, DnsRecords>,
  silent: ReadonlySet<string> = new Set(),
): Promise<TestDnsServer> {
  const socket: Socket = createSocket('udp4');
  const questions: string[] = [];
  const lower = new Map([...records].map(([k, v]) => [k.toLowerCase(), v]));
  socket.on('message', (message, from) => {
    try {
      const { name, end } = readName(message, 12);
      questions.push(`${TYPES[message.readUInt16BE(end)] ?? message.readUInt16BE(end)} ${name}`);
      if (silent.has(name.toLowerCase())) return;
      socket.send(answer(message, lower), from.port, from.address);
    } catch {
      // A message the tests did not send: ignored.
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/**
 * Combined Log Format lines read by `robotskit/logs` as one regular expression over the whole line reads them. The
 * reader takes shortcuts for the common shapes (`- - [`, a time that differs from the line before's only in its
 * seconds, `"GET `, a three-digit status, a byte count, `"-"`): lines built from fields that do and do not have those
 * shapes, in a pseudo-random order (so each time follows every other), read alone and in blocks, must read the same;
 * and so must they with a virtual host field before them or after them (a log of several sites).
 */

import {
  clfTime,
  DEFAULT_JSON_FIELDS,
  type HostField,
  type LogRequest,
  parseClf,
  parseLogLineAt,
} from 'robotskit/logs';
import { describe, expect, it } from 'vitest';

const TIMES = [
  '01/Nov/2026:00:00:00 +0000',
  '01/Nov/2026:00:00:01 +0000',
  '01/Nov/2026:00:00:59 +0000',
  '01/Nov/2026:00:00:60 +0000',
  '01/Nov/2026:00:00:99 +0000',
  '01/Nov/2026:00:01:05 +0000',
  '01/Nov/2026:00:00:05 +0200',
  '01/Nov/2026:00:00:05.250 +0000',
  '1/Nov/2026:00:00:05 +0000',
  '01/Nov/2026:00:00:5x +0000',
  '01/Nov/2026:00:00:0] +0000',
  '31/Dec/2026:23:59:58 -0130',
  '31/Dec/2026:23:59:08 -0130',
];
const IDENTITIES = ['- -', 'frank -', '- frank', '-- -', '- - '];
const METHODS = ['GET', 'HEAD', 'POST', 'GETS', 'get', 'G'];
const TARGETS = ['/a', '/private/b?c=d', 'http://site.invalid/x', '/"q'];
const VERSIONS = [' HTTP/1.1', ' HTTP/1.0', ''];
const STATUSES = ['200', '404', '-', '2000', '20', '2x0'];
const SIZES = ['12', '-', '0', '123456', ''];
const REFERERS = ['-', 'http://ref.invalid/', '', '-x', 'a', '"'];
const HOSTS = ['a.invalid', 'B.invalid:8080', 'c.invalid:443', '-'];
const AGENTS = ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'B/2', '-', ''];

/** The same pseudo-random numbers on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state >>> 8;
  };
}

/** What one regular expression over the whole line reads (the fields above hold no escaped quote). */
function reference(line: string, host: string | null = null): LogRequest | string {
  const head = /^(\S+) [^[]*\[([^\]]*)\]/.exec(line);
  if (head === null) return 'unexpected line';
  const time = clfTime(head[2]!);
  if (Number.isNaN(time)) return `unreadable time '${head[2]}'`;
  const m = /^ "([^"]*)" (\S*) (\S*) "([^"]*)" "([^"]*)"$/.exec(line.slice(head[0].length));
  if (m === null) return 'unexpected line';
  const [, request, statusText, , , agent] = m as unknown as string[];
  const r = /^([^ ]+) ([^ ]*)/.exec(request!);
  if (r === null || r[2] === '' || !/^[A-Z]+$/.test(r[1]!)) return 'no request line';
  const status = Number(statusText);
  return {
    ip: head[1]!,
    time,
    method: r[1]!,
    target: r[2]!,
    status: Number.isInteger(status) ? status : 0,
    userAgent: agent === '-' ? '' : agent!,
    host,
  };
}

function lines(count: number): string[] {
  const next = random(36);
  const pick = <T>(list: readonly T[]): T => list[next() % list.length]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    // Mostly the common shapes, as in a real log, so that the shortcuts are taken from many different lines before.
    const common = next() % 2 === 0;
    const ident = common ? '- -' : pick(IDENTITIES);
    const method = common ? 'GET' : pick(METHODS);
    const status = common ? '200' : pick(STATUSES);
    const size = common ? '512' : pick(SIZES);
    const referer = common ? '-' : pick(REFERERS);
    const request = `${method} ${pick(TARGETS)}${pick(VERSIONS)}`;
    const line = `192.0.2.${i % 256} ${ident} [${pick(TIMES)}] "${request}" ${status} ${size} "${referer}" "${pick(AGENTS)}"`;
    // A referer of one quote makes a line of another shape: the reference does not read it.
    if (referer !== '"' && !request.includes('"')) out.push(line);
  }
  return out;
}

describe('Combined Log Format lines', () => {
  const all = lines(6000);

  it('read alone, one after another, as the regular expression reads them', () => {
    let shortcutShapes = 0;
    for (const line of all) {
      expect(parseClf(line, true), line).toEqual(reference(line));
      if (line.includes(' - - [') && line.includes('"GET ')) shortcutShapes++;
    }
    expect(shortcutShapes).toBeGreaterThan(all.length / 2);
  });

  it('read in blocks, by positions, as the regular expression reads them', () => {
    for (let from = 0; from < all.length; from += 500) {
      const part = all.slice(from, from + 500);
      const block = part.join('\n');
      let start = 0;
      for (const line of part) {
        const end = start + line.length;
        expect(parseLogLineAt(block, start, end, 'combined', DEFAULT_JSON_FIELDS), line).toEqual(reference(line));
        start = end + 1;
      }
    }
  });

  it('read in blocks with a virtual host field first or last, as the regular expression reads the rest', () => {
    const next = random(7);
    const shapes: { field: HostField; line: (line: string, host: string) => string }[] = [
      { field: 'first', line: (line, host) => `${host} ${line}` },
      { field: 'last', line: (line, host) => `${line} "${host}"` },
      { field: 'last', line: (line, host) => `${line} ${host}` },
    ];
    for (const shape of shapes) {
      for (let from = 0; from < all.length; from += 1000) {
        const part = all.slice(from, from + 1000).map((line) => ({ line, host: HOSTS[next() % HOSTS.length]! }));
        const block = part.map(({ line, host }) => shape.line(line, host)).join('\n');
        let start = 0;
        for (const { line, host } of part) {
          const end = start + shape.line(line, host).length;
          const read = parseLogLineAt(block, start, end, 'combined', DEFAULT_JSON_FIELDS, shape.field);
          expect(read, shape.line(line, host)).toEqual(reference(line, host));
          start = end + 1;
        }
      }
    }
  });

  it('take a time that differs from the one before only in its seconds as Date.UTC counts them', () => {
    const at = (time: string) => parseClf(`192.0.2.1 - - [${time}] "GET / HTTP/1.1" 200 1 "-" "B/2"`, true);
    expect(at('01/Nov/2026:00:00:58 +0000')).toMatchObject({ time: Date.parse('2026-11-01T00:00:58Z') });
    expect(at('01/Nov/2026:00:00:59 +0000')).toMatchObject({ time: Date.parse('2026-11-01T00:00:59Z') });
    expect(at('01/Nov/2026:00:00:07 +0000')).toMatchObject({ time: Date.parse('2026-11-01T00:00:07Z') });
    expect(at('01/Nov/2026:00:00:99 +0000')).toMatchObject({ time: Date.parse('2026-11-01T00:01:39Z') });
    expect(at('01/Nov/2026:00:00:9x +0000')).toBe("unreadable time '01/Nov/2026:00:00:9x +0000'");
    expect(at('01/Nov/2026:00:00:19 -0100')).toMatchObject({ time: Date.parse('2026-11-01T01:00:19Z') });
    expect(at('01/Nov/2026:00:00:20 -0100')).toMatchObject({ time: Date.parse('2026-11-01T01:00:20Z') });
  });
});

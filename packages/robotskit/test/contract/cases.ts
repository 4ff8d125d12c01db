/**
 * The cross-surface contract (issue 11): one table of robots.txt bytes × URLs × agents, each case tagged with what it
 * proves. Every surface (the engine on bytes and on text, `robotskit test`, `check` and `explain`, `POST /api/test`
 * inline, live and stored, the browser tester live and stored) must give the answer the engine gives on the bytes:
 * the verdict and the deciding line. The expected answers are computed by {@link expectedAnswer}, never written by
 * hand; the few hand-written `reference` facts are what Google's reference parser documents, and the engine runner
 * checks the computed answers against them.
 *
 * Agents are what a person types. Surfaces that take a person's crawler (`check --ua`, `explain --ua`, the service's
 * `userAgents`, the web tester) read it with the engine's `resolveCrawler`; `robotskit test`, like Google's
 * conformance runner, gives the name to the engine as it is (`raw`). Both are the engine's answer on the bytes.
 */

import { crawlerInputOf, parseRobotsTxt, resolveCrawler, resolveCrawlers } from '../../src/index.js';

/** What a case proves. */
type ContractTag =
  | 'utf-8'
  | 'latin-1'
  | 'invalid-utf-8'
  | 'utf-16-bom'
  | 'bom'
  | 'partial-bom'
  | 'cr-only'
  | 'mixed-line-endings'
  | 'nul'
  | 'long-line'
  | 'multibyte-cut'
  | 'over-500-kib'
  | 'html'
  | 'odd-agents'
  | 'agent-list';

export interface ContractCase {
  /** Short, unique, usable in a path segment. */
  readonly id: string;
  readonly tags: readonly ContractTag[];
  readonly bytes: Uint8Array;
  /** Served with this content type (default `text/plain`). */
  readonly contentType?: string;
  /** Paths, percent-encoded ASCII (every surface sends them unchanged). */
  readonly paths: readonly string[];
  /** Agents as a person types them, one at a time. */
  readonly agents: readonly string[];
  /** Several agents at once (pooled), for the surfaces that take a list (engine arrays, `--ua a,b`). */
  readonly agentLists?: readonly (readonly string[])[];
  /** Facts Google's reference parser documents for this file, checked against the computed answers. */
  readonly reference?: readonly { path: string; agent: string; allowed: boolean; line?: number }[];
}

/** An answer: the verdict and the 1-based deciding line (0 when no rule decided). */
interface ContractAnswer {
  readonly allowed: boolean;
  readonly line: number;
}

const enc = new TextEncoder();
const utf8 = (text: string): Uint8Array => enc.encode(text);
const concat = (...parts: (string | number[] | Uint8Array)[]): Uint8Array => {
  const chunks = parts.map((p) => (typeof p === 'string' ? utf8(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
};
function utf16(text: string, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = littleEndian ? 0xff : 0xfe;
  out[1] = littleEndian ? 0xfe : 0xff;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[2 + 2 * i] = littleEndian ? c & 0xff : c >> 8;
    out[3 + 2 * i] = littleEndian ? c >> 8 : c & 0xff;
  }
  return out;
}

const BASIC = 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: FooBot\nDisallow: /foo\n';
const BASIC_PATHS = ['/private/x', '/private/ok', '/foo/1', '/public'];
const AGENTS = ['Googlebot', 'FooBot'];

/** `Disallow: /` + `a` × 16,650 + `ツ`: the 16,663-byte cut falls after the first two of the three bytes of `ツ`. */
const LONG_PREFIX = `/${'a'.repeat(16_650)}`;

/**
 * A file past 500 KiB: a rule before the 512,000-byte cut, one across it (the cut keeps `Disallow: /acro`), and one
 * after it.
 */
function over500KiB(): Uint8Array {
  const head = 'User-agent: *\nDisallow: /early\n';
  const pad = `#${'x'.repeat(511_985 - 2 - head.length)}\n`;
  const across = 'Disallow: /across-the-cut\n';
  const tail = `#${'y'.repeat(8_000)}\nDisallow: /late\n`;
  return utf8(head + pad + across + tail);
}

export const CONTRACT_CASES: readonly ContractCase[] = [
  {
    id: 'utf8-basic',
    tags: ['utf-8'],
    bytes: utf8(BASIC),
    paths: BASIC_PATHS,
    agents: AGENTS,
    reference: [
      { path: '/private/x', agent: 'Googlebot', allowed: false, line: 2 },
      { path: '/private/ok', agent: 'Googlebot', allowed: true, line: 3 },
      { path: '/foo/1', agent: 'FooBot', allowed: false, line: 6 },
      { path: '/private/x', agent: 'FooBot', allowed: true, line: 0 },
    ],
  },
  {
    id: 'utf8-multibyte',
    tags: ['utf-8'],
    bytes: utf8('User-agent: *\nDisallow: /caf\u00e9\nDisallow: /\u30c4/\nAllow: /%E3%83%84/ok\n'),
    paths: ['/caf%C3%A9', '/caf%c3%a9', '/caf%E9', '/%E3%83%84/x', '/%E3%83%84/ok', '/%e3%83%84/x'],
    agents: AGENTS,
    reference: [
      { path: '/caf%C3%A9', agent: 'Googlebot', allowed: false, line: 2 },
      { path: '/%E3%83%84/x', agent: 'Googlebot', allowed: false, line: 3 },
    ],
  },
  {
    id: 'latin1',
    tags: ['latin-1', 'invalid-utf-8'],
    bytes: concat('User-agent: *\nDisallow: /caf', [0xe9], '\nAllow: /', [0xfc], 'ber\n'),
    paths: ['/caf%E9', '/caf%e9', '/caf%C3%A9', '/caf%EF%BF%BD', '/%FCber', '/%C3%BCber'],
    agents: AGENTS,
    reference: [
      // The reference matches the byte E9 against %E9 in the URL: blocked.
      { path: '/caf%E9', agent: 'Googlebot', allowed: false, line: 2 },
      { path: '/caf%EF%BF%BD', agent: 'Googlebot', allowed: true, line: 0 },
    ],
  },
  {
    id: 'invalid-utf8',
    tags: ['invalid-utf-8'],
    bytes: concat(
      'User-agent: *\nDisallow: /a',
      [0x80],
      '\nDisallow: /b',
      [0xe3, 0x83],
      '\nDisallow: /c',
      [0xff, 0xfe],
      'd\n',
    ),
    paths: ['/a%80', '/a%C2%80', '/b%E3%83', '/b%E3%83%84', '/c%FF%FEd', '/c%EF%BF%BD'],
    agents: AGENTS,
  },
  {
    id: 'utf16le-bom',
    tags: ['utf-16-bom'],
    bytes: utf16('User-agent: *\nDisallow: /\n', true),
    paths: ['/', '/x'],
    agents: AGENTS,
    // Google reads bytes as UTF-8: the NUL after each ASCII char ends the line's content, so no rule is read.
    reference: [{ path: '/x', agent: 'Googlebot', allowed: true, line: 0 }],
  },
  {
    id: 'utf16be-bom',
    tags: ['utf-16-bom'],
    bytes: utf16('User-agent: *\nDisallow: /x\n', false),
    paths: ['/', '/x'],
    agents: AGENTS,
  },
  {
    id: 'utf8-bom',
    tags: ['bom'],
    bytes: concat([0xef, 0xbb, 0xbf], 'User-agent: *\nDisallow: /x\n'),
    paths: ['/x', '/y'],
    agents: AGENTS,
    reference: [{ path: '/x', agent: 'Googlebot', allowed: false, line: 2 }],
  },
  {
    id: 'partial-bom-2',
    tags: ['partial-bom', 'invalid-utf-8'],
    bytes: concat([0xef, 0xbb], 'User-agent: *\nDisallow: /x\n'),
    paths: ['/x', '/y'],
    agents: AGENTS,
    reference: [{ path: '/x', agent: 'Googlebot', allowed: false, line: 2 }],
  },
  {
    id: 'partial-bom-1',
    tags: ['partial-bom', 'invalid-utf-8'],
    bytes: concat([0xef], 'User-agent: *\nDisallow: /x\n'),
    paths: ['/x', '/y'],
    agents: AGENTS,
  },
  {
    id: 'bom-then-bom',
    tags: ['bom', 'invalid-utf-8'],
    bytes: concat([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], 'User-agent: *\nDisallow: /x\n'),
    paths: ['/x'],
    agents: AGENTS,
  },
  {
    id: 'cr-only',
    tags: ['cr-only'],
    bytes: utf8('User-agent: *\rDisallow: /a\rAllow: /a/b\r\rUser-agent: FooBot\rDisallow: /\r'),
    paths: ['/a/x', '/a/b', '/c'],
    agents: AGENTS,
    reference: [{ path: '/a/x', agent: 'Googlebot', allowed: false, line: 2 }],
  },
  {
    id: 'mixed-line-endings',
    tags: ['mixed-line-endings'],
    bytes: utf8(
      'User-agent: *\r\nDisallow: /a\nDisallow: /b\rAllow: /b/ok\r\n\n\rUser-agent: FooBot\r\nDisallow: /f\n',
    ),
    paths: ['/a', '/b/x', '/b/ok', '/f'],
    agents: AGENTS,
  },
  {
    id: 'nul',
    tags: ['nul'],
    bytes: concat('User-agent: *\nDisallow: /a', [0], '/b\nDisallow: /c', [0], '\nAllow: ', [0], '/a/ok\n'),
    paths: ['/a/x', '/a/ok', '/c', '/a%00/b'],
    agents: AGENTS,
    reference: [{ path: '/a/x', agent: 'Googlebot', allowed: false, line: 2 }],
  },
  {
    id: 'long-line-multibyte-cut',
    tags: ['long-line', 'multibyte-cut', 'utf-8'],
    bytes: utf8(`User-agent: *\nDisallow: ${LONG_PREFIX}\u30c4tail\nDisallow: /after\n`),
    paths: [`${LONG_PREFIX}%E3%83%84tail`, `${LONG_PREFIX}%E3%83`, `${LONG_PREFIX}%E3%84`, '/after', '/a'],
    agents: AGENTS,
  },
  {
    id: 'over-500-kib',
    tags: ['over-500-kib'],
    bytes: over500KiB(),
    paths: ['/early', '/acro', '/acr', '/across-the-cut', '/late'],
    agents: AGENTS,
    reference: [
      { path: '/early', agent: 'Googlebot', allowed: false, line: 2 },
      { path: '/acro', agent: 'Googlebot', allowed: false, line: 4 },
      { path: '/acr', agent: 'Googlebot', allowed: true, line: 0 },
      { path: '/late', agent: 'Googlebot', allowed: true, line: 0 },
    ],
  },
  {
    id: 'html-one-line',
    tags: ['html'],
    contentType: 'text/html; charset=utf-8',
    bytes: utf8('<!doctype html><html><body>User-agent: *<br>Disallow: /</body></html>'),
    paths: ['/', '/x'],
    agents: AGENTS,
  },
  {
    id: 'html-lines',
    tags: ['html'],
    contentType: 'text/html',
    bytes: utf8('<html>\n<body>\n<pre>\nUser-agent: *\nDisallow: /x\n</pre>\n</body>\n</html>\n'),
    paths: ['/x', '/y'],
    agents: AGENTS,
  },
  {
    id: 'odd-agents',
    tags: ['odd-agents', 'agent-list'],
    bytes: utf8(
      'User-agent: FooBot\nDisallow: /foo\n\nUser-agent: *bot\nDisallow: /star\n\nUser-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /all\n',
    ),
    paths: ['/foo', '/star', '/g', '/all', '/none'],
    agents: [
      'FooBot',
      'foobot',
      ' FooBot ',
      'FooBot/1.2',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 (compatible; FooBot/3.0)',
      '(FooBot)',
      'Foo Bar',
      'Googlebot-Image',
      '*',
    ],
    agentLists: [
      ['FooBot', 'Googlebot'],
      ['(FooBot)', 'Other'],
    ],
    reference: [
      // Names compared exactly: a name with spaces or a version names no group, only `*` applies.
      { path: '/foo', agent: 'FooBot', allowed: false, line: 2 },
      { path: '/all', agent: 'foobot', allowed: true, line: 0 },
      { path: '/star', agent: '(FooBot)', allowed: true, line: 0 },
    ],
  },
];

/** Whether the bytes are valid UTF-8 (so the text is the same file): only then is a string surface asked. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The file as text, where it is valid UTF-8 (a UTF-8 byte order mark kept). */
export function textOf(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
}

const parsed = new WeakMap<Uint8Array, ReturnType<typeof parseRobotsTxt>>();

/**
 * The engine's answer on the bytes: for `raw`, the name as it is (Google's conformance runner, `robotskit test`); for
 * `resolved`, the name read by `resolveCrawler` (or a list by `resolveCrawlers`), as every surface a person types into.
 */
export function expectedAnswer(
  c: ContractCase,
  path: string,
  agent: string | readonly string[],
  mode: 'raw' | 'resolved',
): ContractAnswer {
  let robots = parsed.get(c.bytes);
  if (robots === undefined) {
    robots = parseRobotsTxt(c.bytes);
    parsed.set(c.bytes, robots);
  }
  const input =
    mode === 'raw'
      ? agent
      : typeof agent === 'string'
        ? resolveCrawler(agent).input
        : crawlerInputOf(resolveCrawlers(agent));
  const e = robots.explain(path, input);
  return { allowed: e.allowed, line: e.line };
}

/**
 * The crawl client's shortcut for URL strings already in the WHATWG parser's form (no `new URL` per question) against
 * the parser itself and against the client's plain path (a `URL` object), over generated URLs and files.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRobotsClient, type FetchLike } from '../../src/fetch/index.js';
import { canonicalAfter, canonicalPath, originEndIfKnown, simpleOriginEnd } from '../../src/url/http-url.js';
import { originOf } from '../../src/url/origin.js';
import { pathOfUrl, pathToMatch } from '../../src/url/path.js';

/** Pieces that reach every branch of the shortcut and of the parser's host, port, path and query rules. */
const pieces = [
  'a',
  'Z',
  'b-c',
  '-',
  '0',
  '9',
  '00',
  '255',
  '256',
  '0x7f',
  '1.2.3.4',
  '01.2.3.4',
  '1.2.3',
  '.',
  '..',
  'xn--',
  'xn--abc',
  'xn--mnchen-3ya',
  'example.com',
  ':',
  ':0',
  ':80',
  ':443',
  ':080',
  ':8080',
  ':65535',
  ':65536',
  ':123456',
  '@',
  'user:pw@',
  '/',
  '//',
  '\\',
  '/./',
  '/../',
  '/.',
  '/.a',
  '%2e',
  '%2E',
  '/%2e/',
  '/%2e%2e/',
  '%41',
  '%',
  '?',
  '??',
  '#',
  '#?',
  ' ',
  '\t',
  '\n',
  '~',
  "'",
  '"',
  '<',
  '>',
  '`',
  '{',
  '|',
  '^',
  'é',
  'ß',
  '[::1]',
  ';',
  '=',
  '&',
  '*',
  '$',
];
const scheme = fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'http:/', '');
const url = fc.tuple(scheme, fc.array(fc.constantFrom(...pieces), { maxLength: 9 })).map(([s, a]) => s + a.join(''));
/** Mostly well-formed URLs: a host, then a path, query and fragment made of pieces. */
const plausible = fc
  .tuple(
    fc.constantFrom('http://', 'https://'),
    fc.constantFrom('example.com', 'a.b-c.io', '127.0.0.1', '10.0.0.255', 'x1', 'localhost', 'a.0', 'sub.xn--a.com'),
    fc.constantFrom('', ':8080', ':80', ':443', ':1'),
    fc.array(fc.constantFrom(...pieces), { maxLength: 8 }),
  )
  .map(([s, h, p, a]) => s + h + p + a.join(''));

function parsed(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

describe('URL strings already in canonical form', () => {
  it('the shortcut gives the origin, path and serialisation the WHATWG parser gives', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.oneof(url, plausible, fc.string({ maxLength: 30 })), (value) => {
        const end = simpleOriginEnd(value);
        if (end < 0) return;
        taken++;
        const u = parsed(value);
        expect(u, value).not.toBeNull();
        expect(value.slice(0, end), value).toBe(`${u!.protocol}//${u!.host}`);
        expect(originOf(value), value).toBe(originOf(u!));
        // The engine matches the string's path and query as it matches the parsed URL's.
        expect(pathOfUrl(value), value).toBe(pathToMatch(u!));
        expect(canonicalPath(value, end), value).toBe(pathToMatch(u!));
        // The string is the serialisation, but for the `/` of an empty path.
        const href = value.charCodeAt(end) === 0x2f ? value : `${value.slice(0, end)}/${value.slice(end)}`;
        expect(href, value).toBe(u!.href);
      }),
      { numRuns: 30_000 },
    );
    expect(taken).toBeGreaterThan(300);
  });

  it('takes the shortcut for common URLs and not for the others', () => {
    for (const value of [
      'https://example.com/a/b?c=d#top',
      'http://127.0.0.1:8080/x',
      'https://www.a-b.example',
      'http://a.io?q=1',
      // A lone `?` is kept by the serialisation, and matched by the reference (`/*?`).
      'https://example.com/p?',
      'https://example.com/p?#f',
    ]) {
      expect(simpleOriginEnd(value), value).toBeGreaterThan(0);
    }
    for (const value of [
      'HTTPS://example.com/',
      'https://Example.com/',
      'https://example.com:443/',
      'https://example.com/a/../b',
      'https://example.com/a b',
      'https://xn--mnchen-3ya.de/',
      'http://0x7f.1/',
      'ftp://example.com/',
    ]) {
      expect(simpleOriginEnd(value), value).toBe(-1);
    }
  });
});

/** Origins as the parser writes them (what the client keeps), from hosts in and outside the shortcut's shape. */
const writtenOrigin = fc
  .tuple(
    fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://'),
    fc.constantFrom(
      'example.com',
      'EXAMPLE.com',
      '127.0.0.1',
      '0x7f.1',
      '[::1]',
      'xn--mnchen-3ya.de',
      'münchen.de',
      'a_b',
    ),
    fc.constantFrom('', ':8080', ':80', ':443', ':21', ':065535'),
  )
  .map(([s, h, p]) => parsed(s + h + p))
  .filter((u): u is URL => u !== null)
  .map((u) => `${u.protocol}//${u.host}`);

describe('the rest of a URL string after an origin the parser wrote', () => {
  it('when it is in canonical form, the string is what the parser gives for it, origin and all', () => {
    let taken = 0;
    fc.assert(
      fc.property(writtenOrigin, fc.array(fc.constantFrom(...pieces), { maxLength: 8 }), (origin, tail) => {
        const value = origin + tail.join('');
        const end = originEndIfKnown(value);
        // The client takes this shortcut only when the string's start is an origin it keeps, and the rest fits.
        if (value.slice(0, end) !== origin || !canonicalAfter(value, end)) return;
        taken++;
        const u = parsed(value);
        expect(u, value).not.toBeNull();
        expect(`${u!.protocol}//${u!.host}`, value).toBe(origin);
        expect(pathOfUrl(value), value).toBe(pathToMatch(u!));
        expect(canonicalPath(value, end), value).toBe(pathToMatch(u!));
        const href = value.charCodeAt(end) === 0x2f ? value : `${value.slice(0, end)}/${value.slice(end)}`;
        expect(href, value).toBe(u!.href);
        // Within the whole-string shape, both shortcuts agree.
        const whole = simpleOriginEnd(value);
        if (whole > 0) expect(whole, value).toBe(end);
      }),
      { numRuns: 30_000 },
    );
    expect(taken).toBeGreaterThan(1000);
  });

  it('ends the start to look up at the first `/` after the scheme and a char, and takes http(s) tails in canonical form only', () => {
    const ends: [string, number][] = [
      ['https://a.example/x?y#z', 17],
      ['http://a.example', 16],
      ['http://a/', 8],
      ['https://a/', 9],
      // Starts that are no origin: the client finds none of them among its keys.
      ['http://a.example?y/z', 18],
      ['http://a.example#y', 18],
    ];
    for (const [value, end] of ends) expect(originEndIfKnown(value), value).toBe(end);
    // Each string after its origin (`https://a.example` is 17 chars, `http://a.example` 16, `ftp://a.example` 15).
    const tails: [string, number, boolean][] = [
      ['https://a.example/x?y#z', 17, true],
      ['http://a.example', 16, true],
      ['http://a.example/', 16, true],
      ['http://a.example/p?q=1#f', 16, true],
      // ftp origins are kept too, but left to the parser.
      ['ftp://a.example/', 15, false],
      ['http://a.example/a b', 16, false],
      ['http://a.example/./b', 16, false],
      ['http://a.example/%2E%2e/b', 16, false],
      ['http://a.example/p?', 16, true],
      ['http://a.example/a\\b', 16, false],
      // Only from `end` on: the regular expression is sticky, and a failed call's position does not carry over.
      ['http://a.example/x y', 16, false],
      ['http://a.example/x', 16, true],
    ];
    for (const [value, end, canonical] of tails) expect(canonicalAfter(value, end), value).toBe(canonical);
  });
});

const agents = ['*', 'FooBot', 'foobot', 'BarBot'];
const ruleValue = fc
  .array(fc.constantFrom('/', 'a', 'b', '*', '$', '?', '%41', 'A', '.', '=', ';', 'é'), { maxLength: 6 })
  .map((a) => a.join(''));
const robotsFile = fc
  .array(
    fc.oneof(
      fc.constantFrom(...agents).map((a) => `User-agent: ${a}`),
      fc.tuple(fc.constantFrom('Allow', 'Disallow'), ruleValue).map(([k, v]) => `${k}: ${v}`),
    ),
    { maxLength: 14 },
  )
  .map((lines) => lines.join('\n'));
const hostName = fc.constantFrom('a.example', 'b.example', 'A.example', '127.0.0.1', '127.0.0.1:81');
const question = fc
  .tuple(
    fc.constantFrom('http://', 'https://', 'HTTP://'),
    hostName,
    fc.array(fc.constantFrom('/', 'a', 'b', 'A', '%41', '.', '..', '?', '#', '$', '=', ';', 'é', ' ', '*'), {
      maxLength: 8,
    }),
  )
  .map(([s, h, a]) => s + h + a.join(''));
const asker = fc.constantFrom<string | undefined>(undefined, 'FooBot', 'BarBot', 'other');
/** Up to 12 questions, each a URL string and who asks. */
const askedInTurn = fc.array(fc.tuple(question, asker), { minLength: 1, maxLength: 12 });
const hostsServed = fc.dictionary(fc.constantFrom('a.example', 'b.example', '127.0.0.1', '127.0.0.1:81'), robotsFile);

/** A URL the client answers (an absolute http, https or ftp URL), else null. */
function answerable(value: string): URL | null {
  const u = parsed(value);
  return u !== null && /^(https?|ftp):$/.test(u.protocol) ? u : null;
}

/** Each host's robots.txt from `files` (404 for others), after `delay()` when given. */
function servedFrom(files: Record<string, string>, delay?: () => Promise<unknown>): FetchLike {
  return async (robotsUrl) => {
    await delay?.();
    const body = files[new URL(robotsUrl).host];
    return new Response(body ?? 'nope', { status: body === undefined ? 404 : 200 });
  };
}

describe('the client answers URL strings as it answers their parsed URLs', () => {
  it('isAllowed, explain and peek give the same answers for a string and for new URL(string)', async () => {
    await fc.assert(
      fc.asyncProperty(hostsServed, askedInTurn, async (files, questions) => {
        const client = createRobotsClient({ userAgent: 'FooBot', fetch: servedFrom(files) });
        for (const [value, ua] of questions) {
          const u = answerable(value);
          if (u === null) {
            await expect(client.isAllowed(value, ua)).rejects.toThrow();
            continue;
          }
          // The first question may load the origin: both forms then answer from memory.
          const viaString = await client.explain(value, ua);
          const viaUrl = await client.explain(u, ua);
          expect(viaString, value).toEqual(viaUrl);
          expect(await client.isAllowed(value, ua), value).toBe(viaUrl.allowed);
          expect(await client.isAllowed(u, ua), value).toBe(viaUrl.allowed);
          expect(client.peek(value, ua), value).toEqual(viaUrl);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('questions asked together while their origins load join the load and answer as one at a time does', async () => {
    await fc.assert(
      fc.asyncProperty(hostsServed, askedInTurn, async (files, questions) => {
        let requests = 0;
        // Answered later, so every question below is asked while the loads are in flight.
        const fetch = servedFrom(files, () => {
          requests++;
          return new Promise((resolve) => setTimeout(resolve, 1));
        });
        // One fixed clock: the two clients' fetches then carry the same times.
        const clock = { now: () => 1_780_000_000_000 };
        const together = createRobotsClient({ userAgent: 'FooBot', fetch, clock });
        const valid = questions.filter(([value]) => answerable(value) !== null);
        const answers = Promise.all(valid.map(([value, ua]) => together.explain(value, ua)));
        const allowed = Promise.all(valid.map(([value, ua]) => together.isAllowed(value, ua)));
        // Nothing is in memory yet: peek answers nothing rather than wait.
        for (const [value, ua] of valid) expect(together.peek(value, ua), value).toBeNull();
        const got = await answers;
        const gotAllowed = await allowed;
        // One fetch per origin for all of them.
        expect(requests).toBe(new Set(valid.map(([value]) => parsed(value)!.origin)).size);
        const alone = createRobotsClient({ userAgent: 'FooBot', fetch, clock });
        for (const [k, [value, ua]] of valid.entries()) {
          const expected = await alone.explain(parsed(value)!, ua);
          expect(got[k], value).toEqual(expected);
          expect(gotAllowed[k], value).toBe(expected.allowed);
        }
      }),
      { numRuns: 150 },
    );
  });
});

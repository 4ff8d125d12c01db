/**
 * One URL → path function on every surface of the engine: a string, a `URL` object and the crawl client all match the
 * path, params and query the reference extracts (`test/reference/path-params-query.ts`) from the URL asked about (a
 * string as given; a `URL` object and a URL the client requests as serialised). Generated URLs reach empty queries,
 * empty fragments, `?#`, `//`, backslashes and the other corners of the reference's algorithm and of the WHATWG parser.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRobotsClient, type FetchLike } from '../src/fetch/index.js';
import { parseRobotsTxt } from '../src/index.js';
import { explainPath } from '../src/robots-txt/robots-txt.js';
import { pathOfAnyUrl, pathOfUrl, pathToMatch } from '../src/url/path.js';
import { referencePathParamsQuery } from './reference/path-params-query.js';

const pieces = [
  '/',
  '//',
  '///',
  '\\',
  '\\\\',
  '?',
  '??',
  '?#',
  '#',
  '#?',
  '##',
  ';',
  '://',
  ':',
  '@',
  'a',
  'B',
  '.',
  '..',
  '%3F',
  '%2f',
  '=',
  '&',
  '*',
  '$',
  ' ',
  'é',
  'example.com',
  'x:80',
];
const scheme = fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'http:/', 'http:', '//', '/', '');
const anyUrl = fc.tuple(scheme, fc.array(fc.constantFrom(...pieces), { maxLength: 8 })).map(([s, a]) => s + a.join(''));
/** Absolute http(s) URLs the client answers: a host, then pieces. */
const httpUrl = fc
  .tuple(
    fc.constantFrom('http://', 'https://', 'HTTPS://'),
    fc.constantFrom('a.example', 'A.example', '127.0.0.1', 'a.example:8080'),
    fc.array(fc.constantFrom(...pieces.filter((p) => !p.includes('://') && p !== 'x:80')), { maxLength: 7 }),
  )
  .map(([s, h, a]) => s + h + a.join(''));

function parsed(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

describe('the path to match of a URL', () => {
  it('of a string is what the reference extracts from the string', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /*?\n');
    fc.assert(
      fc.property(fc.oneof(anyUrl, httpUrl, fc.string({ maxLength: 12 })), (u) => {
        const expected = referencePathParamsQuery(u);
        expect(pathOfUrl(u), u).toBe(expected);
        expect(pathOfAnyUrl(u), u).toBe(expected);
        expect(pathToMatch(u), u).toBe(expected);
        expect(robots.explain(u, 'x').path, u).toBe(expected);
      }),
      { numRuns: 20_000 },
    );
  });

  it('of a URL object is what the reference extracts from its serialisation, the URL a crawler requests', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /*?\n');
    let tried = 0;
    fc.assert(
      fc.property(fc.oneof(anyUrl, httpUrl), (u) => {
        const url = parsed(u);
        if (url === null) return;
        tried++;
        const expected = referencePathParamsQuery(url.href);
        expect(pathToMatch(url), u).toBe(expected);
        expect(robots.explain(url, 'x').path, u).toBe(expected);
        expect(robots.isAllowed(url, 'x'), u).toBe(robots.explain(url.href, 'x').allowed);
      }),
      { numRuns: 20_000 },
    );
    expect(tried).toBeGreaterThan(5000);
  });

  it('keeps a lone `?`, a `?` before an empty fragment and `?` after `//` on every surface', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /*?\nDisallow: /cse?\n');
    const cases: [string, string][] = [
      ['https://example.com/search?', '/search?'],
      ['https://example.com/search?#', '/search?'],
      ['https://example.com/search?#top', '/search?'],
      ['https://example.com/cse?', '/cse?'],
      ['https://example.com?', '/?'],
      ['https://example.com//a?', '//a?'],
    ];
    for (const [u, path] of cases) {
      expect(referencePathParamsQuery(u), u).toBe(path);
      expect(pathToMatch(u), u).toBe(path);
      expect(pathToMatch(new URL(u)), u).toBe(path);
      expect(robots.isAllowed(u, 'Googlebot'), u).toBe(false);
      expect(robots.isAllowed(new URL(u), 'Googlebot'), u).toBe(false);
    }
    // Without the `?` nothing matches.
    expect(robots.isAllowed(new URL('https://example.com/search'), 'Googlebot')).toBe(true);
  });
});

const ruleValue = fc
  .array(fc.constantFrom('/', 'a', 'B', '*', '$', '?', '\\', ';', '.', '%3F'), { minLength: 1, maxLength: 5 })
  .map((a) => (a[0] === '/' || a[0] === '*' ? a.join('') : `/${a.join('')}`));
const robotsFile = fc
  .array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), ruleValue), { maxLength: 6 })
  .map((rules) => `User-agent: *\n${rules.map(([k, v]) => `${k}: ${v}`).join('\n')}\n`);

/** `body` as every host's robots.txt. */
function serving(body: string): FetchLike {
  return async () => new Response(body, { status: 200 });
}

describe('the crawl client', () => {
  it('decides on the path the reference extracts from the URL it requests, for strings and URL objects', async () => {
    await fc.assert(
      fc.asyncProperty(robotsFile, fc.array(httpUrl, { minLength: 1, maxLength: 6 }), async (body, urls) => {
        const robots = parseRobotsTxt(body);
        const client = createRobotsClient({ userAgent: 'FooBot', fetch: serving(body) });
        for (const u of urls) {
          const url = parsed(u);
          if (url === null) {
            await expect(client.isAllowed(u)).rejects.toThrow();
            continue;
          }
          const expected = explainPath(robots, referencePathParamsQuery(url.href), 'FooBot');
          for (const target of [u, url]) {
            const verdict = await client.explain(target);
            expect(verdict.url, u).toBe(url.href);
            expect(verdict.allowed, u).toBe(expected.allowed);
            expect(verdict.line, u).toBe(expected.line);
            expect(await client.isAllowed(target), u).toBe(expected.allowed);
            expect(client.peek(target, undefined)?.allowed, u).toBe(expected.allowed);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('disallows `https://example.com/search?` under `Disallow: /*?`, as Google does', async () => {
    const client = createRobotsClient({ userAgent: 'Googlebot', fetch: serving('User-agent: *\nDisallow: /*?\n') });
    for (const u of ['https://example.com/search?', 'https://Example.com/search?', 'https://example.com/search?#']) {
      expect(await client.isAllowed(u), u).toBe(false);
      expect(await client.isAllowed(new URL(u)), u).toBe(false);
    }
    expect(await client.isAllowed('https://example.com/search')).toBe(true);
  });
});

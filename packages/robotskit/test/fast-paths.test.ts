/**
 * Every fast path of the engine against the plain computation it replaces, over generated inputs: the answers must be
 * identical, whatever the input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { normalizeHttpUrl, parseHttpUrl } from '../src/url/http-url.js';

/** Pieces that make URL-ish values hit every branch of the canonical-shape check and of the WHATWG parser. */
const urlPieces = [
  'http://',
  'https://',
  'HTTP://',
  'ftp://',
  'a',
  'Z',
  '0',
  '9',
  '1.2.3.4',
  '0x7f',
  '.',
  '..',
  '-',
  'xn--',
  'xn--abc',
  'example.com',
  ':80',
  ':443',
  ':8080',
  '@',
  'user:pw@',
  '/',
  '//',
  '\\',
  '/./',
  '/../',
  '/.',
  '%2e',
  '%2E',
  '%41',
  '%',
  '?',
  '#',
  ' ',
  '\t',
  '~',
  "'",
  '"',
  '<',
  '`',
  '{',
  'é',
  'ß',
  '[::1]',
  ';',
  '=',
  '&',
  '*',
  '$',
];
const urlValue = fc.array(fc.constantFrom(...urlPieces), { maxLength: 10 }).map((a) => a.join(''));
const likelyUrl = fc
  .tuple(fc.constantFrom('http://', 'https://'), fc.array(fc.constantFrom(...urlPieces), { maxLength: 8 }))
  .map(([s, a]) => s + a.join(''));

describe('sitemap URL normalisation', () => {
  it('the canonical-shape shortcut gives what the WHATWG parser gives', () => {
    fc.assert(
      fc.property(fc.oneof(urlValue, likelyUrl, fc.string({ maxLength: 30 })), (value) => {
        expect(normalizeHttpUrl(value)).toBe(parseHttpUrl(value));
      }),
      { numRuns: 20_000 },
    );
  });

  it('takes the shortcut for common canonical values', () => {
    for (const value of ['https://example.com/sitemap.xml', 'http://www.a-b.example/s/x_1.xml.gz', 'https://a.io']) {
      expect(normalizeHttpUrl(value)).toBe(new URL(value).href);
    }
  });

  it('the sitemaps getter is the plain algorithm: every normalised value, first occurrences, file order', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(urlValue, likelyUrl), { maxLength: 12 }), (values) => {
        const text = values.map((v) => `Sitemap: ${v}`).join('\n');
        const robots = parseRobotsTxt(text);
        const plain: string[] = [];
        for (const record of robots.records) {
          if (record.field !== 'sitemap') continue;
          const url = parseHttpUrl(record.value);
          if (url !== null && !plain.includes(url)) plain.push(url);
        }
        expect(robots.sitemaps).toEqual(plain);
      }),
      { numRuns: 2_000 },
    );
  });
});

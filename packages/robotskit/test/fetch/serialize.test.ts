/**
 * Results as data: JSON round trips, the lazily parsed file, HTML sniffing and crawl-delay.
 */

import { describe, expect, it } from 'vitest';
import {
  crawlDelayOf,
  fetchStatusOf,
  type RetrievalResult,
  retrievalFromJson,
  retrievalToJson,
  robotsTxtOf,
} from '../../src/fetch/index.js';
import { isHtmlContentType, looksLikeHtml, parseRobotsTxt } from '../../src/index.js';

const body = new Uint8Array([
  ...new TextEncoder().encode('User-agent: *\nDisallow: /ä\nDisallow: /'),
  0xff,
  0x00,
  0x80,
  0x0a,
]);

const result: RetrievalResult = {
  origin: 'https://example.com',
  robotsUrl: 'https://example.com/robots.txt',
  finalUrl: 'https://www.example.com/robots.txt',
  outcome: 'rules',
  status: 200,
  redirects: [{ url: 'https://example.com/robots.txt', status: 301, location: 'https://www.example.com/robots.txt' }],
  headers: {
    cacheControl: 'max-age=60',
    contentType: 'text/plain',
    retryAfter: null,
    lastModified: null,
    etag: '"x"',
    contentLength: String(body.length),
    date: null,
  },
  body,
  size: body.length,
  truncated: false,
  html: false,
  error: null,
  fetchedAt: 1_700_000_000_000,
  timings: { headersMs: 12, totalMs: 15 },
};

describe('retrievalToJson / retrievalFromJson', () => {
  it('round-trips every field, binary bodies included, through JSON text', () => {
    const back = retrievalFromJson(JSON.parse(JSON.stringify(retrievalToJson(result))));
    expect(back).toEqual(result);
    expect(back.body).toBeInstanceOf(Uint8Array);
  });

  it('round-trips failures (no body, an error)', () => {
    const failed: RetrievalResult = {
      ...result,
      outcome: 'disallow-all',
      status: null,
      body: null,
      size: 0,
      error: { kind: 'reset', message: 'read ECONNRESET', phase: 'body', code: 'ECONNRESET' },
      timings: { headersMs: null, totalMs: 3 },
    };
    expect(retrievalFromJson(JSON.parse(JSON.stringify(retrievalToJson(failed))))).toEqual(failed);
  });

  it('names the first bad field', () => {
    const json = retrievalToJson(result);
    expect(() => retrievalFromJson({ ...json, outcome: 'maybe' })).toThrow(/outcome/);
    expect(() => retrievalFromJson({ ...json, redirects: [{ url: 1 }] })).toThrow(/redirects\[0\]\.url/);
    expect(() => retrievalFromJson({ ...json, error: { kind: 'gremlins', message: '', phase: 'body' } })).toThrow(
      /error\.kind/,
    );
    expect(() => retrievalFromJson({ ...json, bodyBase64: '%%%' })).toThrow(/bodyBase64/);
    expect(() => retrievalFromJson(null)).toThrow(TypeError);
  });
});

describe('robotsTxtOf', () => {
  it('parses the kept bytes once and remembers the result', () => {
    const robots = robotsTxtOf(result);
    expect(robots).toBe(robotsTxtOf(result));
    expect(robots?.isAllowed('https://example.com/%C3%A4', 'Bot')).toBe(false);
    expect(robots?.lineCount).toBe(4);
    expect(robotsTxtOf({ ...result, outcome: 'allow-all', body: null })).toBeNull();
  });
});

describe('HTML detection', () => {
  it.each([
    ['text/html', true],
    ['Text/HTML; charset=utf-8', true],
    ['application/xhtml+xml', true],
    ['text/plain', false],
    [null, false],
  ])('Content-Type %j → %j', (type, expected) => {
    expect(isHtmlContentType(type)).toBe(expected);
  });

  it.each([
    ['<!DOCTYPE html><html>', true],
    ['\uFEFF\n  <html lang="en">', true],
    ['<HEAD><title>x</title>', true],
    ['<!-- comment -->\n<html>', true],
    ['<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">', true],
    ['<?xml version="1.0"?><urlset>', false],
    ['User-agent: *\n<html>', false],
    ['', false],
  ])('%j → %j', (text, expected) => {
    expect(looksLikeHtml(new TextEncoder().encode(text))).toBe(expected);
  });
});

describe('crawlDelayOf', () => {
  const robots = parseRobotsTxt(
    'User-agent: *\nDisallow: /x\nCrawl-delay: 10\n\nUser-agent: a\nDisallow: /y\nCrawl-delay: soon\nCrawl-delay: 1.5\n\nUser-agent: b\nDisallow: /\n\n' +
      // Google's grouping: a crawl-delay does not end a run of user-agent lines, so c and d share one group.
      'User-agent: c\nCrawl-delay: 3\nUser-agent: d\nDisallow: /z\n',
  );
  it.each([
    ['other', 10],
    ['a', 1.5],
    ['b', null],
    ['c', 3],
    ['d', 3],
  ])('%s → %j', (agent, expected) => {
    expect(crawlDelayOf(robots, agent)).toBe(expected);
  });
});

describe("fetchStatusOf (the report's words)", () => {
  const error = (kind: 'connect' | 'too-many-redirects', message: string) => ({
    kind,
    message,
    phase: 'request' as const,
    code: null,
  });
  it.each([
    [
      { outcome: 'rules', status: 200, error: null },
      { status: 'fetched', reason: null },
    ],
    [
      { outcome: 'allow-all', status: 404, error: null },
      { status: 'not-found', reason: 'not found (HTTP 404)' },
    ],
    [
      { outcome: 'allow-all', status: 410, error: null },
      { status: 'not-found', reason: 'not found (HTTP 410)' },
    ],
    [
      { outcome: 'allow-all', status: 403, error: null },
      { status: 'error', reason: 'access denied (HTTP 403)' },
    ],
    [
      { outcome: 'disallow-all', status: 503, error: null },
      { status: 'error', reason: 'server error (HTTP 503)' },
    ],
    [
      { outcome: 'allow-all', status: 301, error: error('too-many-redirects', 'more than 5 redirects') },
      { status: 'error', reason: 'too many redirects' },
    ],
    [
      { outcome: 'disallow-all', status: null, error: error('connect', 'connect ECONNREFUSED') },
      { status: 'error', reason: 'connection refused' },
    ],
  ] as const)('%j', (result, expected) => {
    expect(fetchStatusOf(result)).toEqual(expected);
  });
});

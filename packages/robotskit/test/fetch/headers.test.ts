/**
 * The header values behind caching and retries: Cache-Control (RFC 9111 §5.2), HTTP-dates and Retry-After (RFC 9110).
 */

import { describe, expect, it } from 'vitest';
import { parseCacheControl, parseHttpDate, parseRetryAfter } from '../../src/fetch/index.js';

describe('parseCacheControl', () => {
  it.each([
    [null, { maxAge: null, noCache: false, noStore: false }],
    ['', { maxAge: null, noCache: false, noStore: false }],
    ['max-age=3600', { maxAge: 3600, noCache: false, noStore: false }],
    ['public, MAX-AGE="60"', { maxAge: 60, noCache: false, noStore: false }],
    ['max-age = 60', { maxAge: 60, noCache: false, noStore: false }],
    ['max-age=-1', { maxAge: null, noCache: false, noStore: false }],
    ['max-age=1.5', { maxAge: null, noCache: false, noStore: false }],
    ['max-age=abc, max-age=10', { maxAge: 10, noCache: false, noStore: false }],
    ['max-age=10, max-age=20', { maxAge: 10, noCache: false, noStore: false }],
    ['max-age=99999999999', { maxAge: 2_147_483_648, noCache: false, noStore: false }],
    ['no-cache', { maxAge: null, noCache: true, noStore: false }],
    ['private, no-store, max-age=0', { maxAge: 0, noCache: false, noStore: true }],
    ['s-maxage=100', { maxAge: null, noCache: false, noStore: false }],
  ])('%j', (value, expected) => {
    expect(parseCacheControl(value)).toEqual(expected);
  });
});

describe('parseHttpDate', () => {
  const t = Date.UTC(1994, 10, 6, 8, 49, 37);
  it.each([
    ['Sun, 06 Nov 1994 08:49:37 GMT', t],
    ['Sunday, 06-Nov-94 08:49:37 GMT', t],
    ['Sun Nov  6 08:49:37 1994', t],
    ['Sun Nov 16 08:49:37 1994', Date.UTC(1994, 10, 16, 8, 49, 37)],
    ['Thu, 01 Jan 2026 00:00:00 GMT', Date.UTC(2026, 0, 1)],
    ['Friday, 01-Jan-27 00:00:00 GMT', Date.UTC(2027, 0, 1)],
    ['Sun, 31 Feb 1994 08:49:37 GMT', null],
    ['Sun, 06 Nov 1994 25:49:37 GMT', null],
    ['Sun, 06 Nov 1994 08:49:37 PST', null],
    ['2025-01-01T00:00:00Z', null],
    ['tomorrow', null],
  ])('%s', (text, expected) => {
    expect(parseHttpDate(text)).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);
  it.each([
    [null, undefined, null],
    ['120', undefined, 120_000],
    [' 0 ', undefined, 0],
    ['-5', undefined, null],
    ['1.5', undefined, null],
    ['Wed, 01 Jan 2025 12:10:00 GMT', undefined, 600_000],
    ['Wed, 01 Jan 2025 11:00:00 GMT', undefined, 0],
    // The server's Date header is the reference when present: its clock, not ours.
    ['Wed, 01 Jan 2025 12:10:00 GMT', 'Wed, 01 Jan 2025 12:05:00 GMT', 300_000],
    ['Wed, 01 Jan 2025 12:10:00 GMT', 'not a date', 600_000],
    ['soon', undefined, null],
  ])('%j (Date: %j) → %j', (value, serverDate, expected) => {
    expect(parseRetryAfter(value, now, serverDate)).toBe(expected);
  });
});

/**
 * `describeFetchOutcome` and `fetchStatusOf`: every outcome in the same plain words (runtime codes, statuses, FTP replies,
 * timeouts), the effect with the configured period, and the words of real failed fetches on loopback.
 */

import { describe, expect, it } from 'vitest';
import { classifyFetchError, describeFetchOutcome, fetchRobotsTxt, fetchStatusOf } from '../../src/fetch/index.js';
import { closedPort, startHttpServer } from './servers.js';

const summary = (facts: Parameters<typeof describeFetchOutcome>[0]) => describeFetchOutcome(facts).summary;

describe('describeFetchOutcome: one catalogue of fetch outcomes in words', () => {
  it('words HTTP statuses by what they mean, with the status', () => {
    expect(summary({ status: 200, error: null })).toBe('fetched (HTTP 200)');
    expect(summary({ status: 404, error: null })).toBe('not found (HTTP 404)');
    expect(summary({ status: 403, error: null })).toBe('access denied (HTTP 403)');
    expect(summary({ status: 429, error: null })).toBe('too many requests (HTTP 429)');
    expect(summary({ status: 503, error: null })).toBe('server error (HTTP 503)');
  });

  it('words runtime errors without their raw text, from the code or from a stored message', () => {
    expect(
      summary({ status: null, error: { kind: 'dns', code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND a.invalid' } }),
    ).toBe('host not found');
    // A stored fetch keeps only kind and message: the code is found in the message.
    expect(
      summary({ status: null, error: { kind: 'dns', message: 'fetch failed: getaddrinfo ENOTFOUND a.invalid' } }),
    ).toBe('host not found');
    expect(
      summary({
        status: null,
        error: {
          kind: 'tls',
          message: 'fetch failed: C0:error:0A00010B:SSL routines:ssl3_get_record:wrong version number',
        },
      }),
    ).toBe('TLS failure: the server does not speak TLS on this port (plain http?)');
    // Node's own client says EPROTO, with OpenSSL's reason only in the message: the message words it.
    expect(
      summary({
        status: null,
        error: {
          kind: 'tls',
          code: 'EPROTO',
          message: 'fetch failed: write EPROTO 80:error:0A00010B:SSL routines:ssl3_get_record:wrong version number',
        },
      }),
    ).toBe('TLS failure: the server does not speak TLS on this port (plain http?)');
    expect(summary({ status: null, error: { kind: 'tls', code: 'EPROTO', message: 'write EPROTO' } })).toBe(
      'TLS failure',
    );
    // A body whose connection closed before its end, without a reset (Node's ERR_STREAM_PREMATURE_CLOSE).
    const early = classifyFetchError(
      new TypeError('terminated', {
        cause: Object.assign(new Error('the connection closed early'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }),
      }),
      'body',
    );
    expect(early).toMatchObject({ kind: 'reset', code: 'ERR_STREAM_PREMATURE_CLOSE' });
    expect(summary({ status: null, error: early })).toBe('connection closed by the server');
    expect(summary({ status: null, error: { kind: 'connect', code: 'ECONNREFUSED' } })).toBe('connection refused');
    expect(summary({ status: 302, error: { kind: 'redirect-loop', message: 'redirect loop at /a' } })).toBe(
      'redirect loop',
    );
    expect(summary({ status: null, error: { kind: 'blocked', message: 'refused 127.0.0.1' } })).toContain(
      'private or loopback',
    );
    expect(summary({ status: null, error: { kind: 'unknown', message: 'weird internals' } })).toBe('fetch failed');
  });

  it('words an HTTP failure by its status: an answered request has no error kind', () => {
    expect(summary({ status: 503, error: null })).toBe('server error (HTTP 503)');
    expect(describeFetchOutcome({ status: 503, error: null }).outcome).toBe('disallow-all');
    // Kinds are the engine's: the words of stores that invented their own (`http-status`) are gone with them.
    // @ts-expect-error 'http-status' is no RetrievalErrorKind
    expect(describeFetchOutcome({ status: 503, error: { kind: 'http-status' } }).outcome).toBe('disallow-all');
  });

  it('says what each outcome means for crawling', () => {
    expect(describeFetchOutcome({ status: 404, error: null }).effect).toContain('everything may be crawled');
    expect(describeFetchOutcome({ status: 302, error: { kind: 'redirect-loop' } }).effect).toContain(
      'everything may be crawled',
    );
    expect(describeFetchOutcome({ status: 503, error: null }).effect).toContain('stops crawling');
  });

  it('says the configured period of "disallow all" in its effect, Google\'s 12 hours by default', () => {
    const failed = { status: 503, error: null };
    const effect = (disallowPeriod?: number) =>
      describeFetchOutcome(failed, disallowPeriod === undefined ? {} : { disallowPeriod }).effect;
    expect(effect()).toBe(
      'Google stops crawling the site until the file can be fetched (after 12 hours the last good version applies)',
    );
    expect(effect(12 * 3_600_000)).toBe(effect());
    expect(effect(6 * 3_600_000)).toContain('(after 6 hours the last good version applies)');
    expect(effect(3_600_000)).toContain('(after 1 hour the last good version');
    expect(effect(2 * 86_400_000)).toContain('(after 2 days the last good version');
    expect(effect(90 * 60_000)).toContain('(after 90 minutes the last good version');
    expect(effect(1500)).toContain('(after 1.5 seconds the last good version');
    expect(effect(0)).toContain('(the last good version applies at once)');
    // The availability options themselves, as a surface configured them.
    const availability = { disallowPeriod: 3 * 3_600_000, lastGoodVersionPeriod: 7 * 86_400_000 };
    expect(describeFetchOutcome(failed, availability).effect).toContain('after 3 hours');
    // Other outcomes do not depend on it.
    expect(describeFetchOutcome({ status: 404, error: null }, availability).effect).toBe(
      describeFetchOutcome({ status: 404, error: null }).effect,
    );
    expect(() => effect(-1)).toThrow('disallowPeriod must be a non-negative number of milliseconds');
  });

  it('says a timeout with its length when known', () => {
    expect(
      describeFetchOutcome({ status: null, error: { kind: 'timeout', phase: 'request' } }, { timeoutMs: 2500 }).summary,
    ).toBe('no response within 2.5 s');
  });

  it('words real failures of real fetches: a refused port, a 503, a plain-http server spoken to over TLS', async () => {
    const server = await startHttpServer((_req, res) => {
      res.statusCode = 503;
      res.end('down');
    });
    try {
      const down = await fetchRobotsTxt(`${server.origin}/x`, { fetch });
      expect(fetchStatusOf(down)).toEqual({ status: 'error', reason: 'server error (HTTP 503)' });
      const tls = await fetchRobotsTxt(`${server.origin.replace('http:', 'https:')}/x`, { fetch });
      expect(fetchStatusOf(tls).reason).toMatch(/^TLS failure/);
      const port = await closedPort();
      const refused = await fetchRobotsTxt(`http://127.0.0.1:${port}/`, { fetch });
      expect(fetchStatusOf(refused).reason).toBe('connection refused');
      expect(
        describeFetchOutcome({ status: null, error: classifyFetchError(new Error('boom'), 'request') }).summary,
      ).toBe('fetch failed');
    } finally {
      await server.close();
    }
  });
});

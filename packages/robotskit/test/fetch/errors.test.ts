/**
 * What `fetch` implementations throw, classified. The real-network cases are in retrieve.test.ts; this table covers
 * the shapes that cannot be produced on loopback (DNS) or come from other runtimes.
 */

import { describe, expect, it } from 'vitest';
import { BlockedFetchError, classifyFetchError, type RetrievalErrorKind } from '../../src/fetch/index.js';

function nodeError(code: string, message = code): Error {
  return Object.assign(new Error(message), { code });
}
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

describe('classifyFetchError', () => {
  const table: { name: string; error: unknown; phase?: 'request' | 'body'; kind: RetrievalErrorKind; code?: string }[] =
    [
      { name: 'DNS: not found', error: fetchFailed(nodeError('ENOTFOUND')), kind: 'dns', code: 'ENOTFOUND' },
      { name: 'DNS: temporary failure', error: fetchFailed(nodeError('EAI_AGAIN')), kind: 'dns' },
      { name: 'connection refused', error: fetchFailed(nodeError('ECONNREFUSED')), kind: 'connect' },
      { name: 'host unreachable', error: fetchFailed(nodeError('EHOSTUNREACH')), kind: 'connect' },
      { name: 'undici connect timeout', error: fetchFailed(nodeError('UND_ERR_CONNECT_TIMEOUT')), kind: 'timeout' },
      { name: 'undici headers timeout', error: fetchFailed(nodeError('UND_ERR_HEADERS_TIMEOUT')), kind: 'timeout' },
      { name: 'AbortSignal.timeout()', error: new DOMException('timed out', 'TimeoutError'), kind: 'timeout' },
      { name: 'reset', error: fetchFailed(nodeError('ECONNRESET')), kind: 'reset' },
      {
        name: 'other side closed',
        error: new TypeError('terminated', { cause: nodeError('UND_ERR_SOCKET') }),
        phase: 'body',
        kind: 'reset',
      },
      { name: 'bad certificate', error: fetchFailed(nodeError('CERT_HAS_EXPIRED')), kind: 'tls' },
      { name: 'self-signed', error: fetchFailed(nodeError('DEPTH_ZERO_SELF_SIGNED_CERT')), kind: 'tls' },
      { name: 'altname', error: fetchFailed(nodeError('ERR_TLS_CERT_ALTNAME_INVALID')), kind: 'tls' },
      { name: 'ssl', error: fetchFailed(nodeError('ERR_SSL_WRONG_VERSION_NUMBER')), kind: 'tls' },
      {
        name: 'chunking',
        error: new TypeError('terminated', { cause: nodeError('HPE_INVALID_CHUNK_SIZE') }),
        phase: 'body',
        kind: 'protocol',
      },
      {
        name: 'not HTTP (undici: a parser error without a code)',
        error: fetchFailed(
          Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Expected HTTP/)'), {
            name: 'HTTPParserError',
            code: undefined,
          }),
        ),
        kind: 'protocol',
      },
      {
        name: 'broken chunking (undici)',
        error: new TypeError('terminated', {
          cause: Object.assign(new Error('Response does not match the HTTP/1.1 protocol (Invalid character)'), {
            name: 'HTTPParserError',
          }),
        }),
        phase: 'body',
        kind: 'protocol',
      },
      {
        name: 'headers too large (undici)',
        error: fetchFailed(nodeError('UND_ERR_HEADERS_OVERFLOW')),
        kind: 'protocol',
      },
      { name: 'headers too large (node:http)', error: fetchFailed(nodeError('HPE_HEADER_OVERFLOW')), kind: 'protocol' },
      {
        name: 'length mismatch',
        error: fetchFailed(nodeError('UND_ERR_RES_CONTENT_LENGTH_MISMATCH')),
        kind: 'protocol',
      },
      {
        name: 'broken gzip',
        error: new TypeError('terminated', { cause: nodeError('Z_DATA_ERROR') }),
        phase: 'body',
        kind: 'body',
      },
      { name: 'AbortError', error: new DOMException('aborted', 'AbortError'), kind: 'aborted' },
      { name: 'blocked, as cause', error: fetchFailed(new BlockedFetchError('private address')), kind: 'blocked' },
      { name: 'blocked, by kind', error: Object.assign(new Error('no'), { kind: 'blocked' }), kind: 'blocked' },
      {
        name: 'a kind that is not ours is ignored',
        error: Object.assign(new Error('x'), { kind: 'weird' }),
        kind: 'unknown',
      },
      { name: 'browser', error: new TypeError('Failed to fetch'), kind: 'unknown' },
      { name: 'unknown body failure', error: new Error('stream broke'), phase: 'body', kind: 'body' },
      { name: 'a string', error: 'nope', kind: 'unknown' },
      { name: 'undefined', error: undefined, kind: 'unknown' },
    ];
  it.each(table)('$name → $kind', ({ error, phase = 'request', kind, code }) => {
    const result = classifyFetchError(error, phase);
    expect(result.kind).toBe(kind);
    expect(result.phase).toBe(phase);
    expect(result.message).not.toBe('');
    expect(result.message).not.toContain('\n');
    if (code !== undefined) expect(result.code).toBe(code);
  });

  it('joins the messages of the cause chain and survives cycles', () => {
    const inner = nodeError('ECONNRESET', 'read ECONNRESET');
    expect(classifyFetchError(fetchFailed(inner), 'request').message).toBe('fetch failed: read ECONNRESET');
    const a: { message: string; cause?: unknown } = { message: 'a' };
    const b = { message: 'b', cause: a };
    a.cause = b;
    expect(classifyFetchError(a, 'request').message).toBe('a: b');
  });
});

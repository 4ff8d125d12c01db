/**
 * Turning whatever a `fetch` implementation throws into a {@link RetrievalError}.
 *
 * Runtimes wrap the cause: Node's fetch throws `TypeError('fetch failed')` (or `'terminated'` while reading a body)
 * with the system error (`ECONNRESET`, `ENOTFOUND`, `HPE_INVALID_CHUNK_SIZE`…) as its `cause`. So the whole cause chain
 * is read: an explicit `kind` set by an injected fetch wins, then the most specific known code, then the error's name.
 * Browsers say only "Failed to fetch" (network, CORS and mixed content alike): that stays `unknown`.
 */

import { RETRIEVAL_ERROR_KINDS, type RetrievalError, type RetrievalErrorKind } from '../shared/types.js';

const KINDS = new Set<string>(RETRIEVAL_ERROR_KINDS);

const CODE_KINDS: Record<string, RetrievalErrorKind> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_FAIL: 'dns',
  EAI_NONAME: 'dns',
  EAI_NODATA: 'dns',
  ESERVFAIL: 'dns',
  ENODATA: 'dns',
  ECONNREFUSED: 'connect',
  EHOSTUNREACH: 'connect',
  ENETUNREACH: 'connect',
  EHOSTDOWN: 'connect',
  ENETDOWN: 'connect',
  EADDRNOTAVAIL: 'connect',
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ECONNRESET: 'reset',
  ECONNABORTED: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
  // Node's word for a stream that ended before its end: a body whose connection closed before all of it came.
  ERR_STREAM_PREMATURE_CLOSE: 'reset',
  EPROTO: 'tls',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls',
  HOSTNAME_MISMATCH: 'tls',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'protocol',
  UND_ERR_INFO: 'protocol',
  UND_ERR_HEADERS_OVERFLOW: 'protocol',
  UND_ERR_ABORTED: 'aborted',
  ERR_INVALID_URL: 'invalid-url',
};

const CODE_PREFIX_KINDS: readonly (readonly [string, RetrievalErrorKind])[] = [
  ['ERR_SSL_', 'tls'],
  ['ERR_TLS_', 'tls'],
  ['CERT_', 'tls'],
  ['UNABLE_TO_', 'tls'],
  ['HPE_', 'protocol'],
  ['ERR_HTTP2_', 'protocol'],
  ['Z_', 'body'],
];

function kindOfCode(code: string): RetrievalErrorKind | null {
  const exact = CODE_KINDS[code];
  if (exact !== undefined) return exact;
  for (const [prefix, kind] of CODE_PREFIX_KINDS) if (code.startsWith(prefix)) return kind;
  return null;
}

function kindOfName(name: string): RetrievalErrorKind | null {
  if (name === 'AbortError') return 'aborted';
  if (name === 'TimeoutError') return 'timeout';
  // undici's parser error for an answer that is not HTTP/1.1 carries no code (Node's own client says HPE_…).
  if (name === 'HTTPParserError') return 'protocol';
  return null;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** The errors of a cause chain, outermost first, without cycles. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return chain;
}

function field(value: unknown, key: 'kind' | 'code' | 'name' | 'message'): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = (value as Record<string, unknown>)[key];
  return typeof v === 'string' && v !== '' ? v : null;
}

/**
 * Classifies anything a `fetch` implementation (or a body stream) threw. Never throws.
 * @param phase Whether it happened before the final response's headers (`request`) or while reading the body.
 */
export function classifyFetchError(error: unknown, phase: 'request' | 'body'): RetrievalError {
  const chain = causeChain(error);
  let kind: RetrievalErrorKind | null = null;
  let code: string | null = null;
  // An explicit kind (an SSRF guard's BlockedFetchError) says what the thrower meant; it wins.
  for (const e of chain) {
    const k = field(e, 'kind');
    if (k !== null && KINDS.has(k)) {
      kind = k as RetrievalErrorKind;
      code = field(e, 'code');
      break;
    }
  }
  // Otherwise the innermost known code: it is the most specific.
  if (kind === null) {
    for (let i = chain.length - 1; i >= 0; i--) {
      const c = field(chain[i], 'code');
      if (c === null) continue;
      code ??= c;
      const k = kindOfCode(c);
      if (k !== null) {
        kind = k;
        code = c;
        break;
      }
    }
  }
  if (kind === null) {
    for (const e of chain) {
      const n = field(e, 'name');
      const k = n === null ? null : kindOfName(n);
      if (k !== null) {
        kind = k;
        break;
      }
    }
  }
  // A broken body with no better explanation is a body error; a failed request with none is unknown.
  kind ??= phase === 'body' ? 'body' : 'unknown';

  const messages: string[] = [];
  for (const e of chain) {
    const m = field(e, 'message') ?? (typeof e === 'string' ? e : null);
    if (m !== null && !messages.includes(m)) messages.push(m);
  }
  const message = oneLine(messages.join(': ')) || (typeof error === 'object' ? 'fetch failed' : String(error));
  return { kind, message, phase, code };
}

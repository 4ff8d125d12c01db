/**
 * The cross-surface table of hostile answers: raw bytes a server on 127.0.0.1 writes back (or how it hangs up) and
 * what the engine's retrieval makes of them: outcome, status, error kind and the catalogue's words. Every transport
 * the project ships runs it (the engine over Node's `fetch`, the CLI's `node:http` transport and its undici `fetch`,
 * the report service's guarded `fetch`), so the same server is worded the same on every surface.
 *
 * Left out on purpose: a body delimited by the connection's close that ends in a reset (undici takes the reset as the
 * end, Node's client as a broken body) and a stall (the timeouts' own tests cover it).
 */

import { createServer, type Server, type Socket } from 'node:net';
import type { RetrievalOutcome, RetrievalResult } from '../../src/fetch/index.js';
import { describeFetchOutcome } from '../../src/fetch/index.js';

interface HostileCase {
  readonly id: string;
  /** What the server does once the request has come in. */
  readonly answer: (socket: Socket) => void;
  readonly expected: {
    readonly outcome: RetrievalOutcome;
    readonly status: number | null;
    readonly kind: string | null;
    readonly summary: string;
  };
}

const write = (text: string) => (socket: Socket) => socket.end(text);
/** Writes `text`, then ends the connection with a reset (`rst`) or a plain close. */
const cut = (text: string, how: 'rst' | 'close') => (socket: Socket) =>
  socket.write(text, () => setTimeout(() => (how === 'rst' ? socket.resetAndDestroy() : socket.end()), 10));

const invalid = { outcome: 'disallow-all', status: null, kind: 'protocol', summary: 'invalid HTTP response' } as const;
const brokenOff = {
  outcome: 'disallow-all',
  status: 200,
  kind: 'reset',
  summary: 'HTTP 200, then connection closed by the server',
} as const;
const RULES = 'User-agent: *\nDisallow: /x\n';

export const HOSTILE_CASES: readonly HostileCase[] = [
  { id: 'not-http', answer: write('this is not http\r\n\r\n'), expected: invalid },
  { id: 'http-0.9', answer: write(RULES), expected: invalid },
  {
    id: 'length-and-chunked',
    answer: write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'),
    expected: invalid,
  },
  {
    id: 'header-over-16-kib',
    answer: write(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(20_000)}\r\nContent-Length: 2\r\n\r\nok`),
    expected: invalid,
  },
  {
    id: 'broken-chunking',
    answer: write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nUser-\r\nZZ\r\nxx\r\n'),
    expected: { ...invalid, status: 200, summary: 'HTTP 200, then invalid HTTP response' },
  },
  {
    id: 'closed-before-answering',
    answer: (socket) => socket.end(),
    expected: { outcome: 'disallow-all', status: null, kind: 'reset', summary: 'connection closed by the server' },
  },
  {
    id: 'reset-before-answering',
    answer: (socket) => socket.resetAndDestroy(),
    expected: { outcome: 'disallow-all', status: null, kind: 'reset', summary: 'connection reset by the server' },
  },
  {
    id: 'closed-mid-body',
    answer: cut('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n', 'close'),
    expected: brokenOff,
  },
  {
    id: 'reset-mid-body',
    answer: cut('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\n', 'rst'),
    expected: { ...brokenOff, summary: 'HTTP 200, then connection reset by the server' },
  },
  {
    id: 'closed-mid-chunk',
    answer: cut('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n20\r\nUser-agent: *\n', 'close'),
    expected: brokenOff,
  },
  {
    id: 'no-reason-phrase',
    answer: write(`HTTP/1.1 200\r\nContent-Length: ${RULES.length}\r\n\r\n${RULES}`),
    expected: { outcome: 'rules', status: 200, kind: null, summary: 'fetched (HTTP 200)' },
  },
  {
    id: 'body-until-close',
    answer: write(`HTTP/1.1 200 OK\r\n\r\n${RULES}`),
    expected: { outcome: 'rules', status: 200, kind: null, summary: 'fetched (HTTP 200)' },
  },
];

/** What a retrieval says, in the table's terms. */
export function hostileOutcome(result: RetrievalResult): HostileCase['expected'] {
  return {
    outcome: result.outcome,
    status: result.status,
    kind: result.error?.kind ?? null,
    summary: describeFetchOutcome(result).summary,
  };
}

/** Serves `c` on 127.0.0.1 (a fresh server per case) and gives its origin to `use`. */
export async function withHostileServer<T>(c: HostileCase, use: (origin: string) => Promise<T>): Promise<T> {
  const server: Server = createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', () => c.answer(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  try {
    return await use(`http://127.0.0.1:${address.port}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

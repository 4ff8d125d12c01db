/**
 * robots.txt over FTP, as Google reads it: an anonymous login and `RETR /robots.txt`. The engine has no FTP client
 * (it has no runtime dependencies); the caller injects one as {@link FtpGet}, like `fetch`, and the engine decides
 * what each answer means: a file → its rules; 550 to the retrieval (no such file) → no robots.txt (allow all); a
 * refused login, any other refusal, or a connection failure → as a server error (disallow all, then the 12 h / 30 day
 * rules).
 */

import {
  type Clock,
  NO_HEADERS,
  type RetrievalError,
  type RetrievalOutcome,
  type RetrievalResult,
} from '../shared/types.js';
import { readBody } from '../transport/body.js';
import { type Deadline, Stop } from '../transport/deadline.js';
import { classifyFetchError } from '../transport/errors.js';
import type { FtpAnswer, FtpGet, FtpRequest } from '../transport/ftp.js';

/** The reply that means "no such file" to `RETR` (RFC 959: file unavailable, not found or no access). */
const FILE_UNAVAILABLE = 550;

interface FtpRetrieval {
  readonly origin: string;
  readonly robotsUrl: string;
  readonly ftp: FtpGet;
  readonly maxBytes: number;
  readonly headersMs: number;
  readonly idleMs: number;
  readonly deadline: Deadline;
  readonly clock: Clock;
  readonly fetchedAt: number;
  readonly setPhase: (phase: 'request' | 'body') => void;
}

/** One retrieval of an `ftp://` origin's robots.txt with an injected client. Never rejects. */
export async function retrieveOverFtp(r: FtpRetrieval): Promise<RetrievalResult> {
  let replyAt: number | null = null;
  const finish = (
    outcome: RetrievalOutcome,
    error: RetrievalError | null,
    status: number | null,
    body: { bytes: Uint8Array | null; size: number; truncated: boolean } = { bytes: null, size: 0, truncated: false },
  ): RetrievalResult => ({
    origin: r.origin,
    robotsUrl: r.robotsUrl,
    finalUrl: r.robotsUrl,
    outcome,
    status,
    redirects: [],
    headers: NO_HEADERS,
    body: body.bytes,
    size: body.size,
    truncated: body.truncated,
    html: false,
    error,
    fetchedAt: r.fetchedAt,
    timings: { headersMs: replyAt === null ? null : replyAt - r.fetchedAt, totalMs: r.clock.now() - r.fetchedAt },
  });
  const url = new URL(r.robotsUrl);
  const request: FtpRequest = {
    host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port === '' ? 21 : Number(url.port),
    path: '/robots.txt',
    user: url.username === '' ? 'anonymous' : decodeURIComponent(url.username),
    password: url.username === '' ? 'anonymous@' : decodeURIComponent(url.password),
    signal: r.deadline.abortSignal,
  };
  let answer: FtpAnswer;
  try {
    answer = await r.deadline.step(
      Promise.resolve().then(() => r.ftp(request)),
      r.headersMs,
      'no answer from the FTP server',
    );
  } catch (error) {
    return finish('disallow-all', error instanceof Stop ? error.error : classifyFetchError(error, 'request'), null);
  }
  replyAt = r.clock.now();
  if (answer.kind === 'refused') {
    const reply = `FTP ${answer.code}${answer.message === '' ? '' : ` ${answer.message}`}`;
    if (answer.stage === 'retrieve' && answer.code === FILE_UNAVAILABLE) {
      // No such file: no robots.txt, as a 404 is over HTTP.
      return finish(
        'allow-all',
        {
          kind: 'protocol',
          message: `${reply}; treated as no robots.txt`,
          phase: 'request',
          code: `FTP_${answer.code}`,
        },
        answer.code,
      );
    }
    const what = answer.stage === 'login' ? 'FTP login refused' : 'FTP retrieval refused';
    return finish(
      'disallow-all',
      { kind: 'protocol', message: `${what}: ${reply}`, phase: 'request', code: `FTP_${answer.code}` },
      answer.code,
    );
  }
  r.setPhase('body');
  const read = await readBody(answer.body, r.maxBytes, r.idleMs, r.deadline);
  if (read.error !== null)
    return finish('disallow-all', read.error, null, { bytes: null, size: read.size, truncated: false });
  return finish('rules', null, null, { bytes: read.bytes, size: read.size, truncated: read.truncated });
}

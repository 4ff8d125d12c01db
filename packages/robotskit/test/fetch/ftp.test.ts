/**
 * ftp:// robots.txt through an injected FTP client: what each answer means (the Node client on a real FTP server is
 * tested in the CLI's ftp.test.ts). These fakes answer as a client would, so the engine's reading is tested alone.
 */

import { describe, expect, it } from 'vitest';
import { type FtpGet, type FtpRequest, fetchRobotsTxt, fetchStatusOf, robotsTxtOf } from '../../src/fetch/index.js';

const stream = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      controller.close();
    },
  });

describe('fetchRobotsTxt over FTP', () => {
  it('logs in anonymously and reads /robots.txt: rules', async () => {
    const seen: FtpRequest[] = [];
    const ftp: FtpGet = async (request) => {
      seen.push(request);
      return { kind: 'file', body: stream('User-agent: *\n', 'Disallow: /private/\n') };
    };
    const result = await fetchRobotsTxt('ftp://files.example.invalid/pub/x.zip', { ftp });
    expect(seen).toEqual([
      expect.objectContaining({ host: 'files.example.invalid', port: 21, path: '/robots.txt', user: 'anonymous' }),
    ]);
    expect(result).toMatchObject({
      outcome: 'rules',
      robotsUrl: 'ftp://files.example.invalid/robots.txt',
      error: null,
    });
    expect(robotsTxtOf(result)?.isAllowed('ftp://files.example.invalid/private/a', 'Bot')).toBe(false);
  });

  it('reads 550 to RETR as no robots.txt (allow all), saying why', async () => {
    const ftp: FtpGet = async () => ({
      kind: 'refused',
      stage: 'retrieve',
      code: 550,
      message: 'Failed to open file.',
    });
    const result = await fetchRobotsTxt('ftp://files.example.invalid:2121/', { ftp });
    expect(result).toMatchObject({ outcome: 'allow-all', status: 550, body: null });
    expect(result.error?.message).toBe('FTP 550 Failed to open file.; treated as no robots.txt');
    expect(fetchStatusOf(result)).toEqual({ status: 'not-found', reason: 'no such file (FTP 550)' });
  });

  it('reads a refused login, another refusal or a failed connection as a server error (disallow all)', async () => {
    const login = await fetchRobotsTxt('ftp://files.example.invalid/', {
      ftp: async () => ({ kind: 'refused', stage: 'login', code: 530, message: 'Login incorrect.' }),
    });
    expect(login).toMatchObject({ outcome: 'disallow-all', status: 530 });
    expect(login.error).toMatchObject({ kind: 'protocol', message: 'FTP login refused: FTP 530 Login incorrect.' });
    expect(fetchStatusOf(login).status).toBe('error');
    const busy = await fetchRobotsTxt('ftp://files.example.invalid/', {
      ftp: async () => ({ kind: 'refused', stage: 'retrieve', code: 450, message: 'busy' }),
    });
    expect(busy).toMatchObject({ outcome: 'disallow-all', status: 450 });
    const refused = await fetchRobotsTxt('ftp://files.example.invalid/', {
      ftp: async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:21'), { code: 'ECONNREFUSED' });
      },
    });
    expect(refused).toMatchObject({ outcome: 'disallow-all', status: null, error: { kind: 'connect' } });
  });

  it('gives up on a server that never answers, and aborts the client', async () => {
    let signal: AbortSignal | null = null;
    const result = await fetchRobotsTxt('ftp://files.example.invalid/', {
      timeouts: { headers: 50 },
      ftp: (request) => {
        signal = request.signal;
        return new Promise(() => {});
      },
    });
    expect(result).toMatchObject({ outcome: 'disallow-all', error: { kind: 'timeout' } });
    expect(signal!.aborted).toBe(true);
  });

  it('keeps at most maxBytes and cancels the transfer', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1000).fill(0x41));
      },
      cancel() {
        cancelled = true;
      },
    });
    const result = await fetchRobotsTxt('ftp://files.example.invalid/', {
      maxBytes: 2500,
      ftp: async () => ({ kind: 'file', body }),
    });
    expect(result).toMatchObject({ outcome: 'rules', truncated: true, size: 2500 });
    expect(cancelled).toBe(true);
  });
});

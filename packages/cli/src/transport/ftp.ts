/**
 * The engine's FTP client for `ftp://` robots.txt in Node, on basic-ftp: login, `RETR`, the file as a stream. The
 * engine decides what each answer means (see `FtpGet` in robotskit); this only reports what the server said.
 */

import { Writable } from 'node:stream';
import { Client, FTPError } from 'basic-ftp';
import type { FtpAnswer, FtpGet } from 'robotskit/fetch';

/** The reply text without its code (`550 Failed to open file.` → `Failed to open file.`). */
function replyText(error: FTPError): string {
  return error.message.replace(/^\d{3}[ -]?/, '').trim();
}

/** basic-ftp's own inactivity limit; the engine's timeouts (which close the client) normally end things first. */
const SOCKET_TIMEOUT_MS = 60_000;

/** Reads one file over FTP (plain FTP, passive mode, as basic-ftp does by default). */
export const nodeFtp: FtpGet = async (request) => {
  const client = new Client(SOCKET_TIMEOUT_MS);
  const close = () => client.close();
  if (request.signal.aborted) close();
  request.signal.addEventListener('abort', close, { once: true });
  const done = () => {
    request.signal.removeEventListener('abort', close);
    close();
  };
  try {
    await client.access({
      host: request.host,
      port: request.port,
      user: request.user,
      password: request.password,
      secure: false,
    });
  } catch (error) {
    done();
    if (error instanceof FTPError)
      return { kind: 'refused', stage: 'login', code: error.code, message: replyText(error) };
    throw error;
  }

  // The file streams into `body`; the answer is known at its first byte, or when RETR ends (empty file or refusal).
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let resume: (() => void) | null = null;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    pull() {
      const next = resume;
      resume = null;
      next?.();
    },
    cancel() {
      cancelled = true;
      done();
    },
  });
  return new Promise<FtpAnswer>((resolve, reject) => {
    let answered = false;
    const announce = () => {
      if (answered) return;
      answered = true;
      resolve({ kind: 'file', body });
    };
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        announce();
        if (cancelled) return callback();
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        // Backpressure: wait for the reader when its queue is full.
        if ((controller.desiredSize ?? 1) > 0) callback();
        else resume = () => callback();
      },
    });
    client.downloadTo(sink, request.path).then(
      () => {
        announce();
        if (!cancelled) controller.close();
        done();
      },
      (error: unknown) => {
        done();
        if (!answered) {
          answered = true;
          if (error instanceof FTPError) {
            resolve({ kind: 'refused', stage: 'retrieve', code: error.code, message: replyText(error) });
          } else {
            reject(error);
          }
        } else if (!cancelled) {
          controller.error(error);
        }
      },
    );
  });
};

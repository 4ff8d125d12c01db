/**
 * The engine's FTP client (`FtpGet`) for the service, on basic-ftp, under the same SSRF rules as the guarded `fetch`:
 * the host's name is resolved once through the guarded lookup (every address it returns is checked by the
 * `AddressPolicy`), the control connection is opened to exactly the checked address and its peer checked again, and
 * the data connection goes to that same address (EPSV, or PASV with any other host the server names refused, as
 * basic-ftp does unless told otherwise): a server cannot point the service at an address of its choosing. A refusal
 * is thrown as the engine's `BlockedFetchError`, so the retrieval reports `blocked`, as it does over HTTP.
 */

import type { LookupAddress, LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Writable } from 'node:stream';
import { Client, FTPError } from 'basic-ftp';
import { BlockedFetchError, type FtpAnswer, type FtpGet, type FtpRequest } from 'robotskit/fetch';
import type { AddressPolicy } from './address-policy.js';
import { AddressRefusedError, peerRefusal } from './address-refused-error.js';

/** basic-ftp's inactivity limit per socket; the engine's timeouts (which close the client) normally end things first. */
const SOCKET_TIMEOUT_MS = 30_000;

/** The reply text without its code (`530 Login incorrect.` → `Login incorrect.`). */
function replyText(error: FTPError): string {
  return error.message.replace(/^\d{3}[ -]?/, '').trim();
}

function blocked(refusal: AddressRefusedError): BlockedFetchError {
  return new BlockedFetchError(refusal.message, { cause: refusal });
}

/** The one address to connect to: an allowed IP literal, or the first of a name's addresses, all of them allowed. */
function checkedAddress(policy: AddressPolicy, lookup: LookupFunction, host: string): Promise<string> {
  if (isIP(host) !== 0) {
    const refusal = policy.check(host);
    return refusal === null
      ? Promise.resolve(host)
      : Promise.reject(blocked(new AddressRefusedError(host, host, refusal.range, refusal.description)));
  }
  return new Promise((resolve, reject) => {
    (lookup as unknown as (h: string, o: LookupAllOptions, cb: (e: Error | null, a: LookupAddress[]) => void) => void)(
      host,
      { all: true },
      (error, addresses) => {
        if (error instanceof AddressRefusedError) reject(blocked(error));
        else if (error) reject(error);
        else resolve((addresses[0] as LookupAddress).address);
      },
    );
  });
}

/** The file as a web stream fed by basic-ftp's download; the answer is known at its first byte or when RETR ends. */
function download(client: Client, request: FtpRequest, done: () => void): Promise<FtpAnswer> {
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
        // Backpressure: the next chunk waits until the reader wants more.
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
        if (answered) {
          if (!cancelled) controller.error(error);
        } else if (error instanceof FTPError) {
          answered = true;
          resolve({ kind: 'refused', stage: 'retrieve', code: error.code, message: replyText(error) });
        } else {
          answered = true;
          reject(error);
        }
      },
    );
  });
}

/** An FTP client for the engine that connects only where `policy` allows (names resolved through `lookup`). */
export function createGuardedFtp(policy: AddressPolicy, lookup: LookupFunction): FtpGet {
  return async (request) => {
    const address = await checkedAddress(policy, lookup, request.host);
    // The data connection may only go to the control connection's host (basic-ftp's default, said here on purpose).
    const client = new Client(SOCKET_TIMEOUT_MS, { allowSeparateTransferHost: false });
    const close = () => client.close();
    if (request.signal.aborted) close();
    request.signal.addEventListener('abort', close, { once: true });
    const done = () => {
      request.signal.removeEventListener('abort', close);
      close();
    };
    try {
      await client.connect(address, request.port);
      const refused = peerRefusal(policy, request.host, client.ftp.socket);
      if (refused !== null) throw blocked(refused);
      await client.login(request.user, request.password);
      await client.useDefaultSettings();
    } catch (error) {
      done();
      if (error instanceof FTPError)
        return { kind: 'refused', stage: 'login', code: error.code, message: replyText(error) };
      throw error;
    }
    return download(client, request, done);
  };
}

/**
 * The FTP client the engine is given, as types: the engine has no FTP client of its own (it has no runtime
 * dependencies); the caller injects one as {@link FtpGet}, like `fetch`. What its answers mean is the retrieval's
 * business (`retrieval/ftp.ts`).
 */

/** What {@link FtpGet} is asked to do: log in and read one file. */
export interface FtpRequest {
  /** The host name or address (an IPv6 address without brackets). */
  readonly host: string;
  /** 21 unless the URL names another port. */
  readonly port: number;
  /** The file to read, `/robots.txt`. */
  readonly path: string;
  /** `anonymous`, or the URL's user name. */
  readonly user: string;
  /** `anonymous@` for an anonymous login (by custom an address; servers do not check it), or the URL's password. */
  readonly password: string;
  /** Aborted when the retrieval ends early (timeout, size limit reached, caller's abort): close the connection. */
  readonly signal: AbortSignal;
}

/** What an FTP server answered. */
export type FtpAnswer =
  /** The file is coming: its bytes as a stream (cancelling it must end the transfer). */
  | { readonly kind: 'file'; readonly body: ReadableStream<Uint8Array> }
  /** The server refused: at login (`USER`/`PASS`) or at the retrieval (`RETR`), with its reply code and text. */
  | { readonly kind: 'refused'; readonly stage: 'login' | 'retrieve'; readonly code: number; readonly message: string };

/**
 * An FTP client, injected: logs in, sends `RETR`, and resolves with the answer. Rejects (or throws) only when the
 * server could not be talked to (DNS, connection, timeouts, a broken reply); the engine classifies those like a
 * failed fetch. In Node, the CLI's one is built on basic-ftp.
 */
export type FtpGet = (request: FtpRequest) => Promise<FtpAnswer>;

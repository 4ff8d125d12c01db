/**
 * A WHATWG `fetch` that refuses to connect to addresses a user-supplied host must not reach (see `AddressPolicy`).
 * The check is made on the resolved address at connect time, inside the connection itself: the name is resolved
 * once, every address it returned is checked, and the socket connects to exactly those addresses, so a name that
 * changes its answer between a check and a connect (DNS rebinding) cannot slip through. IP literals, which need no
 * resolution, are checked before connecting, and the connected socket's peer address is checked again. Each
 * redirect hop opens its own connection and so passes the same check, whether the caller follows redirects itself
 * (the engine's retrieval does) or lets fetch follow them. The same rules guard FTP (`ftp`, from `guarded-ftp.ts`).
 */

import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import type { FtpGet } from 'robotskit/fetch';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import { AddressPolicy, type AddressPolicyOptions } from './address-policy.js';
import { AddressRefusedError, peerRefusal } from './address-refused-error.js';
import { createGuardedFtp } from './guarded-ftp.js';

/** Options of {@link createGuardedFetch}. */
export interface GuardedFetchOptions extends AddressPolicyOptions {
  /**
   * Name resolution, as `dns.lookup` (tests inject one to simulate names that resolve to private addresses).
   * @default dns.lookup
   */
  readonly lookup?: LookupFunction;
  /**
   * Time allowed to establish a connection.
   * @default 10000
   */
  readonly connectTimeoutMs?: number;
}

/** The fetch function, plus a way to close its connection pool. */
export interface GuardedFetch {
  (input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** Closes idle connections; the function must not be used afterwards. */
  close(): Promise<void>;
  /**
   * Why a URL would be refused (its IP literal, or any address its name resolves to now), or null when it would
   * not be or its name does not resolve: for refusing a webhook when it is added rather than at every delivery.
   */
  refusalOf?(url: string | URL): Promise<AddressRefusedError | null>;
  /**
   * The engine's FTP client under the same address rules (`guarded-ftp.ts`), for `ftp://` robots.txt. Without one,
   * the engine does not fetch `ftp://` (its `blocked` error with the code `ERR_UNSUPPORTED_SCHEME`).
   */
  readonly ftp?: FtpGet;
  /**
   * The guard's name resolution (`dns.lookup`'s shape): refuses a name any of whose addresses is refused, for
   * connections made outside this fetch (the MCP tools' page GET) under the same rules.
   */
  readonly lookup?: LookupFunction;
  /**
   * The same guard over a connection pool of its own, to close when a piece of work ends (a sitemap walk): no
   * robots.txt fetch then reuses a connection it left open, which a server closing it meanwhile fails at once.
   */
  withOwnPool?(): GuardedFetch;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Wraps `lookup` so that every address a name resolves to is checked before any connection is made. */
export function guardedLookup(policy: AddressPolicy, lookup: LookupFunction): LookupFunction {
  return ((hostname: string, options: LookupOptions, callback: LookupCallback) => {
    const all: LookupAllOptions = { ...options, all: true };
    (lookup as unknown as (h: string, o: LookupAllOptions, cb: LookupCallback) => void)(
      hostname,
      all,
      (error, addresses) => {
        if (error) return callback(error, '');
        const list = (Array.isArray(addresses) ? addresses : [{ address: addresses, family: 4 }]) as LookupAddress[];
        if (list.length === 0) {
          const notFound: NodeJS.ErrnoException = new Error(`no address for ${hostname}`);
          notFound.code = 'ENOTFOUND';
          return callback(notFound, '');
        }
        for (const { address } of list) {
          const refusal = policy.check(address);
          if (refusal)
            return callback(new AddressRefusedError(hostname, address, refusal.range, refusal.description), '');
        }
        if (options.all) return callback(null, list);
        const first = list[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
    );
  }) as LookupFunction;
}

function refusalOf(error: unknown): AddressRefusedError | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof AddressRefusedError) return e;
  }
  return undefined;
}

/** Creates a guarded fetch. */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch {
  const policy = new AddressPolicy(options);
  const lookup = guardedLookup(policy, options.lookup ?? (dnsLookup as unknown as LookupFunction));
  const base = buildConnector({ lookup, timeout: options.connectTimeoutMs ?? 10_000 } as buildConnector.BuildOptions);

  const connect: buildConnector.connector = (connectOptions, callback) => {
    const host = connectOptions.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      const refusal = policy.check(host);
      if (refusal) {
        callback(new AddressRefusedError(host, host, refusal.range, refusal.description), null);
        return;
      }
    }
    base(connectOptions, (error, socket) => {
      if (error || !socket) return callback(error ?? new Error('connection failed'), null);
      const refused = peerRefusal(policy, host, socket as Socket);
      if (refused) {
        socket.destroy();
        return callback(refused, null);
      }
      callback(null, socket);
    });
  };

  const agent = new Agent({ connect });
  const guarded = (async (input: string | URL | Request, init?: RequestInit) => {
    try {
      return (await undiciFetch(
        input as Parameters<typeof undiciFetch>[0],
        { ...(init as object), dispatcher: agent } as Parameters<typeof undiciFetch>[1],
      )) as unknown as Response;
    } catch (error) {
      throw refusalOf(error) ?? error;
    }
  }) as GuardedFetch;
  guarded.close = () => agent.close();
  (guarded as { ftp?: FtpGet }).ftp = createGuardedFtp(policy, lookup);
  (guarded as { lookup?: LookupFunction }).lookup = lookup;
  guarded.withOwnPool = () => createGuardedFetch(options);
  guarded.refusalOf = async (url) => {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      const refusal = policy.check(host);
      return refusal ? new AddressRefusedError(host, host, refusal.range, refusal.description) : null;
    }
    return new Promise((resolve) => {
      (lookup as unknown as (h: string, o: LookupAllOptions, cb: (e: Error | null) => void) => void)(
        host,
        { all: true },
        (error) => resolve(error instanceof AddressRefusedError ? error : null),
      );
    });
  };
  return guarded;
}

/**
 * Writes need `Authorization: Bearer <token>` when a token is configured; reads stay open. The comparison takes the
 * same time whatever the token, so it cannot be guessed byte by byte, and guessing is throttled: a client address
 * that sent {@link WRONG_TOKENS_ALLOWED} wrong tokens within a minute gets 429 with `Retry-After` until that minute is
 * over, its requests with a token then not even compared (a right guess would pass otherwise). Requests without a
 * token and other addresses are not concerned; a right token costs nothing more and forgets the address's failures.
 */

import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { errorBody } from './errors.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Wrong tokens an address may send per window before it is refused with 429. */
export const WRONG_TOKENS_ALLOWED = 10;
const WINDOW_MS = 60_000;
/** Addresses remembered at most (an attacker with many addresses cannot grow the map without bound). */
const ADDRESSES_KEPT = 10_000;

/**
 * The wrong tokens of each client address in its current window (a fixed minute from its first failure). IPv6
 * clients count per /64, the block one host usually has, so hopping addresses inside it does not reset the count.
 */
class WrongTokens {
  readonly #windows = new Map<string, { start: number; count: number }>();
  constructor(readonly now: () => number) {}

  /** Milliseconds until `address` may try again, or 0 when it may now. */
  lockedFor(address: string): number {
    const window = this.#windows.get(keyOf(address));
    if (!window) return 0;
    const left = window.start + WINDOW_MS - this.now();
    if (left <= 0) {
      this.#windows.delete(keyOf(address));
      return 0;
    }
    return window.count >= WRONG_TOKENS_ALLOWED ? left : 0;
  }

  failed(address: string): void {
    const key = keyOf(address);
    const now = this.now();
    const window = this.#windows.get(key);
    if (window && now - window.start < WINDOW_MS) {
      window.count++;
      return;
    }
    this.#windows.delete(key);
    if (this.#windows.size >= ADDRESSES_KEPT) this.#forgetOld(now);
    this.#windows.set(key, { start: now, count: 1 });
  }

  succeeded(address: string): void {
    this.#windows.delete(keyOf(address));
  }

  /** Drops ended windows, and when every window is live the oldest (first inserted) one. */
  #forgetOld(now: number): void {
    for (const [key, window] of this.#windows) if (now - window.start >= WINDOW_MS) this.#windows.delete(key);
    if (this.#windows.size >= ADDRESSES_KEPT) {
      const oldest = this.#windows.keys().next();
      if (!oldest.done) this.#windows.delete(oldest.value);
    }
  }
}

function keyOf(address: string): string {
  if (isIP(address) !== 6) return address;
  const parsed = ipaddr.parse(address) as ipaddr.IPv6;
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${parsed.parts.slice(0, 4).join(':')}::/64`;
}

/**
 * An onRequest hook that refuses writes without the token, and the reads of `guardedReads` (route patterns such as
 * `/api/fetch`) too; wrong tokens are throttled per client address.
 */
export function requireTokenForWrites(
  token: string,
  guardedReads: readonly string[] = [],
  now: () => number = Date.now,
) {
  const expected = digest(token);
  const guarded = new Set(guardedReads);
  const wrong = new WrongTokens(now);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (READ_METHODS.has(request.method) && !guarded.has(request.routeOptions.url ?? '')) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (match) {
      const locked = wrong.lockedFor(request.ip);
      if (locked > 0) {
        const seconds = Math.ceil(locked / 1000);
        reply.header('retry-after', String(seconds));
        return reply
          .status(429)
          .send(
            errorBody(
              'too-many-failed-tokens',
              `${WRONG_TOKENS_ALLOWED} wrong tokens from this address within a minute; try again in ${seconds} s`,
            ),
          );
      }
      if (timingSafeEqual(digest(match[1] as string), expected)) {
        wrong.succeeded(request.ip);
        return;
      }
      wrong.failed(request.ip);
    }
    reply.header('www-authenticate', 'Bearer');
    return reply
      .status(401)
      .send(
        errorBody(
          'unauthorized',
          header
            ? 'the bearer token is wrong'
            : READ_METHODS.has(request.method)
              ? 'this server requires Authorization: Bearer <token> for requests that fetch from its private network'
              : 'this server requires Authorization: Bearer <token> for changes',
        ),
      );
  };
}

/** Whether `host` only accepts connections from this machine: `localhost`, or a loopback address in any notation. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 0) return false;
  const address = ipaddr.parse(h);
  const plain =
    address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
      ? (address as ipaddr.IPv6).toIPv4Address()
      : address;
  return plain.range() === 'loopback';
}

/**
 * Writes need `Authorization: Bearer <token>` when a token is configured; reads stay open. The comparison takes the
 * same time whatever the token, so it cannot be guessed byte by byte.
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

/**
 * An onRequest hook that refuses writes without the token, and the reads of `guardedReads` (route patterns such as
 * `/api/fetch`) too.
 */
export function requireTokenForWrites(token: string, guardedReads: readonly string[] = []) {
  const expected = digest(token);
  const guarded = new Set(guardedReads);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (READ_METHODS.has(request.method) && !guarded.has(request.routeOptions.url ?? '')) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (match && timingSafeEqual(digest(match[1] as string), expected)) return;
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

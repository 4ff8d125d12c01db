/**
 * Writes need `Authorization: Bearer <token>` when a token is configured; reads stay open. The comparison takes the
 * same time whatever the token, so it cannot be guessed byte by byte.
 */

import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.js';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** An onRequest hook that refuses writes without the token. */
export function requireTokenForWrites(token: string) {
  const expected = digest(token);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (READ_METHODS.has(request.method)) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header.trim());
    if (match && timingSafeEqual(digest(match[1] as string), expected)) return;
    reply.header('www-authenticate', 'Bearer');
    return reply
      .status(401)
      .send(
        errorBody(
          'unauthorized',
          header ? 'the bearer token is wrong' : 'this server requires Authorization: Bearer <token> for changes',
        ),
      );
  };
}

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

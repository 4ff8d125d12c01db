/**
 * The Host check against DNS rebinding: a web page on another site can make the browser send requests to this
 * service through a name the attacker controls that resolves to the service's address. Such a request carries the
 * attacker's name in `Host`, so only the service's own names are accepted: any IP address in any notation (a
 * rebinding attack needs a name), `localhost` and `*.localhost`, the name the service is bound to, and the names the
 * operator lists (`allowedHosts`, `*.example.com` for a domain and its subdomains, or `*` to turn the check off).
 */

import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.js';

/**
 * The host part of a `Host` header as a URL parser reads it (the notation a browser sends): without the port,
 * brackets and a final dot, lower-cased, IPv4 shorthand (`127.1`) expanded. Empty when it is not a host.
 */
export function hostName(header: string): string {
  let host: string;
  try {
    host = new URL(`http://${header.trim()}/`).hostname;
  } catch {
    return '';
  }
  return host.replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

/** Whether `host` (a host name as {@link hostName} gives it) may address the service. */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  if (host === '') return false;
  if (isIP(host) !== 0) return true;
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  for (const entry of allowed) {
    const name = entry.trim().toLowerCase().replace(/\.$/, '');
    if (name === '*' || name === host) return true;
    if (name.startsWith('*.') && (host === name.slice(2) || host.endsWith(name.slice(1)))) return true;
  }
  return false;
}

/** An onRequest hook that refuses requests whose `Host` is not one of the service's names (403 `host-not-allowed`). */
export function requireAllowedHost(allowed: readonly string[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.host ?? '';
    const host = hostName(header);
    if (hostAllowed(host, allowed)) return;
    return reply
      .status(403)
      .send(
        errorBody(
          'host-not-allowed',
          `this service does not answer to the host name ${JSON.stringify(host.slice(0, 100))}; start it with --allowed-hosts ${host.slice(0, 100) || '<name>'} to allow it`,
        ),
      );
  };
}

/**
 * Headers for every response: the web UI loads only its own scripts and styles, may not be framed (clickjacking),
 * and sends no referrer; content types are not sniffed. The API's JSON gets them too (harmless there).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Cross-site request protection. Without a token (the default on loopback) a web page on any other site could make
 * the browser send state-changing requests to the service: a bodiless `fetch(…, { mode: 'no-cors', method: 'POST' })`
 * or `navigator.sendBeacon` needs no CORS preflight, and the service would recrawl, send test deliveries or discover
 * hosts for it. Browsers say where such a request comes from in headers a page cannot set: `Sec-Fetch-Site`
 * (`same-origin`, `same-site`, `cross-site`, `none` for what the user typed) and `Origin`. Every method but
 * GET/HEAD/OPTIONS is refused (403 `cross-site-request`) unless `Sec-Fetch-Site` says `same-origin` or `none`, or,
 * from a browser that sends no `Sec-Fetch-Site`, `Origin` names the host the request was sent to. A page on another
 * port of the same machine is `same-site`, and refused too. Clients that are not browsers (the CLI, curl, scripts)
 * send neither header and are not concerned.
 */

import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why a request is cross-site, or null when it is not (or says nothing: not a browser). */
export function crossSiteReason(method: string, headers: FastifyRequest['headers']): string | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const fetchSite = headerOf(headers['sec-fetch-site']);
  if (fetchSite !== undefined) {
    const site = fetchSite.trim().toLowerCase();
    return site === 'same-origin' || site === 'none' ? null : `the browser says it comes from a ${site} page`;
  }
  const origin = headerOf(headers.origin);
  if (origin === undefined) return null;
  const from = urlOf(origin.trim());
  // The Host header read with the origin's scheme, so that a default port written or left out compares equal.
  const to = from === null ? null : urlOf(`${from.protocol}//${headerOf(headers.host)?.trim() ?? ''}`);
  if (from !== null && to !== null && from.host === to.host) return null;
  return `it comes from ${from === null ? 'an opaque origin' : JSON.stringify(origin.trim().slice(0, 100))}`;
}

function urlOf(text: string): URL | null {
  try {
    return text === 'null' ? null : new URL(text);
  } catch {
    return null;
  }
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** An onRequest hook that refuses cross-site state-changing requests (403 `cross-site-request`). */
export function refuseCrossSite() {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const reason = crossSiteReason(request.method, request.headers);
    if (reason === null) return;
    return reply
      .status(403)
      .send(
        errorBody(
          'cross-site-request',
          `refused a ${request.method} from another site (${reason}): changes are accepted only from this service's own pages or from clients that are not browsers`,
        ),
      );
  };
}

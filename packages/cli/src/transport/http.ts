/**
 * The one HTTP(S) client of the CLI: a GET over Node's own `node:http` / `node:https` (no Request, Response or Headers
 * objects, no fetch algorithm, no connection pool), a connection of its own per request (`agent: false`), closed once
 * the answer is read. Both the robots.txt transport (`fetch.ts`, shaped as the engine's `fetch`) and `audit`'s page
 * GET (`page.ts`) send their requests here and decode bodies with `decode.ts`. A robots.txt is fetched once per site,
 * so nothing is kept per site for a run; and Node keeps repeated header lines apart, which `audit` needs.
 */

import { type ClientRequest, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/** An answer's head, with the request it answers. */
interface OpenedGet {
  readonly answer: IncomingMessage;
  readonly request: ClientRequest;
  /**
   * The connection's error once the head has come (a reset while the body is read), which says better than the body
   * stream's own error why the body broke off; null while there is none.
   */
  readonly connection: { readonly error: unknown };
}

/**
 * Sends a GET of an http or https URL with exactly `headers`, and resolves with the answer's head. Rejects with
 * Node's error when no answer comes (DNS, connection, TLS, the parser refusing it), or `signal`'s reason's error
 * once it is aborted (Node destroys the request then, body included).
 */
/**
 * The request target of a URL: its path and query as serialised, fragment dropped. Not `pathname + search` alone:
 * `search` is empty for a lone `?`, which the URL keeps (`/search?` is decided, and so requested, with its `?`).
 */
function requestPath(target: URL): string {
  if (target.search !== '') return `${target.pathname}${target.search}`;
  const hash = target.href.indexOf('#');
  const end = hash < 0 ? target.href.length : hash;
  return target.href.charCodeAt(end - 1) === 0x3f ? `${target.pathname}?` : target.pathname;
}

export function openGet(
  target: URL,
  headers: Record<string, string>,
  signal?: AbortSignal,
  lookup?: LookupFunction,
): Promise<OpenedGet> {
  const https = target.protocol === 'https:';
  const options: RequestOptions = {
    protocol: target.protocol,
    // An IPv6 address without its brackets.
    hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
    path: requestPath(target),
    method: 'GET',
    headers,
    agent: false,
  };
  if (signal !== undefined) options.signal = signal;
  // A guard's name resolution (the service's SSRF guard): the connection goes to the addresses it checked.
  if (lookup !== undefined) options.lookup = lookup;
  if (target.port !== '') options.port = Number(target.port);
  const connection: { error: unknown } = { error: null };
  return new Promise<OpenedGet>((resolve, reject) => {
    const request = (https ? httpsRequest : httpRequest)(options, (answer) => resolve({ answer, request, connection }));
    request.on('error', (error) => {
      connection.error = error;
      reject(error);
    });
    request.end();
  });
}

/** Every value of a header as sent, one per line it came in (Node keeps lines apart in `rawHeaders`). */
export function headerLines(answer: IncomingMessage, name: string): string[] {
  const lower = name.toLowerCase();
  const lines: string[] = [];
  const raw = answer.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === lower) lines.push(raw[i + 1]!);
  }
  return lines;
}

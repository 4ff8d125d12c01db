/**
 * Every error the API returns has the same JSON shape, `{ error: { code, message } }`, with a stable kebab-case code
 * and the HTTP status that fits. Fastify's own errors (validation, malformed JSON, wrong content type, body too large,
 * unknown route) are translated into it; anything unexpected is a 500 whose details go to the log, not the client.
 */

import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AnalysisMemoryError } from '../analysis/threads.js';
import { RobotskitServerError } from '../errors.js';
import { isDatabaseTimeout, isDatabaseUnavailable } from '../storage/connection-errors.js';

/** The error codes of the API. */
type ApiErrorCode =
  | 'invalid-request'
  | 'invalid-json'
  | 'invalid-property'
  | 'property-exists'
  | 'not-found'
  | 'unauthorized'
  | 'unsupported-media-type'
  | 'payload-too-large'
  | 'method-not-allowed'
  | 'database-unavailable'
  | 'host-not-allowed'
  | 'cross-site-request'
  | 'too-many-failed-tokens'
  | 'service-busy'
  | 'headers-too-large'
  | 'request-timeout'
  | 'internal-error';

/** An error meant for the client. */
export class ApiError extends RobotskitServerError {
  declare readonly code: ApiErrorCode;
  constructor(
    readonly statusCode: number,
    code: ApiErrorCode,
    message: string,
    options?: ErrorOptions & {
      /** Sent as `Retry-After` (a 429 or 503 saying when to come back). */
      readonly retryAfterSeconds?: number;
    },
  ) {
    super(code, message, options);
    this.retryAfterSeconds = options?.retryAfterSeconds;
  }
  readonly retryAfterSeconds: number | undefined;
}

/** A `since` date the client typed (ISO 8601), or a 400 naming it; undefined when none was given. */
export function sinceOr400(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const since = Date.parse(text);
  if (Number.isNaN(since)) throw new ApiError(400, 'invalid-request', `since is not a date: ${text}`);
  return since;
}

/** The body of every error response. */
export function errorBody(code: ApiErrorCode, message: string) {
  return { error: { code, message } };
}

/** Fastify error codes and what the client is told. */
const FASTIFY_CODES: Record<string, [number, ApiErrorCode]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid-json'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid-json'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported-media-type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid-request'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload-too-large'],
  FST_ERR_BAD_URL: [400, 'invalid-request'],
  // A path parameter longer than the router accepts names nothing there is: 404, as when the UI's catch-all route
  // (registered only when the UI is built) takes the path instead, so the API answers alike with or without the UI.
  FST_ERR_MAX_PARAM_LENGTH: [404, 'not-found'],
  FST_ERR_ASYNC_CONSTRAINT: [400, 'invalid-request'],
};

/** Fastify's error handler: every error becomes `{ error: { code, message } }`. */
export function handleError(error: FastifyError | ApiError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof ApiError) {
    if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
    return reply.status(error.statusCode).send(errorBody(error.code, error.message));
  }
  if (error instanceof AnalysisMemoryError)
    return reply.status(413).send(errorBody('payload-too-large', error.message));
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return reply.status(400).send(errorBody('invalid-request', fastifyError.message));
  }
  const mapped = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (mapped) {
    const [status, code] = mapped;
    const message =
      code === 'invalid-json'
        ? `the request body is not valid JSON: ${fastifyError.message}`
        : code === 'payload-too-large'
          ? `the request body is larger than the ${request.routeOptions.bodyLimit ?? ''} bytes this route accepts`
          : fastifyError.message;
    return reply.status(status).send(errorBody(code, message));
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return reply.status(400).send(errorBody('invalid-json', `the request body is not valid JSON: ${error.message}`));
  }
  if (fastifyError.statusCode !== undefined && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return reply.status(fastifyError.statusCode).send(errorBody('invalid-request', fastifyError.message));
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    const message = isDatabaseTimeout(error)
      ? 'the database did not answer in time (stalled or overloaded; the URL’s query_timeout and connect_timeout are the limits); try again shortly'
      : 'the database is unavailable right now (reconnecting); try again shortly';
    return reply.status(503).header('retry-after', '5').send(errorBody('database-unavailable', message));
  }
  request.log.error({ err: error }, 'request failed');
  return reply.status(500).send(errorBody('internal-error', 'the server failed to handle the request; see its log'));
}

/**
 * A JSON request body, parsed; a `__proto__` key (or a `constructor` holding a `prototype`), which could change the
 * prototype of objects built from it, is refused with a 400 saying so.
 */
export function parseJsonBody(text: string): unknown {
  let value: unknown;
  try {
    // Without a reviver: one costs a call per value (150 ms for 10,000 URLs), and the keys are checked after.
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'invalid-json', `the request body is not valid JSON: ${(error as Error).message}`);
  }
  const key = forbiddenKey(value);
  if (key !== null)
    throw new ApiError(400, 'invalid-json', `the request body has a "${key}" key, which the API refuses`);
  return value;
}

/** The first `__proto__` key (or `constructor` holding a `prototype`) anywhere in a parsed value, or null. */
function forbiddenKey(root: unknown): string | null {
  const stack: object[] = typeof root === 'object' && root !== null ? [root] : [];
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    // JSON.parse makes `__proto__` an own key like any other: it is listed here.
    for (const [key, child] of Object.entries(value)) {
      const isObject = typeof child === 'object' && child !== null;
      if (key === '__proto__' || (key === 'constructor' && isObject && 'prototype' in child)) return key;
      if (isObject) stack.push(child);
    }
  }
  return null;
}

/** What Node refuses before any route, and how the API says it. */
const CLIENT_ERRORS: Record<string, [number, string, ApiErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    431,
    'Request Header Fields Too Large',
    'headers-too-large',
    'the request headers are too large',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'Request Timeout',
    'request-timeout',
    'the request (headers and body) was not received in time; the connection is closed',
  ],
};

/**
 * Node's refusals of a request it could not read (headers too large, malformed, too slow), answered in the API's
 * error shape on the raw socket, which is then closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? [
    400,
    'Bad Request',
    'invalid-request',
    'the request is not valid HTTP',
  ];
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

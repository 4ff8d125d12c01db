/**
 * Every error the API returns has the same JSON shape, `{ error: { code, message } }`, with a stable kebab-case code
 * and the HTTP status that fits. Fastify's own errors (validation, malformed JSON, wrong content type, body too large,
 * unknown route) are translated into it; anything unexpected is a 500 whose details go to the log, not the client.
 */

import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { RobotskitServerError } from '../errors.js';
import { isDatabaseUnavailable } from '../storage/connection-errors.js';

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
  | 'internal-error';

/** An error meant for the client. */
export class ApiError extends RobotskitServerError {
  declare readonly code: ApiErrorCode;
  constructor(
    readonly statusCode: number,
    code: ApiErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(code, message, options);
  }
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
    return reply.status(error.statusCode).send(errorBody(error.code, error.message));
  }
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
    return reply
      .status(503)
      .header('retry-after', '5')
      .send(
        errorBody('database-unavailable', 'the database is unavailable right now (reconnecting); try again shortly'),
      );
  }
  request.log.error({ err: error }, 'request failed');
  return reply.status(500).send(errorBody('internal-error', 'the server failed to handle the request; see its log'));
}

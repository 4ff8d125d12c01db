/**
 * The API client: every call to the service goes through {@link apiGet} / {@link apiSend}, which parse JSON and turn
 * the service's `{ error: { code, message } }` bodies, network failures and non-JSON answers into {@link ApiError}s
 * with a message fit to show. Paths are the service's (`/api/properties`); the UI is always served by the service
 * itself, so they are same-origin.
 */

/** A failed API call, with a message fit to show. */
export class ApiError extends Error {
  constructor(
    message: string,
    /** HTTP status, 0 when the service could not be reached. */
    readonly status: number,
    /** The service's error code (`not-found`, `invalid-request`…), `network` or `bad-response`. */
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(signal ? { signal } : {}),
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError('The robotskit service could not be reached. Is it still running?', 0, 'network');
  }
  const text = await response.text();
  let data: unknown = null;
  if (text !== '') {
    try {
      data = JSON.parse(text);
    } catch {
      throw new ApiError(
        `The service answered ${path} with something other than JSON (HTTP ${response.status}).`,
        response.status,
        'bad-response',
      );
    }
  }
  if (!response.ok) {
    const error = (data as { error?: { code?: unknown; message?: unknown } } | null)?.error;
    const code = typeof error?.code === 'string' ? error.code : 'http-error';
    const message = typeof error?.message === 'string' ? error.message : `HTTP ${response.status} from ${path}`;
    throw new ApiError(message, response.status, code);
  }
  return data as T;
}

/** GET `path` and return its JSON. */
export function apiGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  return call<T>('GET', path, undefined, signal);
}

/** POST/DELETE… `path` with a JSON body and return the JSON answer. */
export function apiSend<T>(method: 'POST' | 'DELETE' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<T> {
  return call<T>(method, path, body);
}

/**
 * The API client: every call to the service goes through {@link apiGet} / {@link apiSend}, which parse JSON and turn
 * the service's `{ error: { code, message } }` bodies, network failures and non-JSON answers into {@link ApiError}s
 * with a message fit to show. Paths are the service's (`/api/properties`); the UI is always served by the service
 * itself, so they are same-origin.
 *
 * A service started with `--token` wants `Authorization: Bearer <token>` on writes. The token a person types (see
 * `components/api-error.tsx`) is kept in this browser's local storage and sent with every call.
 */

const TOKEN_KEY = 'robotskit.token';

/** The access token saved in this browser, or null. */
export function apiToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/** Saves (or, with null, forgets) the access token sent with every call. */
export function setApiToken(token: string | null): void {
  try {
    if (token === null || token === '') localStorage.removeItem(TOKEN_KEY);
    else localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage refused (private mode): the token lasts until the page is closed.
  }
  memoryToken = token === '' ? null : token;
}

let memoryToken: string | null = null;

function authHeaders(): Record<string, string> {
  const token = apiToken() ?? memoryToken;
  return token === null ? {} : { authorization: `Bearer ${token}` };
}

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

/** Any failure as an {@link ApiError}: the error itself, or one saying what went wrong unexpectedly. */
export function toApiError(cause: unknown): ApiError {
  return cause instanceof ApiError
    ? cause
    : new ApiError(cause instanceof Error ? cause.message : String(cause), 0, 'unexpected');
}

async function call<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let response: Response;
  try {
    const raw = body instanceof Blob;
    response = await fetch(path, {
      method,
      headers:
        body === undefined
          ? { accept: 'application/json', ...authHeaders() }
          : {
              accept: 'application/json',
              'content-type': raw ? 'application/octet-stream' : 'application/json',
              ...authHeaders(),
            },
      ...(body === undefined ? {} : { body: raw ? body : JSON.stringify(body) }),
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

/** POST/DELETE… `path` with a JSON body and return the JSON answer (null for an empty one, as a 204 has). */
export function apiSend<T>(
  method: 'POST' | 'DELETE' | 'PUT' | 'PATCH',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  return call<T>(method, path, body, signal);
}

/** POST a file's bytes as they are (an access log) to `path` and return the JSON answer. */
export function apiUpload<T>(path: string, file: Blob, signal?: AbortSignal): Promise<T> {
  return call<T>('POST', path, file, signal);
}

/** GET `path` as bytes (a version's exact content). */
export async function apiBytes(path: string, signal?: AbortSignal): Promise<Uint8Array> {
  let response: Response;
  try {
    response = await fetch(path, { headers: authHeaders(), ...(signal ? { signal } : {}) });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiError('The robotskit service could not be reached. Is it still running?', 0, 'network');
  }
  if (!response.ok) {
    let message = `HTTP ${response.status} from ${path}`;
    let code = 'http-error';
    try {
      const error = ((await response.json()) as { error?: { code?: unknown; message?: unknown } }).error;
      if (typeof error?.message === 'string') message = error.message;
      if (typeof error?.code === 'string') code = error.code;
    } catch {
      // Not JSON: keep the status line.
    }
    throw new ApiError(message, response.status, code);
  }
  return new Uint8Array(await response.arrayBuffer());
}

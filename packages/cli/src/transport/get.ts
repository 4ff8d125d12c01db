/**
 * A plain GET for the files `logs` reads over HTTP (the report service's API, published address ranges): undici's
 * `fetch` with a deadline over the whole exchange and a cap on the body, redirects followed. Not for robots.txt (the
 * engine's retrieval has its own rules for those): these answers are read as their status says. undici is loaded on
 * the first GET: `logs` with local files only never pays for loading it (a tenth of a second of CPU).
 */

/** An answer read whole. */
export interface GotAnswer {
  readonly status: number;
  /** A header's value (lower-case name), null when absent. */
  header(name: string): string | null;
  readonly body: Uint8Array;
}

/** Why no answer came: in words fit for a one-line error (`connection refused`, `timed out after 10 s`…). */
export class GetError extends Error {}

const CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS failed)',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function reasonOf(error: unknown, timeoutMs: number): string {
  const name = (error as Error | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause !== undefined && cause !== null; depth++) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code !== undefined && CODES[code] !== undefined) return CODES[code]!;
    if (code?.startsWith('E')) return code;
    cause = (cause as Error).cause;
  }
  return (error as Error | null)?.message || String(error);
}

/**
 * GETs `url` with `headers`; resolves with the answer whatever its status. Rejects with {@link GetError} when no
 * answer comes within `timeoutMs` or its body is over `maxBytes`.
 */
export async function getUrl(
  url: string,
  options: { readonly headers?: Record<string, string>; readonly timeoutMs: number; readonly maxBytes: number },
): Promise<GotAnswer> {
  const { fetch: undiciFetch } = await import('undici');
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const answer = await undiciFetch(url, { headers: options.headers ?? {}, signal, redirect: 'follow' });
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (answer.body !== null) {
      for await (const chunk of answer.body as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > options.maxBytes) {
          await answer.body.cancel().catch(() => {});
          throw new GetError(`the answer is over ${Math.round(options.maxBytes / 1024)} KiB`);
        }
        chunks.push(chunk);
      }
    }
    const body = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      body.set(chunk, at);
      at += chunk.byteLength;
    }
    return { status: answer.status, header: (name) => answer.headers.get(name), body };
  } catch (error) {
    if (error instanceof GetError) throw error;
    throw new GetError(reasonOf(error, options.timeoutMs), { cause: error });
  }
}

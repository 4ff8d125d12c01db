/**
 * The fetch of a batch run that can be stopped: once the run's signal is aborted, every robots.txt request in flight
 * ends, its body included, so nothing keeps the process waiting for a slow site.
 */

import type { AnyFetchLike, FetchLike } from 'robotskit/fetch';

/**
 * `fetch` whose requests, bodies included, are all aborted when `signal` is. Each request gets its own controller,
 * tied to the request's own signal and kept in a set until its body ends; one listener on `signal` aborts them all.
 * (`AbortSignal.any([init.signal, signal])` per request would do the same, but in Node 20 a long-lived source signal
 * keeps every signal derived from it: about 1 KB per request for the whole run.)
 */
export function abortableFetch(base: FetchLike, signal: AbortSignal): FetchLike;
export function abortableFetch(base: AnyFetchLike, signal: AbortSignal): AnyFetchLike;
export function abortableFetch(base: AnyFetchLike, signal: AbortSignal): AnyFetchLike {
  const active = new Set<AbortController>();
  signal.addEventListener('abort', () => {
    for (const controller of active) controller.abort(signal.reason);
    active.clear();
  });
  return async (url, init) => {
    const controller = new AbortController();
    const release = () => {
      active.delete(controller);
      init.signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      release();
      controller.abort(init.signal.reason);
    };
    if (signal.aborted || init.signal.aborted) controller.abort(signal.aborted ? signal.reason : init.signal.reason);
    else {
      active.add(controller);
      init.signal.addEventListener('abort', onAbort, { once: true });
    }
    let response: Awaited<ReturnType<AnyFetchLike>>;
    try {
      response = await base(url, { ...init, signal: controller.signal });
    } catch (error) {
      release();
      throw error;
    }
    const body = response.body;
    if (body === null) {
      release();
      return response;
    }
    // The body passes through as it is read; the request is released when it ends, fails or is cancelled.
    // An iterable body (robotsRequest's) stays one: no web stream is made of it.
    const tracked = body instanceof ReadableStream ? trackedStream(body, release) : trackedIterable(body, release);
    return {
      status: response.status,
      headers: response.headers,
      body: tracked,
      ...(response.type === undefined ? {} : { type: response.type }),
      ...(response.url === undefined ? {} : { url: response.url }),
      ...(response.redirected === undefined ? {} : { redirected: response.redirected }),
    };
  };
}

/** `body` as it is read, `release` called when it ends, fails or is cancelled. */
function trackedStream(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(out) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          out.close();
        } else out.enqueue(value);
      } catch (error) {
        release();
        out.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

/** {@link trackedStream} for an async-iterable body. */
function trackedIterable(body: AsyncIterable<Uint8Array>, release: () => void): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => {
      const inner = body[Symbol.asyncIterator]();
      return {
        async next() {
          try {
            const step = await inner.next();
            if (step.done) release();
            return step;
          } catch (error) {
            release();
            throw error;
          }
        },
        async return(value?: unknown) {
          release();
          return (await inner.return?.(value)) ?? { done: true, value: undefined };
        },
      };
    },
  };
}

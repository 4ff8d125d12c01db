/**
 * A response body given as an async iterable (`AnyFetchResponseLike`) (a Node stream, an async generator) instead of a web ReadableStream:
 * the engine must read it exactly as the same chunks in a web stream (bytes, size, truncation, errors, outcome), and
 * release it (its iterator's `return`) whenever it stops before the end.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AnyFetchLike,
  type AnyFetchResponseLike,
  fetchRobotsTxt,
  httpGet,
  type RetrievalResult,
} from '../../src/fetch/index.js';

interface Plan {
  readonly status: number;
  readonly chunks: readonly Uint8Array[];
  /** Fail after this many chunks (null: end normally). */
  readonly failAfter: number | null;
  readonly maxBytes: number;
}

const plans: fc.Arbitrary<Plan> = fc.record({
  status: fc.constantFrom(200, 200, 200, 204, 404, 429, 503),
  chunks: fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }),
  failAfter: fc.option(fc.integer({ min: 0, max: 8 }), { nil: null }),
  maxBytes: fc.integer({ min: 0, max: 200 }),
});

function failure(): Error {
  return new TypeError('terminated', { cause: Object.assign(new Error('other side closed'), { code: 'ECONNRESET' }) });
}

function asStream(plan: Plan): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (plan.failAfter !== null && at >= plan.failAfter) return controller.error(failure());
      if (at >= plan.chunks.length) return controller.close();
      controller.enqueue(plan.chunks[at++]!);
    },
  });
}

/** The plan's chunks as an async generator; `released` counts the calls of its `return` before its end. */
function asIterable(plan: Plan, state: { released: number; ended: boolean }): AsyncIterable<Uint8Array> {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let at = 0; ; at++) {
      if (plan.failAfter !== null && at >= plan.failAfter) throw failure();
      if (at >= plan.chunks.length) break;
      yield plan.chunks[at]!;
    }
    state.ended = true;
  }
  const generator = chunks();
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => generator.next(),
      return: (value?: unknown) => {
        state.released++;
        return generator.return(value);
      },
    }),
  };
}

const headers = { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'text/plain' : null) };

function fetchOf(body: () => AnyFetchResponseLike['body'], status: number): AnyFetchLike {
  return async () => ({ status, headers, body: body() });
}

function comparable(r: RetrievalResult) {
  const { fetchedAt: _f, timings: _t, ...rest } = r;
  return rest;
}

describe('an async-iterable response body', () => {
  it('reads as the same chunks in a web stream do, and is released whenever it is not read to its end', async () => {
    await fc.assert(
      fc.asyncProperty(plans, async (plan) => {
        const state = { released: 0, ended: false };
        const options = { maxBytes: plan.maxBytes, clock: { now: () => 0 } };
        const fromStream = await fetchRobotsTxt('https://a.test/', {
          ...options,
          fetch: fetchOf(() => asStream(plan), plan.status),
        });
        const fromIterable = await fetchRobotsTxt('https://a.test/', {
          ...options,
          fetch: fetchOf(() => asIterable(plan, state), plan.status),
        });
        expect(comparable(fromIterable)).toEqual(comparable(fromStream));
        // Read to its end, or released (a failed body has nothing left to release).
        const failed = fromIterable.error !== null && fromIterable.error.phase === 'body';
        if (!state.ended && !failed) expect(state.released).toBe(1);
        if (state.ended) expect(state.released).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('is released when the idle timeout ends a stalled read', async () => {
    let released = false;
    const stalled: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<Uint8Array>>(() => {}),
        return: async () => {
          released = true;
          return { done: true, value: undefined };
        },
      }),
    };
    const result = await fetchRobotsTxt('https://a.test/', {
      fetch: fetchOf(() => stalled, 200),
      timeouts: { idle: 20 },
    });
    expect(result.outcome).toBe('disallow-all');
    expect(result.error?.kind).toBe('timeout');
    expect(result.error?.phase).toBe('body');
    expect(released).toBe(true);
  });

  it('is read by httpGet chunk by chunk, and released by close', async () => {
    const plan: Plan = {
      status: 200,
      chunks: [new TextEncoder().encode('User-agent: *\n'), new TextEncoder().encode('Disallow: /x\n')],
      failAfter: null,
      maxBytes: 100,
    };
    const state = { released: 0, ended: false };
    const whole = await httpGet('https://a.test/sitemap.xml', { fetch: fetchOf(() => asIterable(plan, state), 200) });
    if (!whole.ok) throw new Error('expected a body');
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of whole.chunks) text += decoder.decode(chunk);
    expect(text).toBe('User-agent: *\nDisallow: /x\n');
    expect(whole.bodyError()).toBeNull();
    whole.close();

    const early = { released: 0, ended: false };
    const opened = await httpGet('https://a.test/sitemap.xml', { fetch: fetchOf(() => asIterable(plan, early), 200) });
    if (!opened.ok) throw new Error('expected a body');
    opened.close();
    expect(early.released).toBe(1);
  });
});

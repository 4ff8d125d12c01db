/**
 * Bounds on the work one request may ask for, and CPU work done in slices so other requests (health checks above
 * all) are answered meanwhile. Each limit is documented in the README and named in the 413 that refuses it.
 */

import type { FastifyReply } from 'fastify';
import { ApiError } from './errors.js';

/**
 * `POST /api/test` and `POST /api/impact`: the request body, in bytes. Generous, so a robots.txt of any size Google
 * meets can be sent whole: the engine parses its first 500 KiB (512,000 bytes, as Google does) and the answer says
 * when it left the rest out.
 */
export const MAX_ROBOTS_BODY_BYTES = 8 * 1024 * 1024;
/** `POST /api/test`: verdicts (URLs × crawlers) per request. */
export const MAX_TEST_VERDICTS = 10_000;
/** `POST /api/test`: the answer's size, estimated while the verdicts are computed (long quoted lines add up). */
export const MAX_TEST_ANSWER_BYTES = 16 * 1024 * 1024;
/** CPU time between two yields to the event loop. */
const SLICE_MS = 10;

/** Refuses more verdicts than {@link MAX_TEST_VERDICTS}, saying how many were asked for. */
export function checkVerdictCount(urls: number, crawlers: number): void {
  const verdicts = urls * crawlers;
  if (verdicts > MAX_TEST_VERDICTS) {
    throw new ApiError(
      413,
      'payload-too-large',
      `${urls} URLs × ${crawlers} crawlers = ${verdicts} verdicts; at most ${MAX_TEST_VERDICTS} per request (split it into several)`,
    );
  }
}

/** A signal aborted when the client goes away before its answer is sent. */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client went away'));
  });
  return controller.signal;
}

/**
 * Runs CPU work in slices of about {@link SLICE_MS}: `tick()` between two units of work yields to the event loop
 * when the slice is used up, and throws once `signal` is aborted (the client left: its work is dropped).
 */
export class WorkSlicer {
  #sliceStart = performance.now();
  /** Yields this many times so far (for tests and logs). */
  yields = 0;

  constructor(
    private readonly signal?: AbortSignal,
    private readonly sliceMs = SLICE_MS,
  ) {}

  async tick(): Promise<void> {
    if (performance.now() - this.#sliceStart < this.sliceMs) return;
    await new Promise((resolve) => setImmediate(resolve));
    this.yields++;
    this.signal?.throwIfAborted();
    this.#sliceStart = performance.now();
  }
}

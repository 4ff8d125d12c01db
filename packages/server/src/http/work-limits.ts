/**
 * Bounds on the work one request may ask for, and CPU work done in slices so other requests (health checks above
 * all) are answered meanwhile. Each limit is documented in the README and named in the 413 that refuses it.
 */

import { availableParallelism } from 'node:os';
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

/**
 * A large answer's JSON, built in slices: `answer` serialized by `schema` as Fastify serializes a route's answer, its
 * last field `list` (an array) item by item by `itemSchema`, with a tick of `slicer` before each. Serializing
 * 10,000 verdicts at once held the event loop 150–250 ms. Sent as a string, it is not serialized again.
 */
export async function slicedJson<T extends Record<string, unknown>>(
  reply: FastifyReply,
  schema: object,
  itemSchema: object,
  answer: T,
  list: keyof T & string,
  slicer: WorkSlicer,
): Promise<string> {
  const items = answer[list] as readonly unknown[];
  const head = reply.compileSerializationSchema(schema as Record<string, unknown>)({ ...answer, [list]: [] });
  const end = `"${list}":[]}`;
  if (!head.endsWith(end)) throw new Error(`slicedJson: ${list} is not the answer's last field`);
  const item = reply.compileSerializationSchema(itemSchema as Record<string, unknown>);
  const parts: string[] = [];
  for (const value of items) {
    await slicer.tick();
    parts.push(item(value as Record<string, unknown>));
  }
  return `${head.slice(0, -2)}${parts.join(',')}]}`;
}

/** Options of {@link WorkBudget}. */
export interface WorkBudgetOptions {
  /** Heavy requests running at once (default: the machine's cores but one, from one to four). */
  readonly running?: number;
  /** Heavy requests waiting for a turn before more are refused (default: twice `running`). */
  readonly waiting?: number;
  /** How long one waits for its turn before it is refused (default 10 s). */
  readonly waitMs?: number;
  /** The `Retry-After` of a refusal, in seconds (default 2). */
  readonly retryAfterSeconds?: number;
  /** What runs under the budget, as a refusal names it (default `heavy requests`). */
  readonly label?: string;
}

/**
 * The process's budget for heavy requests (impact comparisons, version diffs): a few run at once, a few more wait
 * their turn, and the rest get a 429 `service-busy` with `Retry-After`, so concurrent clients cannot add their
 * pauses of the event loop up (10 impact clients paused it 20 s before).
 */
export class WorkBudget {
  readonly running: number;
  readonly waiting: number;
  readonly #waitMs: number;
  readonly #retryAfter: number;
  readonly #label: string;
  #active = 0;
  readonly #queue: { grant(): void }[] = [];

  constructor(options: WorkBudgetOptions = {}) {
    this.running = options.running ?? Math.max(1, Math.min(4, availableParallelism() - 1));
    this.waiting = options.waiting ?? this.running * 2;
    this.#waitMs = options.waitMs ?? 10_000;
    this.#retryAfter = options.retryAfterSeconds ?? 2;
    this.#label = options.label ?? 'heavy requests';
  }

  /** Requests running now. */
  get active(): number {
    return this.#active;
  }

  /** Runs `work` when its turn comes (or refuses with a 429); `what` names it in the refusal. */
  async run<T>(what: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#turn(what, signal);
    try {
      return await work();
    } finally {
      this.#active--;
      this.#queue.shift()?.grant();
    }
  }

  #busy(what: string): ApiError {
    return new ApiError(
      429,
      'service-busy',
      `the service is busy with other ${this.#label} (${this.running} at once, ${this.waiting} waiting); ${what} was not started: try again in ${this.#retryAfter} s`,
      { retryAfterSeconds: this.#retryAfter },
    );
  }

  #turn(what: string, signal?: AbortSignal): Promise<void> {
    if (this.#active < this.running) {
      this.#active++;
      return Promise.resolve();
    }
    if (this.#queue.length >= this.waiting) return Promise.reject(this.#busy(what));
    return new Promise<void>((resolve, reject) => {
      const leave = (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.#queue.indexOf(entry);
        if (at >= 0) this.#queue.splice(at, 1);
        reject(error);
      };
      const onAbort = () => leave(signal?.reason);
      const entry = {
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          this.#active++;
          resolve();
        },
      };
      const timer = setTimeout(() => leave(this.#busy(what)), this.#waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(entry);
    });
  }
}

/**
 * A batch run's URLs by origin: each origin's share of the window (`perOrigin`, so URLs waiting on one slow robots.txt
 * cannot take the whole window), and the URLs of an origin waiting together for its robots.txt (the first asks the
 * crawl client, which fetches it; the others are answered from memory once it has answered).
 */

import type { CrawlerInput } from 'robotskit';
import type { RobotsClient, UrlVerdict } from 'robotskit/fetch';
import type { Slot } from './window.js';

/** How many URLs of each origin are in flight, against a limit per origin. */
export class OriginShare {
  private readonly counts = new Map<string, number>();

  constructor(private readonly limit: number) {}

  /** The origin has its full share in flight: wait before taking another of its URLs. */
  full(origin: string): boolean {
    return (this.counts.get(origin) ?? 0) >= this.limit;
  }

  /** One more URL of the origin in flight. */
  take(origin: string): void {
    this.counts.set(origin, (this.counts.get(origin) ?? 0) + 1);
  }

  /** One URL of the origin fewer in flight. */
  release(origin: string): void {
    const left = this.counts.get(origin)! - 1;
    if (left === 0) this.counts.delete(origin);
    else this.counts.set(origin, left);
  }
}

/** Gives a slot the record of its verdict, or of why the client refused its line (`verdict` null, `error`). */
type CompleteSlot = (slot: Slot, text: string, origin: string, verdict: UrlVerdict | null, error?: unknown) => void;

/** The URLs of one origin waiting for its robots.txt. */
interface Waiting {
  readonly slots: Slot[];
  /** Their lines, to answer each from memory once the first is answered. */
  readonly texts: string[];
  promise: Promise<void>;
}

/** The questions of URLs whose origin is not answered from memory yet: one to the client per origin. */
export class OriginQuestions {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly client: Pick<RobotsClient, 'explain' | 'peek'>,
    private readonly crawler: CrawlerInput,
    private readonly complete: CompleteSlot,
  ) {}

  /**
   * Asks for the URL `text` of `slot` (`origin` its origin), setting `slot.promise`: the origin's first URL asks the
   * client (which fetches its robots.txt); the next ones wait with it.
   */
  ask(slot: Slot, text: string, origin: string): void {
    const group = this.waiting.get(origin);
    if (group !== undefined) {
      group.slots.push(slot);
      group.texts.push(text);
      slot.promise = group.promise;
      return;
    }
    const first: Waiting = { slots: [slot], texts: [text], promise: null! };
    this.waiting.set(origin, first);
    first.promise = this.client.explain(text, this.crawler).then(
      (v) => this.answer(first, origin, v),
      (error: unknown) => this.answer(first, origin, null, error),
    );
    slot.promise = first.promise;
  }

  /**
   * The first URL of `group` answered: the others are answered from memory now (`peek`, no promise each), or, when
   * the client cannot (the fetch failed to load, the entry was already evicted), asked for one by one.
   */
  private answer(group: Waiting, origin: string, verdict: UrlVerdict | null, error?: unknown): void {
    if (this.waiting.get(origin) === group) this.waiting.delete(origin);
    this.complete(group.slots[0]!, group.texts[0]!, origin, verdict, error);
    for (let i = 1; i < group.slots.length; i++) {
      const slot = group.slots[i]!;
      const text = group.texts[i]!;
      let known: UrlVerdict | null = null;
      try {
        known = this.client.peek(text, this.crawler);
      } catch (error) {
        this.complete(slot, text, origin, null, error);
        continue;
      }
      if (known !== null) this.complete(slot, text, origin, known);
      else {
        slot.promise = this.client.explain(text, this.crawler).then(
          (v) => this.complete(slot, text, origin, v),
          (error: unknown) => this.complete(slot, text, origin, null, error),
        );
      }
    }
  }
}

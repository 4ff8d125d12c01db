/**
 * The NDJSON records of a batch run, and its counters of verdicts. What every URL of an origin shares is serialised
 * once per policy object (the client keeps it until it changes), and the part of a record after its URL once per
 * deciding rule of that policy: a record then costs one lookup and one string of its own (its index and URL), not a
 * rule object's JSON and a fragment per URL.
 */

import { RobotsUrlError, robotsTxtUrl } from 'robotskit';
import type { EffectivePolicy, RetrievalResult, UrlVerdict } from 'robotskit/fetch';
import { fetchErrorJson, isNetworkFailure } from '../output/fetch.js';

/** What the records of one policy share. */
interface Shared {
  /** `"robotsUrl","fetch","policy"`, the end of the record. */
  readonly fragment: string;
  /** The fetch last seen with this policy (counted once as unreachable when it failed). */
  latest: RetrievalResult | null;
  allowedNoRule: string | null;
  blockedNoRule: string | null;
  readonly byLine: Map<number, { kind: string; pattern: string; allowed: boolean; text: string }>;
}

/**
 * `JSON.stringify(url)` for a URL the WHATWG parser serialised (a verdict's `url`): printable ASCII, in which only `"`
 * (a host may hold one) and `\` (a query or fragment may) need escaping, so most URLs are just put in quotes (a tenth
 * of a batch's time went into stringifying them).
 */
function quoted(url: string): string {
  return url.indexOf('"') < 0 && url.indexOf('\\') < 0 ? `"${url}"` : JSON.stringify(url);
}

/** Why a line is not a URL with a robots.txt, in the engine's words. */
export function invalidReason(text: string): string {
  try {
    robotsTxtUrl(text);
    return `not a URL with a robots.txt: ${JSON.stringify(text)}`;
  } catch (error) {
    return error instanceof RobotsUrlError ? error.message : String(error);
  }
}

/**
 * Makes the records of a run: `{"index","url","allowed","line","rule","robotsUrl","fetch","policy"}` for a verdict,
 * `{"index","url","error"}` for a line that is not a URL with a robots.txt; and counts them. A failed fetch's error is
 * its kind and the engine's words for it (`connection refused`), never the runtime's raw text.
 */
export class RecordMaker {
  allowed = 0;
  blocked = 0;
  /** Lines that got an error record. */
  invalid = 0;
  /** Origins whose robots.txt could not be fetched, each counted once per failed fetch. */
  unreachable = 0;
  private readonly shared = new WeakMap<EffectivePolicy<RetrievalResult>, Shared>();
  private readonly failures = new WeakSet<RetrievalResult>();

  /** @param timeoutMs The robots.txt timeout, for the words of a fetch that ran out of it. */
  constructor(private readonly timeoutMs?: number) {}

  /** The record of a verdict. */
  record(index: number, v: UrlVerdict): string {
    if (v.allowed) this.allowed++;
    else this.blocked++;
    return `{"index":${index},"url":${quoted(v.url)},${this.tailOf(v)}`;
  }

  /** The error record of line `index` (`text` as read). */
  error(index: number, text: string, kind: string, message: string): string {
    this.invalid++;
    return `{"index":${index},"url":${JSON.stringify(text)},"error":{"kind":"${kind}","message":${JSON.stringify(message)}}}\n`;
  }

  private sharedOf(v: UrlVerdict): Shared {
    let entry = this.shared.get(v.policy);
    if (entry === undefined) {
      const latest = v.latest;
      const fetch = {
        status: latest.status,
        outcome: latest.outcome,
        error: fetchErrorJson(latest, this.timeoutMs),
      };
      const fragment = `"robotsUrl":${JSON.stringify(v.robotsUrl)},"fetch":${JSON.stringify(fetch)},"policy":${JSON.stringify({ mode: v.policy.mode, reason: v.policy.reason })}}\n`;
      entry = { fragment, latest: null, allowedNoRule: null, blockedNoRule: null, byLine: new Map() };
      this.shared.set(v.policy, entry);
    }
    if (entry.latest !== v.latest) {
      entry.latest = v.latest;
      if (isNetworkFailure(v.latest) && !this.failures.has(v.latest)) {
        this.failures.add(v.latest);
        this.unreachable++;
      }
    }
    return entry;
  }

  /** `"allowed","line","rule"` and the shared fragment, for this verdict. */
  private tailOf(v: UrlVerdict): string {
    const entry = this.sharedOf(v);
    const rule = v.rule;
    if (rule === null && v.line === 0) {
      if (v.allowed) {
        entry.allowedNoRule ??= `"allowed":true,"line":0,"rule":null,${entry.fragment}`;
        return entry.allowedNoRule;
      }
      entry.blockedNoRule ??= `"allowed":false,"line":0,"rule":null,${entry.fragment}`;
      return entry.blockedNoRule;
    }
    if (rule === null) return `"allowed":${v.allowed},"line":${v.line},"rule":null,${entry.fragment}`;
    // Rules of one line share its entry; another rule of the line (Google's derived index.htm rule) replaces it.
    const cached = entry.byLine.get(v.line);
    if (
      cached !== undefined &&
      cached.pattern === rule.pattern &&
      cached.kind === rule.kind &&
      cached.allowed === v.allowed
    ) {
      return cached.text;
    }
    const text = `"allowed":${v.allowed},"line":${v.line},"rule":${JSON.stringify({ kind: rule.kind, pattern: rule.pattern })},${entry.fragment}`;
    entry.byLine.set(v.line, { kind: rule.kind, pattern: rule.pattern, allowed: v.allowed, text });
    return text;
  }
}

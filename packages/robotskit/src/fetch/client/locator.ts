/**
 * From a URL to its origin, as cheaply as the URL allows. A string already in the WHATWG parser's serialised form (most
 * URLs a crawler has) is sliced rather than parsed; when its start is an origin the client keeps or is loading (every
 * such key was written by the parser), only the path, query and fragment after it are checked, and what the lookup
 * found serves the rest of the question, so memory is searched once per question. Anything else goes to the parser.
 */

import { canonicalAfter, originEndIfKnown, simpleOriginEnd } from '../../url/http-url.js';
import { parseRobotsScopedUrl } from '../../url/origin.js';
import type { LruMap } from '../shared/lru.js';
import type { CachedOrigin } from './origin-cache.js';
import type { Load } from './origin-states.js';

/** Finds URLs' origins; after each {@link locate}, its fields say what was found. */
export class Locator {
  /** What to match: the URL string itself when it is in canonical form, else the parsed URL. */
  target: string | URL = '';
  /**
   * What {@link locate} found for the origin it returned, when it looked: its load in flight, or else its cache entry
   * (both undefined when it did not look, or found neither). The reader clears them once read: an origin forgotten
   * later must not stay in memory through them.
   */
  load: Load | undefined;
  entry: CachedOrigin | undefined;

  constructor(
    private readonly entries: LruMap<string, CachedOrigin>,
    private readonly inflight: ReadonlyMap<string, Load>,
  ) {}

  /**
   * The origin of a URL (`scheme://host[:port]`); sets {@link target}, {@link load} and {@link entry}.
   * @throws RobotsUrlError when the URL is not an absolute http, https or ftp URL.
   */
  locate(url: string | URL): string {
    this.load = undefined;
    this.entry = undefined;
    if (typeof url === 'string') {
      const known = this.knownOrigin(url);
      if (known !== null) {
        this.target = url;
        return known;
      }
      const end = simpleOriginEnd(url);
      if (end > 0) {
        this.target = url;
        return url.slice(0, end);
      }
    }
    const parsedUrl = parseRobotsScopedUrl(url);
    this.target = parsedUrl;
    return `${parsedUrl.protocol}//${parsedUrl.host}`;
  }

  /**
   * The origin of a URL string when it is in memory or being loaded and the rest of the string is in the parser's
   * form; else null. The start is looked up before the rest is read: a start that is no key costs a failed lookup, and
   * a known one is not read a second time. What is found is kept for the question (an entry is marked used, as the
   * question is about to use it; a URL whose rest needs the parser has the same origin).
   */
  private knownOrigin(url: string): string | null {
    const end = originEndIfKnown(url);
    const origin = url.slice(0, end);
    // A host may hold `;` (the WHATWG parser keeps it), where the reference's path begins: the parser's way.
    if (origin.includes(';')) return null;
    const pending = this.inflight.size === 0 ? undefined : this.inflight.get(origin);
    if (pending !== undefined) {
      if (!canonicalAfter(url, end)) return null;
      this.load = pending;
      return origin;
    }
    const entry = this.entries.get(origin);
    if (entry === undefined || !canonicalAfter(url, end)) return null;
    this.entry = entry;
    return origin;
  }
}

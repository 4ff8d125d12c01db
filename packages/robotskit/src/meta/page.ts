/**
 * All page-level controls of one response: the robots `meta` tags of its HTML and its `X-Robots-Tag` headers,
 * combined.
 */

import { type ExtractOptions, extractRobotsMeta } from './html.js';
import {
  combineRobotsDirectives,
  type MetaDiagnostic,
  parseRobotsMeta,
  parseXRobotsTag,
  type RobotsDirectives,
} from './parse.js';

/** Where a page's diagnostic comes from. */
export type PageDiagnosticSource =
  /** A robots meta tag: its index among the tags found, in document order. */
  | { readonly kind: 'meta'; readonly tag: number }
  /** An `X-Robots-Tag` value: its index in the list passed in. */
  | { readonly kind: 'header'; readonly header: number };

/** A diagnostic of {@link pageDirectives}, with its source. */
export interface PageDiagnostic extends MetaDiagnostic {
  readonly source: PageDiagnosticSource;
}

/** The combined page-level controls of a response. */
export interface PageRobotsDirectives extends Omit<RobotsDirectives, 'diagnostics'> {
  /**
   * Diagnostics of every tag and header. For meta tags, `range` is in the HTML when the `content` value had no
   * character references (else it is the whole `content` value); for headers, it is in the header value.
   */
  readonly diagnostics: readonly PageDiagnostic[];
}

/** What {@link pageDirectives} reads. */
export interface PageInput {
  /** The HTML body, when the response is HTML. */
  readonly html?: string;
  /** The `X-Robots-Tag` header values. */
  readonly headers?: readonly string[];
  /** Which meta tag names count (see {@link ExtractOptions.names}). */
  readonly names?: readonly string[];
}

/**
 * The robots meta tags of `html` and the `X-Robots-Tag` values, parsed and combined restrictively (a page that says
 * `noindex` anywhere is `noindex`). Use `directivesFor(result, crawler)` for what applies to one crawler.
 * @example pageDirectives({ html: '<meta name="robots" content="noindex">', headers: ['nofollow'] }).all
 */
export function pageDirectives(input: PageInput): PageRobotsDirectives {
  const tags =
    input.html === undefined
      ? []
      : extractRobotsMeta(input.html, input.names === undefined ? {} : { names: input.names });
  const diagnostics: PageDiagnostic[] = [];
  const parsed: RobotsDirectives[] = tags.map((tag, index) => {
    const result = parseRobotsMeta(tag.content, tag.name);
    const exact =
      tag.contentRange !== null && input.html?.slice(tag.contentRange.start, tag.contentRange.end) === tag.content;
    for (const d of result.diagnostics) {
      const range =
        tag.contentRange === null
          ? tag.range
          : exact
            ? { start: tag.contentRange.start + d.range.start, end: tag.contentRange.start + d.range.end }
            : tag.contentRange;
      diagnostics.push({ ...d, range, source: { kind: 'meta', tag: index } });
    }
    return result;
  });
  if (input.headers !== undefined) {
    const header = parseXRobotsTag(input.headers);
    for (const d of header.diagnostics) diagnostics.push({ ...d, source: { kind: 'header', header: d.header ?? 0 } });
    parsed.push(header);
  }
  const combined = combineRobotsDirectives(...parsed);
  return { all: combined.all, crawlers: combined.crawlers, diagnostics };
}

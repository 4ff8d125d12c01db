/**
 * Page-level directives (robots `meta` tags and `X-Robots-Tag` headers) for one audience, and how several combine:
 * restrictively, as Google documents ("if there are conflicting rules, the more restrictive rule applies",
 * https://developers.google.com/search/docs/crawling-indexing/robots-meta-tag).
 */

/** `max-image-preview` settings, least to most permissive. */
export type ImagePreview = 'none' | 'standard' | 'large';

/** What a page asks of a crawler. Flags are false and limits null when the page does not set them. */
export interface PageDirectives {
  /** Do not show the page in search results (`noindex`, or `none`). */
  readonly noindex: boolean;
  /** Do not follow the page's links (`nofollow`, or `none`). */
  readonly nofollow: boolean;
  /** Do not show a cached copy (`noarchive`). */
  readonly noarchive: boolean;
  /** No text snippet or video preview (`nosnippet`; `max-snippet:0` means the same and is kept in `maxSnippet`). */
  readonly nosnippet: boolean;
  /** Do not offer a translation (`notranslate`). */
  readonly notranslate: boolean;
  /** Do not index the page's images (`noimageindex`). */
  readonly noimageindex: boolean;
  /** Index the page's content when it is embedded in other pages, despite `noindex` (`indexifembedded`). */
  readonly indexifembedded: boolean;
  /** `max-snippet`: at most this many characters of snippet; -1 for no limit, 0 for none. */
  readonly maxSnippet: number | null;
  /** `max-image-preview`. */
  readonly maxImagePreview: ImagePreview | null;
  /** `max-video-preview`: at most this many seconds of video preview; -1 for no limit, 0 for a still image. */
  readonly maxVideoPreview: number | null;
  /** `unavailable_after`: do not show the page after this time, in milliseconds since the epoch (UTC). */
  readonly unavailableAfter: number | null;
}

/** Directives of a page that sets nothing: everything allowed. */
export const NO_DIRECTIVES: PageDirectives = Object.freeze({
  noindex: false,
  nofollow: false,
  noarchive: false,
  nosnippet: false,
  notranslate: false,
  noimageindex: false,
  indexifembedded: false,
  maxSnippet: null,
  maxImagePreview: null,
  maxVideoPreview: null,
  unavailableAfter: null,
});

const PREVIEW_ORDER: Record<ImagePreview, number> = { none: 0, standard: 1, large: 2 };

/** The smaller limit, -1 meaning "no limit"; null when neither is set. */
function smallerLimit(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  if (a < 0) return b;
  if (b < 0) return a;
  return Math.min(a, b);
}

/**
 * Combines directives restrictively: a flag set anywhere is set, the smallest limit wins (-1 is no limit), the
 * smallest image preview and the earliest `unavailable_after` win.
 * @example mergeDirectives(parseRobotsMeta('max-snippet:50').all, parseXRobotsTag(['max-snippet:20']).all).maxSnippet // 20
 */
export function mergeDirectives(...sets: readonly PageDirectives[]): PageDirectives {
  if (sets.length === 0) return NO_DIRECTIVES;
  if (sets.length === 1) return sets[0]!;
  let merged: PageDirectives = sets[0]!;
  for (const d of sets.slice(1)) {
    const preview =
      merged.maxImagePreview === null
        ? d.maxImagePreview
        : d.maxImagePreview === null
          ? merged.maxImagePreview
          : PREVIEW_ORDER[d.maxImagePreview] < PREVIEW_ORDER[merged.maxImagePreview]
            ? d.maxImagePreview
            : merged.maxImagePreview;
    merged = {
      noindex: merged.noindex || d.noindex,
      nofollow: merged.nofollow || d.nofollow,
      noarchive: merged.noarchive || d.noarchive,
      nosnippet: merged.nosnippet || d.nosnippet,
      notranslate: merged.notranslate || d.notranslate,
      noimageindex: merged.noimageindex || d.noimageindex,
      indexifembedded: merged.indexifembedded || d.indexifembedded,
      maxSnippet: smallerLimit(merged.maxSnippet, d.maxSnippet),
      maxImagePreview: preview,
      maxVideoPreview: smallerLimit(merged.maxVideoPreview, d.maxVideoPreview),
      unavailableAfter:
        merged.unavailableAfter === null
          ? d.unavailableAfter
          : d.unavailableAfter === null
            ? merged.unavailableAfter
            : Math.min(merged.unavailableAfter, d.unavailableAfter),
    };
  }
  return merged;
}

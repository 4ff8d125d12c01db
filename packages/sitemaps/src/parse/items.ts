/**
 * What the content parsers report, before any validation: raw strings as written, with their 1-based line. The XML and
 * text parsers push these to a callback as they read, so a file is never held whole.
 */

import type { SitemapFormat } from '../types.js';

/** One raw item of a sitemap file. */
export type RawItem =
  /** The file's kind, known from its root element or first character; reported once, before any entry. */
  | {
      readonly kind: 'format';
      readonly format: SitemapFormat;
      readonly namespace: string | null;
      readonly line: number;
    }
  /** A page: a urlset `<url>`, an RSS `<item>`, an Atom `<entry>`, or a text line. */
  | {
      readonly kind: 'url';
      readonly loc: string | null;
      readonly lastmod: string | null;
      readonly changefreq: string | null;
      readonly priority: string | null;
      readonly line: number;
    }
  /** A sitemap listed by an index. */
  | { readonly kind: 'sitemap'; readonly loc: string | null; readonly line: number }
  /** The file cannot be read on: not well-formed, or not a sitemap. Nothing follows. */
  | {
      readonly kind: 'fatal';
      readonly code: 'xml-error' | 'not-a-sitemap';
      readonly message: string;
      readonly line: number;
    };

/** A push parser of one file's text. */
export interface ContentParser {
  /** Reads the next piece of text (chunks may split anywhere, even inside a tag or a line). */
  write(text: string): void;
  /** The text has ended. */
  end(): void;
  /** The 1-based line the parser is at. */
  readonly line: number;
}

/** The longest field text kept (a `<loc>` longer than this is reported as invalid, not held). */
export const MAX_FIELD_CHARS = 65_536;

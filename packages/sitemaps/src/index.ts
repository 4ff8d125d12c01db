/**
 * robotskit-sitemaps: streaming reader for the sitemaps a robots.txt lists. XML sitemaps and sitemap indexes (nested,
 * with loop detection), gzip (by magic bytes), text sitemaps, RSS 2.0 and Atom feeds; the protocol's limits (50,000
 * URLs, 50 MB uncompressed per file) enforced and reported; every problem a diagnostic, never an exception.
 *
 * @example
 * import { siteSitemaps } from 'robotskit-sitemaps';
 * for await (const event of siteSitemaps('https://example.com')) {
 *   if (event.type === 'url') console.log(event.entry.loc);
 * }
 * @packageDocumentation
 */

export { DEFAULT_SITEMAP_USER_AGENT, SITEMAP_LIMITS } from './config.js';
export { SITEMAP_DIAGNOSTIC_CODES, SITEMAP_DIAGNOSTIC_SEVERITY } from './diagnostics.js';
export { ATOM_NS, SITEMAP_NS } from './parse/xml.js';
export { type SiteSitemapEvent, type SiteSitemaps, sitemapsOf, sitePageUrls, siteSitemaps } from './site.js';
export type * from './types.js';
export { isW3cDatetime } from './validate.js';
export { readSitemaps } from './walk.js';

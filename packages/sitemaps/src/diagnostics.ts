/**
 * The severity of each diagnostic code, in one table (a closed union, so a new code without a severity does not
 * compile).
 */

import type { SitemapDiagnosticCode, SitemapSeverity } from './types.js';

/** Every code with its severity. */
export const SITEMAP_DIAGNOSTIC_SEVERITY: Readonly<Record<SitemapDiagnosticCode, SitemapSeverity>> = {
  'http-error': 'error',
  'fetch-failed': 'error',
  'gzip-error': 'error',
  'xml-error': 'error',
  'not-a-sitemap': 'error',
  'wrong-namespace': 'warning',
  'too-many-urls': 'error',
  'too-large': 'error',
  'missing-loc': 'error',
  'invalid-url': 'error',
  'relative-url': 'error',
  'out-of-scope-url': 'error',
  'url-too-long': 'warning',
  'invalid-lastmod': 'warning',
  'invalid-changefreq': 'warning',
  'invalid-priority': 'warning',
  'nested-index': 'warning',
  'too-deep': 'error',
  'sitemap-loop': 'error',
  'duplicate-sitemap': 'info',
  'cross-host-sitemap': 'error',
  'too-many-sitemaps': 'warning',
  'url-limit-reached': 'info',
};

/** Every diagnostic code. */
export const SITEMAP_DIAGNOSTIC_CODES = Object.keys(SITEMAP_DIAGNOSTIC_SEVERITY) as readonly SitemapDiagnosticCode[];

/**
 * The editor's key colours as a table, shared by the tokenizer's unit test (Node) and the editor's browser test: each
 * line, its key as written, and the token the key must get from how the engine reads it.
 */

import type { RobotsToken } from '../src/components/robots-tokens.js';

/** `[line, key, token]`: Google's accepted spellings are fields, keys Google ignores are not, anything else is red. */
export const KEY_COLOURS: readonly (readonly [line: string, key: string, token: RobotsToken])[] = [
  ['User-agent: *', 'User-agent', 'field'],
  ['Disallow: /private/', 'Disallow', 'field'],
  ['Dissallow: /drafts/*.pdf$', 'Dissallow', 'field-variant'],
  ['useragent: Googlebot', 'useragent', 'field-variant'],
  ['user agent: Bingbot', 'user agent', 'field-variant'],
  ['Site-map: https://example.com/sitemap.xml', 'Site-map', 'field-variant'],
  ['Disallowed: /tmp/', 'Disallowed', 'field-variant'],
  ['Crawl-delay: 10', 'Crawl-delay', 'extension'],
  ['Host: example.com', 'Host', 'extension'],
  ['Noindex: /old/', 'Noindex', 'page-directive'],
  ['Alow: /x', 'Alow', 'unknown-field'],
];

/**
 * The editor's tokenizer in Node: every line split and its key read by the engine, values coloured by the field Google
 * reads them as.
 */

import { describe, expect, it } from 'vitest';
import { lineTokens } from '../src/components/robots-tokens.js';
import { KEY_COLOURS } from './editor-keys.js';

/** The line as `token:text` spans, space-separated. */
function spans(line: string): string {
  return lineTokens(line)
    .map((span) => `${span.token}:${line.slice(span.from, span.to)}`)
    .join(' ');
}

describe('the editor tokenizer', () => {
  it.each(KEY_COLOURS)('colours the key of %j as the engine reads it', (line, key, token) => {
    const [first] = lineTokens(line);
    expect(first).toMatchObject({ from: line.indexOf(key), to: line.indexOf(key) + key.length, token });
  });

  it.each([
    [
      'Dissallow: /drafts/*.pdf$',
      'field-variant:Dissallow separator:: pattern:/drafts/ wildcard:* pattern:.pdf end-anchor:$',
    ],
    ['Allow: /a$b$', 'field:Allow separator:: pattern:/a$b end-anchor:$'],
    ['Disallow:', 'field:Disallow separator::'],
    [
      'Site-map: https://example.com/s.xml # main',
      'field-variant:Site-map separator:: url:https://example.com/s.xml comment:# main',
    ],
    ['useragent Googlebot', 'field-variant:useragent agent:Googlebot'],
    ['user agent: Bingbot', 'field-variant:user agent separator:: agent:Bingbot'],
    ['Crawl-delay: 10', 'extension:Crawl-delay separator:: ignored-value:10'],
    ['Noindex: /old/', 'page-directive:Noindex separator:: ignored-value:/old/'],
    ['Alow: /x', 'unknown-field:Alow separator:: ignored-value:/x'],
    ['a b c # three words', 'invalid:a invalid:b invalid:c comment:# three words'],
    ['  # indented comment', 'comment:# indented comment'],
    ['', ''],
    ['Disallow: /a\0b', 'field:Disallow separator:: pattern:/a unread:\0b'],
    ['Disallow: /ä/* # größer', 'field:Disallow separator:: pattern:/ä/ wildcard:* comment:# größer'],
  ])('splits %j into its spans', (line, expected) => {
    expect(spans(line)).toBe(expected);
  });

  it('marks what Google does not keep of a long line as unread', () => {
    const line = `Disallow: /${'a'.repeat(20_000)}`;
    const tokens = lineTokens(line);
    expect(tokens.map((t) => t.token)).toEqual(['field', 'separator', 'pattern', 'unread']);
    expect(tokens.at(-1)!.to).toBe(line.length);
  });
});

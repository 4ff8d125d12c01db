/**
 * Syntax colouring for robots.txt: a stream tokenizer (no grammar to maintain) colouring comments, field names (known
 * ones as keywords, others as unknown), rule patterns with their `*` and `$`, and URLs.
 */

import { HighlightStyle, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { tags } from '@lezer/highlight';

const KNOWN = /^(user-agent|allow|disallow|sitemap|crawl-delay|host|request-rate|visit-time|clean-param|noindex)$/i;

interface LineState {
  /** Where on the line the tokenizer is: before the key, in the value, or after `#`. */
  part: 'key' | 'value';
  key: string;
}

const robotsTxt = StreamLanguage.define<LineState>({
  name: 'robots.txt',
  startState: () => ({ part: 'key', key: '' }),
  copyState: (state) => ({ ...state }),
  token(stream, state) {
    if (stream.sol()) {
      state.part = 'key';
      state.key = '';
    }
    if (stream.eatSpace()) return null;
    if (stream.peek() === '#') {
      stream.skipToEnd();
      return 'comment';
    }
    if (state.part === 'key') {
      if (stream.match(/^[^:#\s]+/)) {
        state.key = stream.current().toLowerCase();
        state.part = 'value';
        return KNOWN.test(state.key) ? 'keyword' : 'invalid';
      }
      if (stream.eat(':')) {
        state.part = 'value';
        return 'punctuation';
      }
      stream.next();
      return null;
    }
    if (stream.eat(':')) return 'punctuation';
    if (state.key === 'allow' || state.key === 'disallow') {
      if (stream.eat('*')) return 'operator';
      if (stream.match(/^\$(?=\s*(#|$))/)) return 'operator';
      if (stream.match(/^[^*$#\s]+/) || stream.eat('$')) return 'string';
    } else if (state.key === 'sitemap') {
      if (stream.match(/^[^#\s]+/)) return 'url';
    } else if (state.key === 'user-agent') {
      if (stream.match(/^[^#\s]+/)) return 'variableName';
    } else if (stream.match(/^[^#\s]+/)) return 'number';
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '#' } },
});

const style = HighlightStyle.define([
  { tag: tags.comment, color: '#6a737d', fontStyle: 'italic' },
  { tag: tags.keyword, color: '#1d4ed8', fontWeight: '600' },
  { tag: tags.invalid, color: '#b91c1c', textDecoration: 'underline dotted' },
  { tag: tags.string, color: '#0f5132' },
  { tag: tags.operator, color: '#b45309', fontWeight: '700' },
  { tag: tags.url, color: '#6d28d9' },
  { tag: tags.variableName, color: '#9a3412' },
  { tag: tags.number, color: '#0e7490' },
  { tag: tags.punctuation, color: '#6a737d' },
]);

/** The language and its colours, as one extension. */
export const robotsTxtLanguage = [robotsTxt, syntaxHighlighting(style)];

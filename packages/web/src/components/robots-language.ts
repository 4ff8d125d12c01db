/**
 * Syntax colouring for robots.txt in CodeMirror: each line split and its key read by the engine
 * (`robots-tokens.ts`), each token kind a highlighting tag with a class of its own (`rt-field`, `rt-extension`…) and
 * its colour here. Keys Google reads are fields in every spelling it accepts (typos and prefixes with a subtle mark);
 * keys only other crawlers read, and page directives, look ignored; any other key is red.
 */

import { StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { Tag, tagHighlighter, tags } from '@lezer/highlight';
import { lineTokens, type RobotsToken, type TokenSpan } from './robots-tokens.js';

/** A tag per token kind, each under the standard tag closest in meaning (for highlighters that know only those). */
const TOKEN_TAGS: Record<RobotsToken, Tag> = {
  field: Tag.define('field', tags.keyword),
  'field-variant': Tag.define('field-variant', tags.keyword),
  extension: Tag.define('extension', tags.meta),
  'page-directive': Tag.define('page-directive', tags.meta),
  'unknown-field': Tag.define('unknown-field', tags.invalid),
  separator: Tag.define('separator', tags.punctuation),
  pattern: Tag.define('pattern', tags.string),
  wildcard: Tag.define('wildcard', tags.operator),
  'end-anchor': Tag.define('end-anchor', tags.operator),
  url: Tag.define('url', tags.url),
  agent: Tag.define('agent', tags.variableName),
  'ignored-value': Tag.define('ignored-value', tags.meta),
  invalid: Tag.define('invalid', tags.invalid),
  unread: Tag.define('unread', tags.comment),
  comment: Tag.define('comment', tags.comment),
};

interface LineState {
  /** The spans of the line being read, computed at its start. */
  spans: readonly TokenSpan[];
  /** The first span not yet emitted. */
  next: number;
}

const robotsTxt = StreamLanguage.define<LineState>({
  name: 'robots.txt',
  startState: () => ({ spans: [], next: 0 }),
  copyState: (state) => ({ ...state }),
  token(stream, state) {
    if (stream.sol()) {
      state.spans = lineTokens(stream.string);
      state.next = 0;
    }
    const span = state.spans[state.next];
    if (!span) {
      stream.skipToEnd();
      return null;
    }
    // Whitespace between spans is its own, uncoloured token.
    if (stream.pos < span.from) {
      stream.pos = span.from;
      return null;
    }
    stream.pos = span.to;
    state.next++;
    return span.token;
  },
  tokenTable: TOKEN_TAGS,
  languageData: { commentTokens: { line: '#' } },
});

const highlighter = tagHighlighter(Object.entries(TOKEN_TAGS).map(([token, tag]) => ({ tag, class: `rt-${token}` })));

/**
 * Keys Google ignores: muted, on a faint ground, so they read neither as fields nor as comments (5.2:1 on that ground,
 * as axe-core measures a span with a background of its own).
 */
const ignored = { color: '#5b6779', fontStyle: 'italic', background: '#f1f5f9', borderRadius: '3px' };

const colours = EditorView.theme({
  // 4.9:1 or more on every line background the editor uses (active, deciding).
  '.rt-comment': { color: '#5f6b7a', fontStyle: 'italic' },
  '.rt-field': { color: '#1d4ed8', fontWeight: '600' },
  // Google reads it as the field, so not red; the dotted line says the spelling is not the usual one.
  '.rt-field-variant': {
    color: '#1d4ed8',
    fontWeight: '600',
    textDecoration: 'underline dotted #60a5fa',
    textUnderlineOffset: '3px',
  },
  '.rt-extension': ignored,
  '.rt-page-directive': { ...ignored, textDecoration: 'line-through' },
  '.rt-unknown-field': { color: '#b91c1c', textDecoration: 'underline dotted' },
  '.rt-separator': { color: '#6a737d' },
  '.rt-pattern': { color: '#0f5132' },
  '.rt-wildcard, .rt-end-anchor': { color: '#b45309', fontWeight: '700' },
  '.rt-url': { color: '#6d28d9' },
  '.rt-agent': { color: '#9a3412' },
  '.rt-ignored-value': { color: '#5b6779' },
  '.rt-invalid': { color: '#b91c1c' },
  '.rt-unread': { color: '#5b6779', textDecoration: 'line-through' },
});

/** The language and its colours, as one extension. */
export const robotsTxtLanguage = [robotsTxt, syntaxHighlighting(highlighter), colours];

/**
 * Robots `meta` tags out of an HTML string, without a DOM. Best-effort: it finds `<meta>` tags the way a browser's
 * tokenizer would in ordinary pages (attributes in any order and case, double, single or no quotes, `/>`, several
 * tags), skipping comments and the contents of `<script>`, `<style>`, `<template>`, `<textarea>` and `<title>` (but
 * not `<noscript>`, whose tags are real when a page is read without scripts), and decoding the common character references in attribute values. It does not build a tree, so it
 * does not know about malformed markup a browser would repair, `<meta>` tags a script writes, or whether a tag sits in
 * `<head>` (Google reads robots meta tags wherever they are).
 */

import { CRAWLERS } from '../crawlers/catalogue.js';
import type { Range } from '../model/types.js';

/** A robots `meta` tag found in HTML. */
export interface RobotsMetaTag {
  /** The `name` attribute, lower-cased and trimmed (`robots`, `googlebot`). */
  readonly name: string;
  /** The `content` attribute, character references decoded; empty when the tag has none. */
  readonly content: string;
  /** The whole tag, `<meta` to `>`, as offsets into the HTML. */
  readonly range: Range;
  /** The `content` attribute's value as written (without quotes); null when the tag has no `content`. */
  readonly contentRange: Range | null;
}

/** Options of {@link extractRobotsMeta}. */
export interface ExtractOptions {
  /**
   * Which `name` values are robots meta tags (case-insensitively), besides `robots`.
   * @default the tokens of every crawler of the catalogue (`googlebot`, `googlebot-news`, `bingbot`, `gptbot`…)
   */
  readonly names?: readonly string[];
}

// `<noscript>` is not skipped: without scripting its `<meta>` tags are real, and a crawler may read the page so.
const RAW_TEXT = ['script', 'style', 'template', 'textarea', 'title'];

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes `&amp;`, `&quot;`, `&#39;`, `&#x27;` and the like; leaves anything else as written. */
function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** Whether the char at `i` ends a tag name (whitespace, `/`, `>`, or the end of the text). */
function endsTagName(text: string, i: number): boolean {
  if (i >= text.length) return true;
  const c = text.charCodeAt(i);
  return isSpace(c) || c === 0x2f || c === 0x3e;
}

interface Attribute {
  readonly name: string;
  readonly value: string;
  readonly start: number;
  readonly end: number;
}

/** Reads the attributes of a tag from `from` (after the tag name) to its `>`. Returns them and the end of the tag. */
function attributes(html: string, from: number): { attrs: Attribute[]; end: number } {
  const attrs: Attribute[] = [];
  let i = from;
  const n = html.length;
  while (i < n) {
    while (i < n && (isSpace(html.charCodeAt(i)) || html[i] === '/')) i++;
    if (i >= n) break;
    if (html[i] === '>') return { attrs, end: i + 1 };
    const nameStart = i;
    while (i < n && !isSpace(html.charCodeAt(i)) && html[i] !== '=' && html[i] !== '>' && html[i] !== '/') i++;
    const name = html.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    if (html[i] !== '=') {
      attrs.push({ name, value: '', start: i, end: i });
      continue;
    }
    i++;
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    const quote = html[i];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, i + 1);
      const end = close < 0 ? n : close;
      attrs.push({ name, value: html.slice(i + 1, end), start: i + 1, end });
      i = end + 1;
    } else {
      const start = i;
      while (i < n && !isSpace(html.charCodeAt(i)) && html[i] !== '>') i++;
      attrs.push({ name, value: html.slice(start, i), start, end: i });
    }
  }
  return { attrs, end: n };
}

let defaultNames: Set<string> | null = null;

/**
 * The robots `meta` tags of an HTML document, in document order: `<meta name="robots">` and tags named for a crawler
 * (see {@link ExtractOptions.names}). Best-effort (see the module notes); never throws on content.
 * @example extractRobotsMeta('<META CONTENT=noindex NAME="Robots">')[0] // { name: 'robots', content: 'noindex', … }
 */
export function extractRobotsMeta(html: string, options: ExtractOptions = {}): RobotsMetaTag[] {
  if (typeof html !== 'string') throw new TypeError('html must be a string');
  let names: Set<string>;
  if (options.names === undefined) {
    defaultNames ??= new Set(['robots', ...CRAWLERS.flatMap((c) => c.tokens.map((t) => t.toLowerCase()))]);
    names = defaultNames;
  } else names = new Set(['robots', ...options.names.map((n) => n.trim().toLowerCase())]);

  const lower = html.toLowerCase();
  const found: RobotsMetaTag[] = [];
  let i = 0;
  for (;;) {
    const lt = lower.indexOf('<', i);
    if (lt < 0) break;
    i = lt + 1;
    // Only `<!--`, `<meta` and the raw-text elements (all starting with s or t) matter.
    const next = lower.charCodeAt(lt + 1);
    if (next === 0x21) {
      if (!lower.startsWith('!--', lt + 1)) continue;
      const close = lower.indexOf('-->', lt + 4);
      if (close < 0) break;
      i = close + 3;
    } else if (next === 0x73 || next === 0x74) {
      const raw = RAW_TEXT.find((tag) => lower.startsWith(tag, lt + 1) && endsTagName(lower, lt + 1 + tag.length));
      if (raw === undefined) continue;
      const { end } = attributes(html, lt + 1 + raw.length);
      const close = lower.indexOf(`</${raw}`, end);
      i = close < 0 ? html.length : close + 2 + raw.length;
    } else if (next === 0x6d && lower.startsWith('meta', lt + 1) && endsTagName(lower, lt + 5)) {
      const { attrs, end } = attributes(html, lt + 5);
      const name = attrs.find((a) => a.name === 'name');
      const content = attrs.find((a) => a.name === 'content');
      const tagName = name === undefined ? '' : decodeReferences(name.value).trim().toLowerCase();
      if (names.has(tagName)) {
        found.push({
          name: tagName,
          content: content === undefined ? '' : decodeReferences(content.value),
          range: { start: lt, end },
          contentRange: content === undefined ? null : { start: content.start, end: content.end },
        });
      }
      i = end;
    }
  }
  return found;
}

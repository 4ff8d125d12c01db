/**
 * The editor's robots.txt tokens for one line, as the engine reads the line (`readLine`: where the key, value and
 * comment are, and how Google reads the key). Plain data, no CodeMirror: `robots-language.ts` colours these spans,
 * and the tests run this in Node.
 */

import { type KeyReading, type LineReading, type Range, readLine } from 'robotskit';

/** What a span of a line is, for its colour. */
export type RobotsToken =
  /** A key Google reads, spelled exactly (`Disallow`, `user-agent` in any case). */
  | 'field'
  /** A key Google reads through an accepted typo (`Dissallow`, `useragent`) or a prefix (`Disallowed`). */
  | 'field-variant'
  /** A key other crawlers read and Google ignores (`Crawl-delay`, `Host`, `Content-Signal`). */
  | 'extension'
  /** A page-level control written in robots.txt (`Noindex`): no crawler reads it there. */
  | 'page-directive'
  /** A key nobody defines (`Alow`): Google ignores the line. */
  | 'unknown-field'
  /** The colon between key and value. */
  | 'separator'
  /** An allow or disallow pattern, and its special characters. */
  | 'pattern'
  | 'wildcard'
  | 'end-anchor'
  /** A sitemap's URL. */
  | 'url'
  /** A user-agent's value. */
  | 'agent'
  /** The value of a key Google ignores. */
  | 'ignored-value'
  /** Content of a line that holds no directive (no separator, three words without a colon). */
  | 'invalid'
  /** Text the parser never reads (after a NUL, past the bytes Google keeps of a long line). */
  | 'unread'
  | 'comment';

/** One coloured span of a line: `[from, to)` in UTF-16 offsets. */
export interface TokenSpan {
  readonly from: number;
  readonly to: number;
  readonly token: RobotsToken;
}

/** The key's token, from how Google reads it. */
function keyToken(reading: KeyReading): RobotsToken {
  if (reading.field !== 'unknown') return reading.spelling === 'exact' ? 'field' : 'field-variant';
  if (reading.ignored === 'extension') return 'extension';
  if (reading.ignored === 'page-directive') return 'page-directive';
  return 'unknown-field';
}

/** ASCII whitespace, which the parser trims around keys and values. */
const SPACE = /[\t\n\v\f\r ]/;

/** Spans of `token` over the runs of non-whitespace in `[from, to)`. */
function runs(line: string, from: number, to: number, token: RobotsToken, out: TokenSpan[]): void {
  let start = -1;
  for (let i = from; i <= to; i++) {
    const space = i === to || SPACE.test(line[i]!);
    if (!space && start < 0) start = i;
    else if (space && start >= 0) {
      out.push({ from: start, to: i, token });
      start = -1;
    }
  }
}

/** A pattern's spans: `*` anywhere and a final `$` are what the matcher treats specially. */
function patternSpans(line: string, value: Range, out: TokenSpan[]): void {
  let start = value.start;
  for (let i = value.start; i < value.end; i++) {
    const special = line[i] === '*' ? 'wildcard' : line[i] === '$' && i === value.end - 1 ? 'end-anchor' : null;
    if (special === null) continue;
    if (i > start) out.push({ from: start, to: i, token: 'pattern' });
    out.push({ from: i, to: i + 1, token: special });
    start = i + 1;
  }
  if (value.end > start) out.push({ from: start, to: value.end, token: 'pattern' });
}

/** The value's spans, coloured by the field Google reads it as (a `Dissallow` value is a pattern). */
function valueSpans(line: string, value: Range, reading: KeyReading, out: TokenSpan[]): void {
  if (value.end === value.start) return;
  if (reading.field === 'allow' || reading.field === 'disallow') patternSpans(line, value, out);
  else {
    const token = reading.field === 'sitemap' ? 'url' : reading.field === 'user-agent' ? 'agent' : 'ignored-value';
    out.push({ from: value.start, to: value.end, token });
  }
}

/** The spans of a line holding a directive: key, separator, value, and whatever the parser did not read. */
function directiveSpans(line: string, parts: LineReading, contentEnd: number, out: TokenSpan[]): void {
  const { key, value, reading } = parts;
  if (!key || !value || !reading) return;
  out.push({ from: key.start, to: key.end, token: keyToken(reading) });
  const colon = line.indexOf(':', key.end);
  if (colon >= 0 && colon < value.start) out.push({ from: colon, to: colon + 1, token: 'separator' });
  valueSpans(line, value, reading, out);
  runs(line, value.end, contentEnd, 'unread', out);
}

/** The coloured spans of one line (no line break in it), in order; text between them is whitespace. */
export function lineTokens(line: string): TokenSpan[] {
  const parts = readLine(line);
  const contentEnd = parts.comment ? parts.comment.start : line.length;
  const out: TokenSpan[] = [];
  if (parts.key) directiveSpans(line, parts, contentEnd, out);
  else runs(line, 0, contentEnd, 'invalid', out);
  if (parts.comment) out.push({ from: parts.comment.start, to: parts.comment.end, token: 'comment' });
  return out;
}

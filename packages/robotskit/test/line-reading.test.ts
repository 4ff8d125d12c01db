/**
 * `readLine`: one line split as Google's parser splits it, for tools that colour files. Held to the parser itself:
 * every line is also parsed inside a file, and its record's key, value and comment must be where `readLine` says.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, readLine } from '../src/index.js';

/** The line as the parts `readLine` finds: `[key]`, `{value}`, `(comment)`. */
function parts(line: string): string {
  const { key, value, comment } = readLine(line);
  const marks: [number, string][] = [];
  if (key) marks.push([key.start, '['], [key.end, ']']);
  if (value) marks.push([value.start, '{'], [value.end, '}']);
  if (comment) marks.push([comment.start, '('], [comment.end, ')']);
  let out = line;
  // Marks at one offset go in reverse, so that an empty value reads `{}`.
  for (const [at, mark] of marks.reverse().sort((a, b) => b[0] - a[0]))
    out = `${out.slice(0, at)}${mark}${out.slice(at)}`;
  return out;
}

const CASES: [line: string, split: string, field: string | null][] = [
  ['Disallow: /private/', '[Disallow]: {/private/}', 'disallow'],
  ['  Dissallow :  /x*y$  # old', '  [Dissallow] :  {/x*y$}  (# old)', 'disallow'],
  ['user agent: Googlebot', '[user agent]: {Googlebot}', 'user-agent'],
  ['useragent *', '[useragent] {*}', 'user-agent'],
  ['Disallow /no-colon', '[Disallow] {/no-colon}', 'disallow'],
  ['Disallowed: /x', '[Disallowed]: {/x}', 'disallow'],
  ['Site-map: https://example.com/s.xml', '[Site-map]: {https://example.com/s.xml}', 'sitemap'],
  ['Crawl-delay: 10', '[Crawl-delay]: {10}', 'unknown'],
  ['Noindex: /old', '[Noindex]: {/old}', 'unknown'],
  ['Alow: /x', '[Alow]: {/x}', 'unknown'],
  ['Disallow:', '[Disallow]:{}', 'disallow'],
  ['a b c', 'a b c', null],
  ['just-a-word', 'just-a-word', null],
  [': /x', ': /x', null],
  ['# only a comment', '(# only a comment)', null],
  ['', '', null],
  ['Disallow: /ä/ü # größer', '[Disallow]: {/ä/ü} (# größer)', 'disallow'],
  ['Disallow: /🤖 # emoji', '[Disallow]: {/🤖} (# emoji)', 'disallow'],
  ['\uFEFFDisallow: /x', '[\uFEFFDisallow]: {/x}', 'unknown'],
  ['Disallow: /a\0b # c', '[Disallow]: {/a}\0b # c', 'disallow'],
];

describe('readLine', () => {
  it.each(CASES)('%j splits as %j', (line, split, field) => {
    expect(parts(line)).toBe(split);
    expect(readLine(line).reading?.field ?? null).toBe(field);
  });

  it.each(CASES)('%j is where the parser reads it in a file', (line) => {
    const record = parseRobotsTxt(`User-agent: *\n${line}\n`).records[1]!;
    const at = record.range.start;
    const shift = (range: { start: number; end: number } | null) =>
      range && { start: range.start - at, end: range.end - at };
    const read = readLine(line);
    expect(read.key).toEqual(shift(record.keyRange));
    expect(read.value).toEqual(shift(record.valueRange));
    expect(read.comment).toEqual(shift(record.commentRange));
    expect(read.reading?.field ?? null).toBe(record.field);
  });

  it('reads only up to the first line break', () => {
    expect(parts('Allow: /a\nDisallow: /b')).toBe('[Allow]: {/a}\nDisallow: /b');
  });

  it('stops where Google stops keeping a long line', () => {
    const line = `Disallow: /${'é'.repeat(10_000)}`;
    const { value } = readLine(line);
    const record = parseRobotsTxt(`User-agent: *\n${line}\n`).records[1]!;
    expect(value!.end).toBeLessThan(line.length);
    expect(value!.end).toBe(record.valueRange!.end - record.range.start);
  });

  it('throws a TypeError for a line that is not a string', () => {
    expect(() => readLine(3 as unknown as string)).toThrow(TypeError);
  });
});

/**
 * `formatRobots`: a canonical layout of a robots.txt that provably decides every URL as the original does.
 *
 * Field names are spelled out (`User-agent`, `Allow`, `Disallow`, `Sitemap`, accepted typos and prefix keys included,
 * a missing colon added), values and comments kept as written, blank lines only between groups (Google ignores blank
 * lines). A rule repeating an earlier rule of the same kind and pattern in its group is removed only when
 * {@link compareRobots} proves, for every catalogue crawler, every token the file names and `*`, that nothing changes.
 * Lines the parser could not read, or cut (too long, NUL), are kept as they are.
 *
 * It works in the input's own units and never decodes: the layout is assembled from slices of the input (UTF-16 for a
 * string, bytes for bytes, located by the records' ranges) and ASCII it writes itself, so a byte that is not UTF-8
 * (`\xe9` in a Latin-1 file) comes out as it went in. The whole result is then parsed again, in the same units, and
 * compared with the input; when that proof fails or is cut short, the result says so and carries the input unchanged.
 */

import { CRAWLERS } from '../crawlers/catalogue.js';
import type { Range, RobotsRecord } from '../model/types.js';
import { type RobotsInput, utf8Decoder } from '../parse/input.js';
import { parseRobotsTxt, type RobotsTxt } from '../robots-txt/robots-txt.js';
import { type CompareOptions, compareRobots } from './compare.js';

const CANONICAL: Record<string, string> = {
  'user-agent': 'User-agent',
  allow: 'Allow',
  disallow: 'Disallow',
  sitemap: 'Sitemap',
};

/** The result of {@link formatRobots}. */
export interface FormatResult {
  /**
   * Whether the layout is proven to decide every URL as the input does, for every crawler, with the same sitemaps.
   * When false (the file is cut at the parse limit, the comparison reached its bounds), `reason` says why, and
   * `text` and `bytes` are the input as it was: nothing unproven is handed out.
   */
  readonly proven: boolean;
  /** Why the layout is not proven, in words; null when it is. */
  readonly reason: string | null;
  /**
   * The formatted text (line breaks `\n`, ending with one). For a string input, the result itself; for bytes, the
   * result decoded as UTF-8 to show (a byte that is not UTF-8 reads as U+FFFD there): write `bytes`, never this.
   */
  readonly text: string;
  /** The formatted file as bytes: every byte of the input it does not reformat, as it was (UTF-8 for a string). */
  readonly bytes: Uint8Array;
  /** Whether the result differs from the input (byte for byte for bytes, char for char for a string). */
  readonly changed: boolean;
  /** 1-based lines of the input removed as duplicate rules (proven not to change any verdict). */
  readonly removedLines: readonly number[];
}

/** A piece of output: a slice of the input in its own units (a string, or bytes), or ASCII written by the layout. */
type Piece = string | Uint8Array;

/** The input in its own units: its slices by range, and whole pieces put back together in the same form. */
interface Source {
  slice(range: Range): Piece;
  /** `range` without its trailing ASCII whitespace (space, tab, vertical tab, form feed, carriage return). */
  trimmedEnd(range: Range): Range;
  join(pieces: readonly Piece[]): string | Uint8Array;
}

const isAsciiSpace = (c: number): boolean => c === 0x20 || (c >= 0x09 && c <= 0x0d);

function textSource(text: string): Source {
  return {
    slice: (r) => text.slice(r.start, r.end),
    trimmedEnd(r) {
      let end = r.end;
      while (end > r.start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
      return { start: r.start, end };
    },
    join: (pieces) => pieces.join(''),
  };
}

const encoder = new TextEncoder();

function byteSource(bytes: Uint8Array): Source {
  return {
    slice: (r) => bytes.subarray(r.start, r.end),
    trimmedEnd(r) {
      let end = r.end;
      while (end > r.start && isAsciiSpace(bytes[end - 1]!)) end--;
      return { start: r.start, end };
    },
    join(pieces) {
      const parts = pieces.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
      const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) {
        out.set(p, at);
        at += p.length;
      }
      return out;
    },
  };
}

/** One record's line in the canonical layout, as pieces (no line break). */
function lineOf(record: RobotsRecord, source: Source): Piece[] {
  if (record.kind !== 'directive' || record.flags.tooLong || record.flags.nul)
    return [source.slice(source.trimmedEnd(record.range))];
  const key =
    record.field !== null && record.field !== 'unknown' ? CANONICAL[record.field]! : source.slice(record.keyRange!);
  const value = record.valueRange === null ? '' : source.slice(record.valueRange);
  const line: Piece[] = value.length === 0 ? [key, ':'] : [key, ': ', value];
  if (record.commentRange !== null) line.push(' ', source.slice(source.trimmedEnd(record.commentRange)));
  return line;
}

/** The first char or byte of a line of the layout, or -1 when it is empty. */
function firstUnit(line: readonly Piece[]): number {
  const first = line.find((p) => p.length > 0);
  if (first === undefined) return -1;
  return typeof first === 'string' ? first.charCodeAt(0) : first[0]!;
}

/** Whether a line starts with the byte 0xEF (in a string: a char U+F000 to U+FFFF, whose UTF-8 starts with it). */
function startsWithBomByte(line: readonly Piece[]): boolean {
  const first = line.find((p) => p.length > 0);
  return typeof first === 'string' ? firstUnit(line) >= 0xf000 : firstUnit(line) === 0xef;
}

/** Whether a line of the layout starts with `#` (a comment line). */
function isComment(line: readonly Piece[]): boolean {
  return firstUnit(line) === 0x23;
}

function layout(robots: RobotsTxt, source: Source, skip: ReadonlySet<number>): string | Uint8Array {
  const out: Piece[][] = [];
  let sawRule = false;
  let sawAgent = false;
  for (const record of robots.records) {
    if (skip.has(record.line) || record.kind === 'blank') continue;
    const field = record.kind === 'directive' ? record.field : null;
    if (field === 'user-agent' && (sawRule || !sawAgent) && out.length > 0) {
      // A new group: one blank line before it, and before the comments right above it.
      let at = out.length;
      while (at > 0 && isComment(out[at - 1]!)) at--;
      if (at > 0 && out[at - 1]!.length > 0) out.splice(at, 0, []);
    }
    if (field === 'user-agent') {
      if (sawRule) sawRule = false;
      sawAgent = true;
    } else if (field === 'allow' || field === 'disallow') sawRule = true;
    out.push(lineOf(record, source));
  }
  // A first line starting with the byte 0xEF would lose it: the parser skips a byte order mark, even a partial one,
  // at the start of a file (a BOM line that was not the first, or a second BOM). A blank line keeps it off the start.
  if (out.length > 0 && startsWithBomByte(out[0]!)) out.unshift([]);
  return source.join(out.flatMap((line) => [...line, '\n']));
}

/** The crawlers a format must not change anything for: the catalogue, every token the file names, and `*`. */
function everyCrawler(robots: RobotsTxt): NonNullable<CompareOptions['crawlers']> {
  const tokens = new Set<string>();
  for (const group of robots.groups) for (const agent of group.agents) if (agent.token !== '') tokens.add(agent.token);
  return [...CRAWLERS, ...tokens, '*'];
}

/** Lines of rules that repeat an earlier rule (same kind, same pattern) of their group. */
function duplicateRules(robots: RobotsTxt): number[] {
  const lines: number[] = [];
  for (const group of robots.groups) {
    const seen = new Set<string>();
    for (const rule of group.rules) {
      const key = `${rule.kind} ${rule.pattern}`;
      if (seen.has(key)) lines.push(rule.line);
      else seen.add(key);
    }
  }
  return lines;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Formats a robots.txt (Google's reading), in the input's own units: a string gives a string, bytes give bytes. The
 * result decides every URL as the input does for every crawler; rules are removed only when the comparison proves it,
 * and the result is handed out only when proven (`proven`). Throws only on programmer errors.
 * @example formatRobots('user-agent: *\ndisalow: /x').text === 'User-agent: *\nDisallow: /x\n'
 */
export function formatRobots(input: RobotsInput): FormatResult {
  const robots = parseRobotsTxt(input);
  const inputBytes = typeof input === 'string' ? null : input instanceof Uint8Array ? input : new Uint8Array(input);
  const source = inputBytes === null ? textSource(input as string) : byteSource(inputBytes);
  const asResult = (out: string | Uint8Array) =>
    typeof out === 'string' ? { text: out, bytes: encoder.encode(out) } : { text: utf8Decoder.decode(out), bytes: out };
  const unproven = (reason: string): FormatResult => ({
    proven: false,
    reason,
    ...asResult(inputBytes ?? (input as string)),
    changed: false,
    removedLines: [],
  });
  // Only what was parsed can be laid out again.
  if (robots.truncated)
    return unproven('the file is longer than the parse limit, and only what is parsed can be laid out');
  const crawlers = everyCrawler(robots);
  const kept = layout(robots, source, new Set());
  let out = kept;
  let removedLines: number[] = [];
  const duplicates = duplicateRules(robots);
  if (duplicates.length > 0) {
    const shorter = layout(robots, source, new Set(duplicates));
    if (compareRobots(parseRobotsTxt(kept), parseRobotsTxt(shorter), { crawlers }).equivalent) {
      out = shorter;
      removedLines = duplicates;
    }
  }
  // The proof for the whole result, read in the input's units: the same verdicts everywhere and the same sitemaps.
  const result = parseRobotsTxt(out);
  if (result.sitemaps.join('\n') !== robots.sitemaps.join('\n'))
    return unproven('the layout would change the sitemaps the file lists');
  const comparison = compareRobots(robots, result, { crawlers });
  if (!comparison.complete) return unproven('the comparison that proves the layout reached its bounds');
  if (!comparison.equivalent) return unproven('the layout would change what the file means');
  const changed = typeof out === 'string' ? out !== input : !sameBytes(out, inputBytes!);
  return { proven: true, reason: null, ...asResult(out), changed, removedLines };
}

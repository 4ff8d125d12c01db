/**
 * Allow/disallow patterns: normalisation (Google's `MaybeEscapePattern`) and matching.
 *
 * Matching never builds a RegExp from input. A pattern is split at its `*`s into literal segments; the first must be a
 * prefix of the path, each later one is found at its leftmost occurrence after the previous (leftmost is always safe
 * for `*`), and a final `$` requires the last segment to end the path. That is linear in the path per segment and
 * decides exactly what the reference's position-set automaton decides.
 */

import { byteAt, toSourceBytes } from '../parse/input.js';

const HEX = '0123456789ABCDEF';

function isHexDigit(b: number): boolean {
  return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);
}

function upperHex(b: number): number {
  return b >= 0x61 && b <= 0x66 ? b - 0x20 : b;
}

/**
 * Normalises the pattern in `[start, end)` of a `bin` string (one char per byte, see `parse/input.ts`): bytes >= 0x80
 * become `%XX` (uppercase hex) and the hex digits of existing `%xx` escapes are uppercased. Escapes are never decoded.
 */
export function normalizePatternBin(bin: string, start: number, end: number): string {
  if (!patternNeedsNormalizing(bin, start, end)) return bin.slice(start, end);
  let out = '';
  for (let i = start; i < end; i++) {
    const c = bin.charCodeAt(i);
    if (c === 0x25 && i + 2 < end && isHexDigit(bin.charCodeAt(i + 1)) && isHexDigit(bin.charCodeAt(i + 2))) {
      out += `%${String.fromCharCode(upperHex(bin.charCodeAt(i + 1)), upperHex(bin.charCodeAt(i + 2)))}`;
      i += 2;
    } else if (c >= 0x80) {
      const b = byteAt(bin, i);
      out += `%${HEX[b >> 4]}${HEX[b & 0xf]}`;
    } else {
      out += bin[i];
    }
  }
  return out;
}

/** Whether normalising `[start, end)` of a `bin` string changes it: a byte >= 0x80, or a `%xx` with a lower-case digit. */
export function patternNeedsNormalizing(bin: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bin.charCodeAt(i);
    if (c >= 0x80) return true;
    if (c === 0x25 && i + 2 < end && isHexDigit(bin.charCodeAt(i + 1)) && isHexDigit(bin.charCodeAt(i + 2))) {
      if (bin.charCodeAt(i + 1) >= 0x61 || bin.charCodeAt(i + 2) >= 0x61) return true;
      i += 2;
    }
  }
  return false;
}

/**
 * Normalises a pattern written as text, the way the parser normalises allow/disallow values: `/á` → `/%C3%A1`,
 * `%aa` → `%AA`, `%62` stays `%62`.
 * @example normalizePattern('/foo/bar/ツ') === '/foo/bar/%E3%83%84'
 */
export function normalizePattern(pattern: string): string {
  const { bin } = toSourceBytes(pattern, Number.MAX_SAFE_INTEGER);
  return normalizePatternBin(bin, 0, bin.length);
}

/** A normalised pattern prepared for matching. */
export interface CompiledPattern {
  /** The normalised pattern as written (its length is the match priority). */
  readonly source: string;
  /** Literal text before the first `*` (the whole pattern without a final `$` when there is no `*`). */
  readonly prefix: string;
  /** Literal segments between later `*`s, empty ones dropped; null when the pattern has no `*`. */
  readonly segments: readonly string[] | null;
  /** The literal after the last `*` (only meaningful when `segments` is not null). */
  readonly tail: string;
  /** The pattern ends in `$`: the match must reach the end of the path. */
  readonly anchored: boolean;
}

/** Prepares a normalised pattern for {@link matchesFrom}. */
export function compilePattern(source: string): CompiledPattern {
  const anchored = source.length > 0 && source.charCodeAt(source.length - 1) === 0x24;
  const body = anchored ? source.slice(0, -1) : source;
  const star = body.indexOf('*');
  if (star < 0) return { source, prefix: body, segments: null, tail: '', anchored };
  const parts = body.slice(star + 1).split('*');
  const tail = parts.pop() ?? '';
  return { source, prefix: body.slice(0, star), segments: parts.filter((p) => p.length > 0), tail, anchored };
}

/**
 * Whether `path` matches the pattern, given that its first `from` chars are already known to equal `p.prefix`
 * (`from` is `p.prefix.length` when the caller checked the prefix, 0 otherwise).
 */
export function matchesFrom(p: CompiledPattern, path: string, from: number): boolean {
  const prefix = p.prefix;
  let pos = prefix.length;
  if (from === 0 && pos > 0) {
    // Comparing the prefix's last char first rejects most non-matching rules before the (much slower) full compare.
    // Never past the end of the path: a charCodeAt call that once read past the end is no longer inlined.
    if (pos > path.length || path.charCodeAt(pos - 1) !== prefix.charCodeAt(pos - 1)) return false;
    if (pos > 1 && !path.startsWith(prefix)) return false;
  }
  const segments = p.segments;
  if (segments === null) return !p.anchored || path.length === pos;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const at = path.indexOf(seg, pos);
    if (at < 0) return false;
    pos = at + seg.length;
  }
  if (p.anchored) {
    const tail = p.tail;
    const start = path.length - tail.length;
    if (start < pos) return false;
    if (tail.length === 0) return true;
    // As above: the last char first, then the whole tail.
    if (path.charCodeAt(path.length - 1) !== tail.charCodeAt(tail.length - 1)) return false;
    return tail.length === 1 || path.startsWith(tail, start);
  }
  return p.tail.length === 0 || path.indexOf(p.tail, pos) >= 0;
}

/** Whether a normalised pattern matches a path (path plus query, starting with `/`). */
export function matchPattern(pattern: string, path: string): boolean {
  return matchesFrom(compilePattern(pattern), path, 0);
}

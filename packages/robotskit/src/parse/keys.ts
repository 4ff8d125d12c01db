/**
 * Field names as Google's parser recognises them: case-insensitive *prefix* matches (`disallowed:` is a disallow,
 * `user-agentfoo:` a user-agent) plus a fixed list of accepted typos. There are no typos for `allow`.
 *
 * The reference tries user-agent, then allow, then disallow, then sitemap. No spelling of one field starts like a
 * spelling of another, so dispatching on the first letter gives the same answers.
 */

import { Field, LineFlag } from './fields.js';

/** The low bits of {@link classifyKey}'s result hold the field; the rest are {@link LineFlag} bits. */
export const KEY_FIELD_MASK = 0x7;

const TYPO = LineFlag.Typo;
const PREFIX = LineFlag.PrefixKey;

/**
 * The char at `i` with bit 0x20 set: the lower case of an ASCII letter. Exact for comparing with letters, `-` and
 * space, since the other chars that map onto those (CR, NUL) never occur in a key, and chars >= 0x80 stay >= 0x80.
 */
function lc(bin: string, i: number): number {
  return bin.charCodeAt(i) | 0x20;
}

/**
 * Whether the key at `start` (length `len`, first letter already compared) starts with `lower`, an ASCII lower-case
 * name.
 */
function startsWithName(bin: string, start: number, len: number, lower: string): boolean {
  const n = lower.length;
  if (len < n) return false;
  for (let i = 1; i < n; i++) {
    if (lc(bin, start + i) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/** `field`, plus the prefix flag when the key is longer than the name it matched. */
function found(field: number, keyLength: number, nameLength: number, typo: number): number {
  return field | typo | (keyLength > nameLength ? PREFIX : 0);
}

/** {@link exactKeyWithColon}'s result for `disallow:`. */
export const EXACT_DISALLOW = Field.Disallow | (8 << 3);

/**
 * Whether the content `[s, end)` of `b` starts with `disallow:` (any case), four lines in five of real files. Small
 * enough to be inlined into the scanner's loop, unlike {@link exactKeyWithColon}.
 */
export function startsWithDisallowColon(b: Uint8Array, s: number, end: number): boolean {
  // Bit 0x20 set: the lower case of a letter; no other byte maps onto a lower-case letter.
  return (
    end - s > 8 &&
    b[s + 8] === 0x3a &&
    (b[s]! | 0x20) === 0x64 &&
    (b[s + 1]! | 0x20) === 0x69 &&
    (b[s + 2]! | 0x20) === 0x73 &&
    (b[s + 3]! | 0x20) === 0x61 &&
    (b[s + 4]! | 0x20) === 0x6c &&
    (b[s + 5]! | 0x20) === 0x6c &&
    (b[s + 6]! | 0x20) === 0x6f &&
    (b[s + 7]! | 0x20) === 0x77
  );
}

/** The four names by {@link Field} code. */
const NAMES = ['', 'user-agent', 'allow', 'disallow', 'sitemap'];

/**
 * The model scanner's shortcut for a line whose trimmed content `[s, end)` of `b` starts with one of the four names
 * spelt in full (any case) directly followed by a colon, as nearly every line of real files does: the key is then
 * exactly that name and the colon its separator, so the colon need not be searched. Returns
 * `field | nameLength << 3` (the field in {@link KEY_FIELD_MASK}), or 0 when the line has another shape and goes
 * through {@link classifyKey}. Reads bytes, which the engine reads faster than the chars of a string.
 */
export function exactKeyWithColon(b: Uint8Array, s: number, end: number): number {
  const first = b[s]! | 0x20;
  const field =
    first === 0x64
      ? Field.Disallow
      : first === 0x75
        ? Field.UserAgent
        : first === 0x61
          ? Field.Allow
          : first === 0x73
            ? Field.Sitemap
            : 0;
  if (field === 0) return 0;
  const name = NAMES[field]!;
  const n = name.length;
  if (end - s <= n || b[s + n] !== 0x3a) return 0;
  // Bit 0x20 set: the lower case of a letter; of the other bytes that can be in a key, none maps onto a letter or `-`
  // (CR, which maps onto `-`, ends the line).
  for (let i = 1; i < n; i++) if ((b[s + i]! | 0x20) !== name.charCodeAt(i)) return 0;
  return field | (n << 3);
}

/**
 * Classifies the key `[start, end)` of a `bin` string (already trimmed). Returns the field in the bits of
 * {@link KEY_FIELD_MASK}, or-ed with {@link LineFlag.Typo} and {@link LineFlag.PrefixKey} where they apply.
 */
export function classifyKey(bin: string, start: number, end: number): number {
  const len = end - start;
  const first = lc(bin, start);
  // The four names as most files spell them come first, in a function small enough to be inlined where it is called.
  if (first === 0x64 && startsWithName(bin, start, len, 'disallow'))
    return len === 8 ? Field.Disallow : Field.Disallow | PREFIX;
  if (first === 0x75 && startsWithName(bin, start, len, 'user-agent'))
    return len === 10 ? Field.UserAgent : Field.UserAgent | PREFIX;
  if (first === 0x61 && startsWithName(bin, start, len, 'allow')) return len === 5 ? Field.Allow : Field.Allow | PREFIX;
  if (first === 0x73 && startsWithName(bin, start, len, 'sitemap'))
    return len === 7 ? Field.Sitemap : Field.Sitemap | PREFIX;
  return classifyTypo(bin, start, len, first);
}

/** The accepted typos; anything else is an unknown key. */
function classifyTypo(bin: string, start: number, len: number, first: number): number {
  switch (first) {
    case 0x75: // u
      if (startsWithName(bin, start, len, 'useragent')) return found(Field.UserAgent, len, 9, TYPO);
      if (startsWithName(bin, start, len, 'user agent')) return found(Field.UserAgent, len, 10, TYPO);
      return Field.Unknown;
    case 0x64: // d
      if (startsWithName(bin, start, len, 'dissallow')) return found(Field.Disallow, len, 9, TYPO);
      if (startsWithName(bin, start, len, 'dissalow')) return found(Field.Disallow, len, 8, TYPO);
      if (startsWithName(bin, start, len, 'disalow')) return found(Field.Disallow, len, 7, TYPO);
      if (startsWithName(bin, start, len, 'diasllow')) return found(Field.Disallow, len, 8, TYPO);
      if (startsWithName(bin, start, len, 'disallaw')) return found(Field.Disallow, len, 8, TYPO);
      return Field.Unknown;
    case 0x73: // s
      return startsWithName(bin, start, len, 'site-map') ? found(Field.Sitemap, len, 8, TYPO) : Field.Unknown;
    default:
      return Field.Unknown;
  }
}

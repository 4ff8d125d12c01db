/**
 * Paths and patterns as the 1994 convention compares them: octet by octet, with `%xx` escapes decoded first, except
 * `%2F`, which keeps its meaning as a literal character and never equals a path separator (the 1996 draft, §3.2.2:
 * "If a %xx encoded octet is encountered it is unencoded prior to comparison, unless it is the "/" character").
 */

/** Stands for an undecoded `%2F` in {@link decodedOctets}: above 0xFF, so it equals no decoded octet. */
const ENCODED_SLASH = '\u0100';

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

/** Whether `text` needs {@link decodedOctets} to change it: it has a `%` or a char outside ASCII. */
function needsDecoding(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 || c >= 0x80) return true;
  }
  return false;
}

/**
 * The octets a path or pattern stands for, as a string of one char per octet: `%xx` escapes (either case) decoded,
 * `%2F` kept apart as {@link ENCODED_SLASH}, other `%` left as they are, chars outside ASCII as their UTF-8 octets
 * (a lone surrogate as the octets of U+FFFD, as `TextEncoder` writes it). Two texts name the same resource to a 1994
 * crawler exactly when their octets are equal, and one is a prefix of the other's octets exactly when it matches it.
 * @example decodedOctets('/%7Ejoe/a%2Fb') === '/~joe/a\u0100b'
 */
export function decodedOctets(text: string): string {
  if (!needsDecoding(text)) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 && i + 2 < text.length) {
      const hi = hexValue(text.charCodeAt(i + 1));
      const lo = hexValue(text.charCodeAt(i + 2));
      if (hi >= 0 && lo >= 0) {
        const octet = (hi << 4) | lo;
        out += octet === 0x2f ? ENCODED_SLASH : String.fromCharCode(octet);
        i += 2;
        continue;
      }
    }
    if (c < 0x80) {
      out += text[i];
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp < 0x800) out += String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
    else if (cp < 0x10000) out += String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
    else
      out += String.fromCharCode(
        0xf0 | (cp >> 18),
        0x80 | ((cp >> 12) & 0x3f),
        0x80 | ((cp >> 6) & 0x3f),
        0x80 | (cp & 0x3f),
      );
  }
  return out;
}

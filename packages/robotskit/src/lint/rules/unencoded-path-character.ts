/**
 * The lint rule `unencoded-path-character`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/unencoded-path-character.md.
 */

import { defineRule } from '../rule.js';
import { fieldSpelling, quote } from '../words.js';

// Characters that browsers and crawlers always percent-encode in paths and queries (WHATWG URL), and control chars.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for.
const RAW = /[\u0000-\u0020"<>\u007f]/g;
// The same, to test a value cheaply before looking closer.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this looks for.
const HAS_RAW = /[\u0000-\u0020"<>\u007f]/;

const encode = (c: string): string => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/** `unencoded-path-character`: characters a URL never holds raw (space, quotes, angle brackets) in a rule. */
export const unencodedPathCharacter = defineRule({
  code: 'unencoded-path-character',
  name: 'Character URLs never contain raw',
  severity: 'warning',
  description:
    'A space, double quote, "<" or ">" in a pattern never matches, because crawlers request URLs with those characters percent-encoded (a space is "%20").',
  check(context) {
    const units = context.units;
    for (const record of context.records) {
      if ((record.field !== 'allow' && record.field !== 'disallow') || record.valueRange === null) continue;
      if (!HAS_RAW.test(record.value)) continue;
      const { start, end } = record.valueRange;
      const value = units.slice(start, end);
      RAW.lastIndex = 0;
      const found = [...value.matchAll(RAW)];
      const first = found[0];
      if (first === undefined) continue;
      // One edit per character, so the rest of the value (whatever its encoding) is left as it is.
      const edits = found.map((m) => ({
        range: { start: start + m.index, end: start + m.index + 1 },
        text: encode(m[0]),
      }));
      context.report({
        range: { start: start + first.index, end: start + first.index + 1 },
        message: `URLs never contain a raw ${quote(first[0])}: crawlers request it as "${encode(first[0])}", so this ${fieldSpelling(record)} pattern never matches`,
        fix: { description: 'Percent-encode the characters URLs never contain raw', edits },
      });
    }
  },
});

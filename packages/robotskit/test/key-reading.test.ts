/**
 * `readKey`: a field name as Google's parser reads it, for tools that show files. Held to the parser itself: every
 * key is also parsed as a line, and the record's field must be the one `readKey` gives.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, readKey } from '../src/index.js';
import { lint } from '../src/lint/index.js';

const CASES: [key: string, field: string, spelling: string | null, ignored: string | null][] = [
  ['User-agent', 'user-agent', 'exact', null],
  ['USER-AGENT', 'user-agent', 'exact', null],
  ['useragent', 'user-agent', 'typo', null],
  ['user agent', 'user-agent', 'typo', null],
  ['User-agentfoo', 'user-agent', 'prefix', null],
  ['Allow', 'allow', 'exact', null],
  ['Allowed', 'allow', 'prefix', null],
  ['Disallow', 'disallow', 'exact', null],
  ['Dissallow', 'disallow', 'typo', null],
  ['dissalow', 'disallow', 'typo', null],
  ['Disalow', 'disallow', 'typo', null],
  ['diasllow', 'disallow', 'typo', null],
  ['disallaw', 'disallow', 'typo', null],
  ['Disallowed', 'disallow', 'prefix', null],
  ['Sitemap', 'sitemap', 'exact', null],
  ['Site-map', 'sitemap', 'typo', null],
  ['Sitemaps', 'sitemap', 'prefix', null],
  ['Alow', 'unknown', null, null],
  ['Crawl-delay', 'unknown', null, 'extension'],
  ['Host', 'unknown', null, 'extension'],
  ['Content-Signal', 'unknown', null, 'extension'],
  ['Noindex', 'unknown', null, 'page-directive'],
  ['constructor', 'unknown', null, null],
  ['toString', 'unknown', null, null],
  ['Disallöw', 'unknown', null, null],
  // Google trims ASCII whitespace only: a no-break space before the name makes another key.
  ['\u00a0Disallow', 'unknown', null, null],
];

describe('readKey', () => {
  it.each(CASES)('%s is read as %s (%s, %s)', (key, field, spelling, ignored) => {
    expect(readKey(key)).toMatchObject({ field, spelling, ignored });
    // The parser reads the same key the same way.
    const record = parseRobotsTxt(`${key}: /x\n`).records[0]!;
    expect(record.field).toBe(field);
  });

  it('gives the usual spelling of the fields people define', () => {
    expect(readKey('dissallow').canonical).toBe('Disallow');
    expect(readKey('crawl-DELAY').canonical).toBe('Crawl-delay');
    expect(readKey('Alow').canonical).toBeNull();
  });

  it('ignores surrounding whitespace, as the parser trims the key', () => {
    expect(readKey('  Disallow\t')).toMatchObject({ field: 'disallow', spelling: 'exact' });
    expect(readKey('')).toMatchObject({ field: 'unknown', ignored: null });
  });

  it('throws a TypeError for a key that is not a string', () => {
    expect(() => readKey(3 as unknown as string)).toThrow(TypeError);
  });

  it('lets the linter report a key named like a member of Object.prototype as unknown', () => {
    expect(lint('User-agent: *\nconstructor: x\ntoString: y\n').map((d) => d.code)).toEqual(
      expect.arrayContaining(['unknown-field']),
    );
    expect(lint('User-agent: *\nconstructor: x\n').filter((d) => d.code === 'unknown-field')).toHaveLength(1);
  });
});

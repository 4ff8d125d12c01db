/**
 * Every behaviour fact of `shared/conformance/google-reference-behaviour.md`, each test named after the fact it proves
 * (`[fact N]` for the numbered unit-test facts, `[extra: …]` for the facts from robots.cc). The robots.txt files here
 * are written for this suite.
 */
import { describe, expect, it } from 'vitest';
import { isValidProductToken, parseRobotsTxt, pathOfUrl, type RobotsInput } from '../src/index.js';
import { normalizePattern } from '../src/match/pattern.js';
import { MAX_LINE_BYTES } from '../src/parse/lines.js';
import { bytes } from './helpers.js';

function allowed(robots: RobotsInput, agent: string | string[], url: string): boolean {
  return parseRobotsTxt(robots).isAllowed(url, agent);
}

function line(robots: RobotsInput, agent: string | string[], url: string): number {
  return parseRobotsTxt(robots).explain(url, agent).line;
}

function concat(...parts: (string | number[])[]): Uint8Array {
  const chunks = parts.map((p) => (typeof p === 'string' ? bytes(p) : Uint8Array.from(p)));
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

describe('robots_test.cc', () => {
  it('[fact 1] degenerate inputs: empty file, empty agent, empty URL', () => {
    expect(allowed('', 'FooBot', '')).toBe(true);
    expect(allowed('', '', '')).toBe(true);
    expect(allowed('', 'FooBot', 'http://example.com/any/path')).toBe(true);
    const fooOnly = 'user-agent: FooBot\ndisallow: /\n';
    expect(allowed(fooOnly, '', '')).toBe(true);
    // An empty URL is the path "/".
    expect(allowed(fooOnly, 'FooBot', '')).toBe(false);
  });

  it('[fact 2] key: value lines; unknown keys ignored; a missing colon accepted between exactly two tokens', () => {
    expect(allowed('foo: FooBot\nbar: /\n', 'FooBot', 'http://example.com/x/y')).toBe(true);
    expect(allowed('user-agent FooBot\ndisallow /\n', 'FooBot', 'http://example.com/x/y')).toBe(false);
    expect(allowed('user-agent: FooBot\ndisallow: /\n', 'FooBot', 'http://example.com/x/y')).toBe(false);
  });

  it('[fact 3] groups: merging, rules before any agent, blank lines do not end a group', () => {
    const robots = [
      'allow: /foo/bar/',
      'user-agent: FooBot',
      'disallow: /',
      'allow: /x/',
      'user-agent: BarBot',
      'disallow: /',
      'allow: /y/',
      '',
      '',
      'allow: /w/',
      'user-agent: BazBot',
      '',
      'user-agent: FooBot',
      'allow: /z/',
      'disallow: /',
      '',
    ].join('\n');
    const u = (p: string) => `http://example.com${p}`;
    expect(allowed(robots, 'FooBot', u('/x/b'))).toBe(true);
    expect(allowed(robots, 'FooBot', u('/z/d'))).toBe(true); // from FooBot's second group, merged
    expect(allowed(robots, 'FooBot', u('/y/c'))).toBe(false);
    expect(allowed(robots, 'BarBot', u('/y/c'))).toBe(true);
    expect(allowed(robots, 'BarBot', u('/w/a'))).toBe(true); // after blank lines, still BarBot's group
    expect(allowed(robots, 'BarBot', u('/z/d'))).toBe(false);
    expect(allowed(robots, 'BazBot', u('/z/d'))).toBe(true); // BazBot joined FooBot's second group
    expect(allowed(robots, 'FooBot', u('/foo/bar/'))).toBe(false); // the leading allow belongs to no group
  });

  it('[fact 4] sitemap and unknown lines between user-agent lines do not end the run', () => {
    for (const between of ['Sitemap: https://example.com/sitemap.xml', 'Invalid-Unknown-Line: unknown']) {
      const robots = `User-agent: BarBot\n${between}\nUser-agent: *\nDisallow: /\n`;
      expect(allowed(robots, 'BarBot', 'http://example.com/')).toBe(false);
    }
  });

  it('[fact 5] field names are case-insensitive', () => {
    for (const robots of [
      'USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n',
      'user-agent: FooBot\nallow: /x/\ndisallow: /\n',
      'uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n',
    ]) {
      expect(allowed(robots, 'FooBot', 'http://example.com/x/y')).toBe(true);
      expect(allowed(robots, 'FooBot', 'http://example.com/a/b')).toBe(false);
    }
  });

  it('[fact 6] valid user agents to obey are non-empty [a-zA-Z_-]', () => {
    for (const ok of ['Foobot', 'Foobot-Bar', 'Foo_Bar']) expect(isValidProductToken(ok)).toBe(true);
    for (const bad of ['', 'ツ', 'Foobot*', ' Foobot ', 'Foobot/2.1', 'Foobot Bar']) {
      expect(isValidProductToken(bad)).toBe(false);
    }
  });

  it('[fact 7] user-agent values match case-insensitively', () => {
    for (const name of ['FOO BAR', 'foo bar', 'FoO bAr']) {
      const robots = `User-Agent: ${name}\nAllow: /x/\nDisallow: /\n`;
      for (const caller of ['Foo', 'foo']) {
        expect(allowed(robots, caller, 'http://example.com/x/y')).toBe(true);
        expect(allowed(robots, caller, 'http://example.com/a/b')).toBe(false);
      }
    }
  });

  it('[fact 8] a file user-agent is read up to its first non-token character', () => {
    const robots = 'User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n';
    expect(allowed(robots, 'Foo', 'http://example.com/x/y')).toBe(true);
    // The caller's name is not truncated: "Foo Bar" names no group and falls to "*".
    expect(allowed(robots, 'Foo Bar', 'http://example.com/x/y')).toBe(false);
  });

  it('[fact 9] the * group applies only when no group names the crawler', () => {
    const robots = 'user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n';
    expect(allowed(robots, 'FooBot', 'http://example.com/x/y')).toBe(false);
    expect(allowed(robots, 'BarBot', 'http://example.com/x/y')).toBe(true);
    const noGlobal = 'user-agent: FooBot\nallow: /\nuser-agent: BarBot\ndisallow: /\nuser-agent: BazBot\ndisallow: /\n';
    expect(allowed(noGlobal, 'QuxBot', 'http://example.com/x/y')).toBe(true);
    expect(allowed('', 'FooBot', 'http://example.com/x/y')).toBe(true);
  });

  it('[fact 10] path matching is case-sensitive', () => {
    expect(allowed('user-agent: FooBot\ndisallow: /X/\n', 'FooBot', 'http://example.com/x/y')).toBe(true);
    expect(allowed('user-agent: FooBot\ndisallow: /x/\n', 'FooBot', 'http://example.com/x/y')).toBe(false);
  });

  it('[fact 11] longest match wins, ties go to allow, a specific group replaces *', () => {
    const u = (p: string) => `http://example.com${p}`;
    const both = (a: string, d: string) => `user-agent: FooBot\ndisallow: ${d}\nallow: ${a}\n`;
    expect(allowed(both('/x/page.html', '/x/page.html'), 'FooBot', u('/x/page.html'))).toBe(true);
    expect(allowed(both('/', '/'), 'FooBot', u('/x/page.html'))).toBe(true);
    expect(allowed(both('', ''), 'FooBot', u('/x/page.html'))).toBe(true);
    expect(allowed(both('/x/', '/x'), 'FooBot', u('/x'))).toBe(false);
    expect(allowed(both('/x/', '/x'), 'FooBot', u('/x/'))).toBe(true);
    const allowFirst = 'user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n';
    expect(allowed(allowFirst, 'FooBot', u('/x/page.html'))).toBe(true);
    expect(allowed(allowFirst, 'FooBot', u('/x/'))).toBe(false);
    const html = 'user-agent: FooBot\nallow: /page\ndisallow: /*.html\n';
    expect(allowed(html, 'FooBot', u('/page.html'))).toBe(false); // 7 > 5 chars
    expect(allowed(html, 'FooBot', u('/page'))).toBe(true);
    const dot = 'user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n';
    expect(allowed(dot, 'FooBot', u('/x/page.html'))).toBe(true); // 8 > 7 chars
    const replaces = 'User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n';
    expect(allowed(replaces, 'FooBot', u('/x/page'))).toBe(true);
    expect(allowed(replaces, 'FooBot', u('/y/page'))).toBe(false);
  });

  it('[fact 12] URLs are matched as given; patterns are percent-normalised, never decoded', () => {
    const query = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n';
    expect(allowed(query, 'FooBot', 'http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par')).toBe(true);
    for (const rule of ['/foo/bar/ツ', '/foo/bar/%E3%83%84']) {
      const robots = `User-agent: FooBot\nDisallow: /\nAllow: ${rule}\n`;
      expect(allowed(robots, 'FooBot', 'http://foo.bar/foo/bar/%E3%83%84')).toBe(true);
      expect(allowed(robots, 'FooBot', 'http://foo.bar/foo/bar/ツ')).toBe(false);
    }
    const encoded = 'User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n';
    expect(allowed(encoded, 'FooBot', 'http://foo.bar/foo/bar/baz')).toBe(false);
    expect(allowed(encoded, 'FooBot', 'http://foo.bar/foo/bar/%62%61%7A')).toBe(true);
  });

  it('[fact 13] special characters: *, $ at the end, # comments', () => {
    const star = 'User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n';
    expect(allowed(star, 'FooBot', 'http://foo.bar/foo/bar/quz')).toBe(false);
    for (const p of ['/foo/quz', '/foo//quz', '/foo/bax/quz'])
      expect(allowed(star, 'FooBot', `http://foo.bar${p}`)).toBe(true);
    const dollar = 'User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n';
    expect(allowed(dollar, 'FooBot', 'http://foo.bar/foo/bar')).toBe(false);
    for (const p of ['/foo/bar/qux', '/foo/bar/', '/foo/bar/baz']) {
      expect(allowed(dollar, 'FooBot', `http://foo.bar${p}`)).toBe(true);
    }
    const hash = 'User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n';
    expect(allowed(hash, 'FooBot', 'http://foo.bar/foo/bar')).toBe(true);
    expect(allowed(hash, 'FooBot', 'http://foo.bar/foo/quz')).toBe(false);
  });

  it('[fact 14] allow: <dir>/index.html also allows exactly <dir>/', () => {
    const robots = 'User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n';
    expect(allowed(robots, 'foobot', 'http://foo.com/allowed-slash/')).toBe(true);
    expect(allowed(robots, 'foobot', 'http://foo.com/allowed-slash/index.htm')).toBe(false);
    expect(allowed(robots, 'foobot', 'http://foo.com/allowed-slash/index.html')).toBe(true);
    expect(allowed(robots, 'foobot', 'http://foo.com/anyother-url')).toBe(false);
  });

  it('[fact 15] an over-long line is cut and its kept prefix still parsed', () => {
    const directive = 'disallow: ';
    const keep = MAX_LINE_BYTES - directive.length - '/x/'.length;
    const longPath = `/x/${'a'.repeat(keep)}`;
    const cutDisallow = `user-agent: FooBot\n${directive}${longPath}/qux\n`;
    expect(allowed(cutDisallow, 'FooBot', 'http://foo.bar/fux')).toBe(true);
    expect(allowed(cutDisallow, 'FooBot', `http://foo.bar${longPath}/fux`)).toBe(false);

    const allowKeep = MAX_LINE_BYTES - 'allow: '.length - '/x/'.length;
    const allowPath = `/x/${'a'.repeat(allowKeep)}`;
    const cutAllow = `user-agent: FooBot\ndisallow: /\nallow: ${allowPath}/qux\n`;
    expect(allowed(cutAllow, 'FooBot', 'http://foo.bar/fux')).toBe(false);
    expect(allowed(cutAllow, 'FooBot', `http://foo.bar${allowPath}/fux`)).toBe(true);
    // An over-long allow whose URL equals the full value still matches through its kept prefix.
    expect(allowed(cutAllow, 'FooBot', `http://foo.bar${allowPath}/qux`)).toBe(true);
  });

  describe('[fact 16] examples from Google documentation', () => {
    const u = (p: string) => `http://foo.com${p}`;
    const withAllow = (rule: string) => `user-agent: FooBot\ndisallow: /\nallow: ${rule}\n`;
    const table: [string, string[], string[]][] = [
      [
        '/fish',
        ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.html?id=anything'],
        ['/Fish.asp', '/catfish', '/?id=fish', '/bar'],
      ],
      [
        '/fish*',
        ['/fish', '/fish.html', '/fish/salmon.html', '/fishheads', '/fishheads/yummy.html', '/fish.html?id=anything'],
        ['/Fish.bar', '/catfish', '/?id=fish', '/bar'],
      ],
      [
        '/fish/',
        ['/fish/', '/fish/salmon', '/fish/?salmon', '/fish/salmon.html', '/fish/?id=anything'],
        ['/fish', '/fish.html', '/Fish/Salmon.html'],
      ],
      [
        '/*.php',
        [
          '/filename.php',
          '/folder/filename.php',
          '/folder/filename.php?parameters',
          '//folder/any.php.file.html',
          '/filename.php/',
          '/index?f=filename.php/',
        ],
        ['/php/', '/index?php', '/windows.PHP'],
      ],
      [
        '/*.php$',
        ['/filename.php', '/folder/filename.php'],
        [
          '/filename.php?parameters',
          '/filename.php/',
          '/filename.php5',
          '/php/',
          '/filename?php',
          '/aaaphpaaa',
          '//windows.PHP',
        ],
      ],
      ['/fish*.php', ['/fish.php', '/fishheads/catfish.php?parameters'], ['/Fish.PHP']],
    ];
    for (const [rule, yes, no] of table) {
      it(`allow: ${rule}`, () => {
        for (const p of yes) expect(allowed(withAllow(rule), 'FooBot', u(p)), p).toBe(true);
        for (const p of no) expect(allowed(withAllow(rule), 'FooBot', u(p)), p).toBe(false);
      });
    }
    it('order of precedence', () => {
      expect(allowed('user-agent: FooBot\nallow: /p\ndisallow: /\n', 'FooBot', u('/page'))).toBe(true);
      const tie = 'user-agent: FooBot\nallow: /folder\ndisallow: /folder\n';
      expect(allowed(tie, 'FooBot', u('/folder/page'))).toBe(true);
      expect(allowed('user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n', 'FooBot', u('/page.htm'))).toBe(false);
      const root = 'user-agent: FooBot\nallow: /$\ndisallow: /\n';
      expect(allowed(root, 'FooBot', u('/'))).toBe(true);
      expect(allowed(root, 'FooBot', u('/page.html'))).toBe(false);
    });
  });

  it('[fact 17] line numbers count every line break style the same', () => {
    const lines = ['User-Agent: foo', 'Allow: /some/path', 'User-Agent: bar', '', '', 'Disallow: /'];
    const variants = [
      `${lines.join('\n')}\n`,
      `${lines.join('\r\n')}\r\n`,
      `${lines.join('\r')}\r`,
      lines.join('\n'),
      'User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /',
    ];
    for (const text of variants) {
      const directives = parseRobotsTxt(text).records.filter((r) => r.kind === 'directive');
      expect(directives.map((r) => r.line)).toEqual([1, 2, 3, 6]);
    }
  });

  it('[fact 18] a leading BOM or partial BOM is skipped; anywhere else it is content', () => {
    const rest = 'User-Agent: foo\nDisallow: /AnyValue\n';
    for (const bom of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) {
      const robots = parseRobotsTxt(concat(bom, rest));
      expect(robots.isAllowed('http://example.com/AnyValue', 'foo')).toBe(false);
      expect(robots.records[0]?.field).toBe('user-agent');
    }
    // EF 11 BF: only EF is skipped; line 1 becomes an unknown directive, so the disallow belongs to no group.
    const broken = parseRobotsTxt(concat([0xef, 0x11, 0xbf], rest));
    expect(broken.records[0]?.field).toBe('unknown');
    expect(broken.isAllowed('http://example.com/AnyValue', 'foo')).toBe(true);
    expect(broken.orphanRules.map((r) => r.line)).toEqual([2]);
    // A BOM in the middle of the file is not skipped: that line's key is unknown.
    const middle = parseRobotsTxt(concat('User-Agent: foo\n', [0xef, 0xbb, 0xbf], 'Disallow: /AnyValue\n'));
    expect(middle.records[1]?.field).toBe('unknown');
    expect(middle.isAllowed('http://example.com/AnyValue', 'foo')).toBe(true);
  });

  it('[fact 19] sitemap lines are reported wherever they appear', () => {
    const sitemap = 'http://foo.bar/sitemap.xml';
    const after = `User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\nSitemap: ${sitemap}\n`;
    const before = `Sitemap: ${sitemap}\nUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n`;
    expect(parseRobotsTxt(after).sitemaps).toEqual([sitemap]);
    expect(parseRobotsTxt(before).sitemaps).toEqual([sitemap]);
  });

  it('[fact 20] path, params and query of a URL', () => {
    const table: [string, string][] = [
      ['', '/'],
      ['http://www.example.com', '/'],
      ['http://www.example.com/', '/'],
      ['http://www.example.com/a', '/a'],
      ['http://www.example.com/a/', '/a/'],
      ['http://www.example.com/a/b?c=http://d.e/', '/a/b?c=http://d.e/'],
      ['http://www.example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['example.com', '/'],
      ['example.com/', '/'],
      ['example.com/a', '/a'],
      ['example.com/a/', '/a/'],
      ['example.com/a/b?c=d&e=f#fragment', '/a/b?c=d&e=f'],
      ['a', '/'],
      ['a/', '/'],
      ['/a', '/a'],
      ['a/b', '/b'],
      ['example.com?a', '/?a'],
      ['example.com/a;b#c', '/a;b'],
      ['//a/b/c', '/b/c'],
    ];
    for (const [url, path] of table) expect(pathOfUrl(url), url).toBe(path);
  });

  it('[fact 21] rule values: non-ASCII bytes escaped in uppercase hex, escapes uppercased', () => {
    expect(normalizePattern('http://www.example.com')).toBe('http://www.example.com');
    expect(normalizePattern('/a/b/c')).toBe('/a/b/c');
    expect(normalizePattern('á')).toBe('%C3%A1');
    expect(normalizePattern('%aa')).toBe('%AA');
  });
});

describe('reporting_robots_test.cc', () => {
  it('[fact 22] every line is classified and counted', () => {
    const text = [
      'User-Agent: foo', // 1 user-agent
      'Allow: /some/path', // 2 allow
      'User-Agent bar # no', // 3 user-agent, missing colon, comment
      'absolutely random line', // 4 three tokens: no directive
      '#Disallow: /', // 5 comment only
      'Disallow: /dont/do/this # yes', // 6 disallow with comment
      '', // 7 blank
      'unicorns: /extinct', // 8 unknown key
      'noarchive: /some', // 9 recognised by other crawlers, unused by Google
      'Noarchive: /other', // 10 same, other case
      'Error #and comment', // 11 one token: no directive
      'useragent: baz', // 12 typo of user-agent
      'disallaw: /some', // 13 typo of disallow
      'site-map: https://example.com/s.xml', // 14 typo of sitemap
      'Sitemap: https://example.com/t.xml', // 15 sitemap
      '',
    ].join('\n');
    const records = parseRobotsTxt(text).records;
    expect(records).toHaveLength(16);
    const fields = records.map((r) => r.field);
    expect(fields).toEqual([
      'user-agent',
      'allow',
      'user-agent',
      null,
      null,
      'disallow',
      null,
      'unknown',
      'unknown',
      'unknown',
      null,
      'user-agent',
      'disallow',
      'sitemap',
      'sitemap',
      null,
    ]);
    const valid = records.filter((r) => r.field !== null && r.field !== 'unknown');
    expect(valid).toHaveLength(8);
    expect(records[2]?.flags).toMatchObject({ missingColon: true, comment: true });
    expect(records[3]?.invalid).toBe('too-many-tokens');
    expect(records[4]?.kind).toBe('comment');
    expect(records[6]?.kind).toBe('blank');
    expect(records[10]?.invalid).toBe('no-separator');
    expect(records.filter((r) => r.flags.typo).map((r) => r.line)).toEqual([12, 13, 14]);
    expect(records[8]?.key).toBe('noarchive');

    const six = ['User-Agent: foo', 'Allow: /some/path', 'User-Agent: bar', '', '', 'Disallow: /', ''];
    expect(parseRobotsTxt(six.join('\r\n')).records).toHaveLength(7);
    expect(parseRobotsTxt(six.join('\r')).records).toHaveLength(7);
  });

  it('[fact 23] an over-long line is still a directive, flagged, and later lines are unaffected', () => {
    const long = `Disallow: /${'a'.repeat(MAX_LINE_BYTES + 100)}`;
    const robots = parseRobotsTxt(`User-Agent: foo\n${long}\nAllow: /b\n`);
    expect(robots.records[1]).toMatchObject({ field: 'disallow', flags: { tooLong: true } });
    expect(robots.records[2]).toMatchObject({ field: 'allow', value: '/b', flags: { tooLong: false } });
  });
});

describe('robots.cc', () => {
  it('[extra: prefix keys] keys match by case-insensitive prefix', () => {
    const robots = parseRobotsTxt(
      'user-agentfoo: FooBot\ndisallowed: /x\nallowance: /x/y\nsitemaps: http://example.com/s.xml\n',
    );
    expect(robots.isAllowed('http://example.com/x', 'FooBot')).toBe(false);
    expect(robots.isAllowed('http://example.com/x/y', 'FooBot')).toBe(true);
    expect(robots.sitemaps).toEqual(['http://example.com/s.xml']);
    expect(robots.records.map((r) => r.flags.prefixKey)).toEqual([true, true, true, true, false]);
  });

  it('[extra: typos] every accepted typo works; allow has none', () => {
    for (const ua of ['useragent', 'user agent', 'User-Agent']) {
      expect(allowed(`${ua}: FooBot\ndisallow: /\n`, 'FooBot', 'http://e.com/x'), ua).toBe(false);
    }
    for (const d of ['dissallow', 'dissalow', 'disalow', 'diasllow', 'disallaw']) {
      expect(allowed(`user-agent: FooBot\n${d}: /\n`, 'FooBot', 'http://e.com/x'), d).toBe(false);
    }
    expect(parseRobotsTxt('site-map: http://e.com/s.xml').sitemaps).toEqual(['http://e.com/s.xml']);
    expect(parseRobotsTxt('alow: /x').records[0]?.field).toBe('unknown');
  });

  it('[extra: whitespace] keys and values are trimmed of ASCII whitespace; no colon needs exactly two tokens', () => {
    const robots = ' \tuser-agent \v:\f FooBot \t\ndisallow :\t/x\v\f\n';
    expect(allowed(robots, 'FooBot', 'http://e.com/x')).toBe(false);
    expect(parseRobotsTxt('user-agent a b\ndisallow: /').records[0]?.invalid).toBe('too-many-tokens');
    expect(allowed('user-agent a b\ndisallow: /', 'a', 'http://e.com/')).toBe(true);
  });

  it('[extra: global agent] * alone or followed by whitespace is global; *foo is not', () => {
    expect(allowed('user-agent: * foo\ndisallow: /\n', 'BarBot', 'http://e.com/')).toBe(false);
    expect(allowed('user-agent: *\tfoo\ndisallow: /\n', 'BarBot', 'http://e.com/')).toBe(false);
    const notGlobal = parseRobotsTxt('user-agent: *foo\ndisallow: /\n');
    expect(notGlobal.isAllowed('http://e.com/', 'BarBot')).toBe(true);
    expect(notGlobal.groups[0]?.agents[0]).toMatchObject({ global: false, token: '' });
    // Its token is empty, so it is the group of a caller whose name is empty (a quirk of the reference).
    expect(notGlobal.isAllowed('http://e.com/', '')).toBe(false);
  });

  it('[extra: product tokens] file values are cut to [a-zA-Z_-]; caller names are not', () => {
    const tokens = parseRobotsTxt(
      'user-agent: FooBot/1.2\nuser-agent: AB42bot\nuser-agent: föö\ndisallow: /\n',
    ).groups[0]?.agents.map((a) => a.token);
    expect(tokens).toEqual(['FooBot', 'AB', 'f']);
    expect(allowed('user-agent: FooBot/1.2\ndisallow: /\n', 'FooBot', 'http://e.com/')).toBe(false);
    expect(allowed('user-agent: FooBot\ndisallow: /\n', 'FooBot/1.2', 'http://e.com/')).toBe(true);
    expect(allowed('user-agent: AB42bot\ndisallow: /\n', 'AB', 'http://e.com/')).toBe(false);
    expect(allowed('user-agent: AB42bot\ndisallow: /\n', 'AB42bot', 'http://e.com/')).toBe(true);
    expect(allowed('user-agent: 1bot\ndisallow: /\n', '', 'http://e.com/')).toBe(false);
  });

  it('[extra: shared group] user-agent: a then user-agent: * form one group', () => {
    const robots = 'user-agent: a\nuser-agent: *\ndisallow: /\n';
    expect(allowed(robots, 'a', 'http://e.com/x')).toBe(false);
    expect(allowed(robots, 'b', 'http://e.com/x')).toBe(false);
  });

  it('[extra: empty group] a matching group without rules allows everything and hides *', () => {
    const robots = parseRobotsTxt('user-agent: *\ndisallow: /\nuser-agent: FooBot');
    expect(robots.isAllowed('http://e.com/x', 'FooBot')).toBe(true);
    expect(robots.explain('http://e.com/x', 'FooBot')).toMatchObject({ groups: 'specific', line: 0, groupLines: [3] });
  });

  it('[extra: empty rule] an empty allow/disallow matches with priority 0 and can be the matching line', () => {
    const robots = parseRobotsTxt('user-agent: FooBot\ndisallow:\n');
    expect(robots.explain('http://e.com/x', 'FooBot')).toMatchObject({ allowed: true, line: 2 });
    const withRule = parseRobotsTxt('user-agent: FooBot\ndisallow:\ndisallow: /x\n');
    expect(withRule.explain('http://e.com/x', 'FooBot')).toMatchObject({ allowed: false, line: 3 });
    expect(withRule.explain('http://e.com/y', 'FooBot')).toMatchObject({ allowed: true, line: 2 });
  });

  it('[extra: dollar] $ is special only as the last character', () => {
    const robots = 'user-agent: FooBot\ndisallow: /a$b\n';
    expect(allowed(robots, 'FooBot', 'http://e.com/a$b/c')).toBe(false);
    expect(allowed(robots, 'FooBot', 'http://e.com/ab')).toBe(true);
  });

  it('[extra: percent] patterns are normalised, URLs are not; %2F is not /', () => {
    const robots = 'user-agent: FooBot\ndisallow: /%aa\ndisallow: /a%2fb\n';
    expect(allowed(robots, 'FooBot', 'http://e.com/%AA')).toBe(false);
    expect(allowed(robots, 'FooBot', 'http://e.com/%aa')).toBe(true);
    expect(allowed(robots, 'FooBot', 'http://e.com/a%2Fb')).toBe(false);
    expect(allowed(robots, 'FooBot', 'http://e.com/a/b')).toBe(true);
  });

  it('[extra: index rule] the last segment must start with /index.htm; index.php and /d/?q are not covered', () => {
    const robots = (rule: string) => `user-agent: FooBot\ndisallow: /\nallow: ${rule}\n`;
    expect(allowed(robots('/d/index.htmlx'), 'FooBot', 'http://e.com/d/')).toBe(true);
    expect(allowed(robots('/d/index.htm'), 'FooBot', 'http://e.com/d/')).toBe(true);
    expect(allowed(robots('/d/index.html'), 'FooBot', 'http://e.com/d/?q')).toBe(false);
    expect(allowed(robots('/d/index.php'), 'FooBot', 'http://e.com/d/')).toBe(false);
    const explained = parseRobotsTxt(robots('/d/index.html')).explain('http://e.com/d/', 'FooBot');
    expect(explained).toMatchObject({ line: 3, rule: { kind: 'allow', pattern: '/d/$', indexHtml: true } });
  });

  it('[extra: line cap] 16,663 bytes are kept; NUL ends a line; a final empty line always exists', () => {
    const exact = `disallow: /${'a'.repeat(MAX_LINE_BYTES - 'disallow: /'.length)}`;
    expect(parseRobotsTxt(exact).records[0]?.flags.tooLong).toBe(false);
    expect(parseRobotsTxt(`${exact}b`).records[0]?.flags.tooLong).toBe(true);
    const nul = parseRobotsTxt(concat('user-agent: FooBot\ndisallow: /a', [0], '/b\n'));
    expect(nul.groups[0]?.rules[0]?.pattern).toBe('/a');
    expect(nul.records[1]?.flags.nul).toBe(true);
    expect(parseRobotsTxt('a\n').lineCount).toBe(2);
    expect(parseRobotsTxt('').lineCount).toBe(1);
  });

  it('[extra: matching_line] specific ties report the allow; * when nothing specific; 0 when nothing matched', () => {
    const tie = 'user-agent: FooBot\ndisallow: /x\nallow: /x\n';
    expect(line(tie, 'FooBot', 'http://e.com/x')).toBe(3);
    const global = 'user-agent: *\ndisallow: /x\nuser-agent: BarBot\ndisallow: /\n';
    expect(line(global, 'FooBot', 'http://e.com/x')).toBe(2);
    expect(line(global, 'FooBot', 'http://e.com/y')).toBe(0);
    const first = 'user-agent: FooBot\ndisallow: /x\ndisallow: /x\n';
    expect(line(first, 'FooBot', 'http://e.com/x')).toBe(2);
  });

  it('[extra: several agents] the rules of every matching group are pooled, then the longest match wins', () => {
    const robots = 'user-agent: FooBot\ndisallow: /x\nuser-agent: BarBot\nallow: /x/y\nuser-agent: *\ndisallow: /\n';
    expect(allowed(robots, ['FooBot', 'BarBot'], 'http://e.com/x/y')).toBe(true);
    expect(allowed(robots, ['FooBot', 'BarBot'], 'http://e.com/x/z')).toBe(false);
    expect(allowed(robots, ['FooBot', 'BarBot'], 'http://e.com/z')).toBe(true); // * is ignored
    expect(allowed(robots, ['QuxBot', 'BazBot'], 'http://e.com/z')).toBe(false);
    expect(line(robots, ['FooBot', 'BarBot'], 'http://e.com/x/y')).toBe(4);
  });
});

/**
 * The lint fixtures: small robots.txt files whose lines mark the diagnostics they must produce, markdownlint style.
 * A marker is a trailing `#!` followed by codes; `code«text»` also says what the diagnostic's range must slice back
 * to. Markers are removed before linting. Each case is tagged with the code it is about; every diagnostic of the file
 * must be marked (except `no-sitemap` and `dialect-difference`, ignored unless the case is about them), and every
 * marker must be found.
 */

import type { LintCode } from '../../src/lint/index.js';

/** One fixture. */
export interface LintCase {
  /** The code the case is about (its tag). */
  readonly code: LintCode;
  readonly name: string;
  /** The file, one string per line, with markers. */
  readonly lines?: readonly string[];
  /** Line break to join `lines` with. @default '\n' */
  readonly eol?: string;
  /** Prepend a UTF-8 byte order mark. */
  readonly bom?: boolean;
  /** For inputs that lines cannot express: the input and the expected `[line, code, slice?]` list. */
  readonly input?: () => string | Uint8Array;
  readonly expect?: readonly (readonly [number, LintCode, string?])[];
  /** Codes not compared, besides `no-sitemap` and `dialect-difference` (unless the case is about them). */
  readonly ignore?: readonly LintCode[];
  /** Lint only as text or only as bytes (default: both, with the same result). */
  readonly only?: 'text' | 'bytes';
  /** The file's text once every fix is applied, when the case checks it. */
  readonly fixed?: readonly string[];
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const concat = (...parts: (string | number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...enc(p)] : p)));

/**
 * A file whose byte 512,000 falls 7 bytes into its line 515, which starts with `last`: 513 lines of a rule and
 * 1,000-byte comments, then a comment padding to 511,993 bytes.
 */
export function bigFile(last: string): string {
  const head = `User-agent: *\nDisallow: /a\n${`#${'x'.repeat(998)}\n`.repeat(511)}`;
  return `${head}#${'x'.repeat(512_000 - 7 - head.length - 2)}\n${last}`;
}

export const CASES: readonly LintCase[] = [
  // ---------------------------------------------------------------- errors
  {
    code: 'unparseable-line',
    name: 'no colon and three words; no colon at all; nothing before the colon',
    lines: [
      'User-agent: *',
      'Disallow /a /b  #! unparseable-line«Disallow /a /b»',
      '  All robots welcome   # hi #! unparseable-line«All robots welcome»',
      'Disallow  #! unparseable-line«Disallow»',
      ': /x #! unparseable-line«: /x»',
      'Disallow: /ok',
    ],
  },
  {
    code: 'unparseable-line',
    name: 'a field glued to its value gets a fix',
    lines: ['User-agent: * #! empty-group', 'Disallow/private #! unparseable-line«Disallow/private»'],
    fixed: ['User-agent: *', 'Disallow: /private'],
  },
  {
    code: 'unknown-field',
    name: 'a misspelt allow is not accepted by Google; the fix spells it',
    lines: ['User-agent: *', 'Disallow: / #! disallow-all«/»', 'Alow: /public #! unknown-field«Alow»'],
    fixed: ['User-agent: *', 'Disallow: /', 'Allow: /public'],
  },
  {
    code: 'unknown-field',
    name: 'near misses: user_agent, User-Agen, Disallop',
    lines: [
      'user_agent: * #! unknown-field«user_agent»',
      'User-agen: x #! unknown-field«User-agen»',
      'User-agent: a',
      'Disallop: /x #! unknown-field«Disallop»',
      'Disallow: /y',
    ],
    fixed: ['User-agent: *', 'User-agent: x', 'User-agent: a', 'Disallow: /x', 'Disallow: /y'],
  },
  {
    code: 'unknown-field',
    name: 'a bare sitemap URL',
    lines: [
      'User-agent: *',
      'Disallow: /x',
      'https://example.com/sitemap.xml #! unknown-field«https://example.com/sitemap.xml»',
    ],
    fixed: ['User-agent: *', 'Disallow: /x', 'Sitemap: https://example.com/sitemap.xml'],
  },
  {
    code: 'unknown-field',
    name: 'unknown words without a near field get no fix; known extensions are not unknown',
    lines: [
      'User-agent: Bingbot',
      'Frobnicate: yes #! unknown-field«Frobnicate»',
      'Crawl-delay: 5',
      'Host: example.com',
      'Disallow: /x',
    ],
  },
  {
    code: 'rule-outside-group',
    name: 'rules before the first user-agent line',
    lines: [
      '# comment',
      'Disallow: /admin/ #! rule-outside-group«Disallow: /admin/»',
      '  Allow: /a  #! rule-outside-group«Allow: /a»',
      'Sitemap: https://example.com/s.xml',
      'User-agent: *',
      'Disallow: /tmp/',
    ],
  },
  {
    code: 'path-without-leading-slash',
    name: 'paths starting with a letter, a dot, a host name',
    lines: [
      'User-agent: *',
      'Disallow: private/ #! path-without-leading-slash«private/»',
      'Disallow: .pdf #! path-without-leading-slash«.pdf»',
      'Allow: www.example.com/tmp/ #! path-without-leading-slash«www.example.com/tmp/»',
      'Disallow: example.com #! path-without-leading-slash«example.com»',
      'Disallow: *.gif',
      'Disallow: /ok',
      'Disallow:',
    ],
    ignore: ['empty-disallow', 'no-sitemap'],
    fixed: [
      'User-agent: *',
      'Disallow: /private/',
      'Disallow: .pdf',
      'Allow: /tmp/',
      'Disallow: /',
      'Disallow: *.gif',
      'Disallow: /ok',
      'Disallow:',
    ],
  },
  {
    code: 'absolute-url-in-rule',
    name: 'a URL where a path belongs; the fix keeps path and query as written',
    lines: [
      'User-agent: *',
      'Disallow: https://example.com/private/?a=%c3%a4#frag #! absolute-url-in-rule«https://example.com/private/?a=%c3%a4» hash-in-path«#frag»',
      'Allow: HTTP://example.com #! absolute-url-in-rule«HTTP://example.com»',
    ],
    fixed: ['User-agent: *', 'Disallow: /private/?a=%c3%a4#frag', 'Allow: /'],
  },
  {
    code: 'invalid-sitemap-url',
    name: 'relative, scheme-relative, other scheme, empty, not a URL',
    lines: [
      'Sitemap: /sitemap.xml #! invalid-sitemap-url«/sitemap.xml»',
      'Sitemap: //example.com/s.xml #! invalid-sitemap-url«//example.com/s.xml»',
      'Sitemap: ftp://example.com/s.xml #! invalid-sitemap-url«ftp://example.com/s.xml»',
      'Sitemap: #! invalid-sitemap-url«Sitemap:»',
      'Sitemap: http://[bad #! invalid-sitemap-url«http://[bad»',
      'Sitemap: https://example.com/ok.xml',
      'Site-map: HTTPS://Example.com/ok2.xml #! field-name-typo',
    ],
  },
  {
    code: 'content-too-large',
    name: 'everything after 512,000 bytes',
    input: () => bigFile('Disallow: /last\n'),
    // The limit cuts line 515 after "Disallo".
    expect: [
      [515, 'content-too-large', 'w: /last\n'],
      [515, 'unparseable-line', 'Disallo'],
    ],
  },
  {
    code: 'line-too-long',
    name: 'the part of a line past 16,663 bytes, counted in bytes for text too',
    input: () => `User-agent: *\nDisallow: /x${'ä'.repeat(9000)}\nDisallow: /b\n`,
    // "Disallow: /x" is 12 bytes and each "ä" 2: the cap splits the 8,326th "ä"; for text, the split char is dropped.
    expect: [[2, 'line-too-long', 'ä'.repeat(9000 - 8325)]],
    only: 'text',
  },
  {
    code: 'line-too-long',
    name: 'as bytes, the range starts at the exact byte',
    input: () => new TextEncoder().encode(`User-agent: *\nDisallow: /x${'ä'.repeat(9000)}\nDisallow: /b\n`),
    expect: [[2, 'line-too-long', `\uFFFD${'ä'.repeat(9000 - 8326)}`]],
    only: 'bytes',
  },
  {
    code: 'line-too-long',
    name: 'a short line is never cut',
    lines: ['User-agent: *', `Disallow: /${'a'.repeat(16_652)}`],
  },
  {
    code: 'empty-user-agent',
    name: 'a user-agent with no name',
    lines: ['User-agent: #! empty-user-agent«User-agent:»', 'Disallow: /x', 'User-agent: *', 'Disallow: /y'],
  },
  {
    code: 'invalid-user-agent',
    name: 'quoted names, digits first, a star glued to a name',
    lines: [
      'User-agent: "Googlebot" #! invalid-user-agent«"Googlebot"»',
      'User-agent: 008 #! invalid-user-agent«008»',
      'User-agent: *bot #! invalid-user-agent«*bot»',
      'Disallow: /x',
    ],
    fixed: ['User-agent: Googlebot', 'User-agent: 008', 'User-agent: *bot', 'Disallow: /x'],
  },
  {
    code: 'nul-byte',
    name: 'a NUL ends the line; the rest is ignored',
    lines: ['User-agent: *', 'Disallow: /a\0/b #! nul-byte«\0/b»'],
  },
  {
    code: 'utf16-file',
    name: 'UTF-16 with a byte order mark',
    input: () => {
      const text = 'User-agent: *\r\nDisallow: /\r\n';
      return new Uint8Array([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0), 0])]);
    },
    expect: [
      [1, 'utf16-file'],
      [1, 'unparseable-line'],
    ],
    only: 'bytes',
  },
  {
    code: 'utf16-file',
    name: 'UTF-16 big-endian without a byte order mark',
    input: () => new Uint8Array([...'User-agent: *\nDisallow: /\n'].flatMap((c) => [0, c.charCodeAt(0)])),
    // Every line starts with a NUL, so Google sees nothing at all.
    expect: [
      [1, 'utf16-file'],
      [1, 'empty-file'],
    ],
    only: 'bytes',
  },
  // ---------------------------------------------------------------- warnings
  {
    code: 'field-name-typo',
    name: 'every misspelling Google accepts',
    lines: [
      'Useragent: a #! field-name-typo«Useragent»',
      'user agent: b #! field-name-typo«user agent»',
      'Dissallow: /1 #! field-name-typo«Dissallow»',
      'Dissalow: /2 #! field-name-typo«Dissalow»',
      'Disalow: /3 #! field-name-typo«Disalow»',
      'Diasllow: /4 #! field-name-typo«Diasllow»',
      'Disallaw: /5 #! field-name-typo«Disallaw»',
      'Site-map: https://example.com/s.xml #! field-name-typo«Site-map»',
      'Useragents: c #! field-name-typo«Useragents»',
      'Disallow: /6',
    ],
    fixed: [
      'User-agent: a',
      'User-agent: b',
      'Disallow: /1',
      'Disallow: /2',
      'Disallow: /3',
      'Disallow: /4',
      'Disallow: /5',
      'Sitemap: https://example.com/s.xml',
      'User-agent: c',
      'Disallow: /6',
    ],
  },
  {
    code: 'missing-colon',
    name: 'a space or tab instead of a colon',
    lines: ['User-agent *  #! missing-colon« »', 'Disallow\t/private #! missing-colon«\t»'],
    fixed: ['User-agent: *', 'Disallow:\t/private'],
  },
  {
    code: 'field-name-prefix',
    name: 'extra letters after a field name',
    lines: [
      'User-agents: * #! field-name-prefix«User-agents»',
      'Disallowed: /a #! field-name-prefix«Disallowed»',
      'Allowing: /b #! field-name-prefix«Allowing»',
      'Sitemaps: https://example.com/s.xml #! field-name-prefix«Sitemaps»',
    ],
    fixed: ['User-agent: *', 'Disallow: /a', 'Allow: /b', 'Sitemap: https://example.com/s.xml'],
  },
  {
    code: 'field-name-prefix',
    name: 'a missing colon before a value with a colon',
    lines: [
      'User-agent: *',
      'Disallow: /x',
      'sitemap http://example.com/s.xml #! field-name-prefix«sitemap http» invalid-sitemap-url«//example.com/s.xml»',
    ],
    fixed: ['User-agent: *', 'Disallow: /x', 'sitemap: http://example.com/s.xml'],
  },
  {
    code: 'dollar-not-at-end',
    name: '$ before the end is a literal',
    lines: [
      'User-agent: *',
      'Disallow: /*.pdf$/ #! dollar-not-at-end«$»',
      'Disallow: /a$*$ #! dollar-not-at-end«$»',
      'Disallow: /*.php$',
      'Allow: /$',
    ],
  },
  {
    code: 'user-agent-not-product-token',
    name: 'versions, wildcards, lists, digits, text after *',
    lines: [
      'User-agent: Googlebot/2.1 #! user-agent-not-product-token«/2.1»',
      'User-agent: Googlebot-Image* #! user-agent-not-product-token«*»',
      'User-agent: Bingbot, Slurp #! user-agent-not-product-token«, Slurp»',
      'User-agent: AI2Bot #! user-agent-not-product-token«2Bot»',
      'User-agent: Yahoo! Slurp #! user-agent-not-product-token«! Slurp»',
      'User-agent: *   all #! user-agent-not-product-token«all»',
      'User-agent: Googlebot-News',
      'Disallow: /x',
    ],
    fixed: [
      'User-agent: Googlebot',
      'User-agent: Googlebot-Image',
      'User-agent: Bingbot',
      'User-agent: Slurp',
      'User-agent: AI2Bot',
      'User-agent: Yahoo! Slurp',
      'User-agent: *',
      'User-agent: Googlebot-News',
      'Disallow: /x',
    ],
  },
  {
    code: 'ignored-directive',
    name: 'in groups Google reads and outside any group, not in groups for other crawlers',
    lines: [
      'Host: example.com #! ignored-directive«Host: example.com»',
      'User-agent: *',
      'Crawl-delay: 10 #! ignored-directive«Crawl-delay: 10»',
      'Request-rate: 1/5 #! ignored-directive',
      'Disallow: /x',
      'User-agent: Googlebot-Image',
      'Clean-param: ref #! ignored-directive',
      'Disallow: /y',
      'User-agent: Bingbot',
      'Crawl-delay: 5',
      'Disallow: /z',
      'User-agent: Yandex',
      'Clean-param: utm_source&utm_medium /',
      'Host: example.com',
      'Disallow: /w',
    ],
  },
  {
    code: 'noindex-in-robots-txt',
    name: 'page-level directives in robots.txt',
    lines: [
      'User-agent: *',
      'Noindex: /drafts/ #! noindex-in-robots-txt«Noindex: /drafts/»',
      'nofollow: /a #! noindex-in-robots-txt',
      'Disallow: /x',
    ],
  },
  {
    code: 'group-merges-with-next',
    name: 'a crawl-delay-only group takes the next group\u2019s rules (the RFC 9309 §2.2.4 trap)',
    lines: [
      'User-agent: Googlebot #! group-merges-with-next«User-agent: Googlebot»',
      'Crawl-delay: 10 #! ignored-directive',
      '',
      'User-agent: *',
      'Disallow: / #! disallow-all',
    ],
    ignore: ['no-sitemap'],
  },
  {
    code: 'group-merges-with-next',
    name: 'several user-agent lines and a blank line; a closed group is not reported',
    lines: [
      'User-agent: a #! group-merges-with-next«User-agent: a\nUser-agent: b»',
      'User-agent: b',
      '',
      'User-agent: c',
      'Disallow: /c',
      'User-agent: d',
      'Crawl-delay: 1',
      'Disallow:',
      'User-agent: e',
      'Disallow: /e',
    ],
    ignore: ['no-sitemap', 'empty-disallow'],
  },
  {
    code: 'group-merges-with-next',
    name: 'not reported when the next group names the same crawlers anyway',
    lines: [
      'User-agent: *',
      '',
      '# more',
      'User-agent: *',
      'Disallow: /x',
      'User-agent: a',
      'User-agent: b',
      'Disallow: /y',
    ],
    ignore: ['no-sitemap'],
  },
  {
    code: 'empty-group',
    name: 'a crawler with a group but no rules ignores *',
    lines: [
      'User-agent: *',
      'Disallow: /private/',
      '',
      'User-agent: AhrefsBot #! empty-group«User-agent: AhrefsBot»',
      'Crawl-delay: 5',
    ],
  },
  {
    code: 'empty-group',
    name: 'not reported when the crawler has rules in another group',
    lines: [
      'User-agent: AhrefsBot',
      'Disallow: /a',
      'User-agent: *',
      'Disallow: /b',
      'User-agent: ahrefsbot #! repeated-user-agent',
      'Crawl-delay: 5',
    ],
  },
  {
    code: 'empty-group',
    name: 'an empty * group allows everything',
    lines: ['User-agent: * #! empty-group'],
  },
  {
    code: 'conflicting-rules',
    name: 'same pattern allowed and disallowed, in one group or in merged groups',
    lines: [
      'User-agent: *',
      'Disallow: /feeds/ #! conflicting-rules«/feeds/»',
      'Allow: /feeds/',
      'User-agent: Googlebot',
      'Allow: /%c3%a4',
      'User-agent: Bingbot',
      'Disallow: /x',
      'User-agent: googlebot #! repeated-user-agent',
      'Disallow: /%C3%A4 #! conflicting-rules«/%C3%A4»',
    ],
  },
  {
    code: 'shadowed-rule',
    name: 'a trailing * makes the allow longer: the disallow never decides',
    lines: ['User-agent: *', 'Disallow: /admin #! shadowed-rule«/admin»', 'Allow: /admin*'],
  },
  {
    code: 'shadowed-rule',
    name: 'Disallow: /* beats Allow: /, and a wildcard in the middle',
    lines: [
      'User-agent: *',
      'Allow: / #! shadowed-rule«/»',
      'Disallow: /* #! disallow-all',
      'User-agent: b',
      'Allow: /a/x.pdf #! shadowed-rule',
      'Disallow: /*/*x.pdf',
      'Allow: /a/y.pdf$',
      'Disallow: /a/',
    ],
  },
  {
    code: 'shadowed-rule',
    name: 'not reported when the other rule is shorter, narrower, or when index.html also allows the directory',
    lines: [
      'User-agent: *',
      'Disallow: /a',
      'Allow: /a/b*',
      'Allow: /c',
      'Disallow: /c*x',
      'Allow: /d/index.html',
      'Disallow: /d/index.html*',
      'Disallow: /e$',
      'Allow: /e',
    ],
  },
  {
    code: 'bom-in-middle',
    name: 'a byte order mark where two files were glued together',
    lines: [
      'User-agent: *',
      'Disallow: /a',
      '\uFEFFUser-agent: Googlebot #! bom-in-middle«\uFEFF» unknown-field',
      'Disallow: /b',
      // (JavaScript's \s matches U+FEFF, so it must not sit right before a marker.)
      'Disallow: /c\uFEFFd #! bom-in-middle«\uFEFF»',
    ],
  },
  {
    code: 'invalid-utf8',
    name: 'a Latin-1 file; bytes in comments do not count',
    input: () =>
      concat(
        'User-agent: *\nDisallow: /caf',
        [0xe9],
        '/\n# ',
        [0xe9],
        '\nDisallow: /',
        [0xc3, 0x28],
        'x',
        [0xff, 0xfe],
        '\n',
      ),
    expect: [
      [2, 'invalid-utf8', '\uFFFD'],
      [4, 'invalid-utf8', '\uFFFD'],
    ],
    only: 'bytes',
  },
  {
    code: 'html-content',
    name: 'an HTML page served as robots.txt',
    lines: [
      '<!DOCTYPE html> #! html-content«<!DOCTYPE html» unknown-field«<!DOCTYPE»',
      '<html lang="en"> #! unknown-field«<html»',
      '<head><title>Oops</title></head> #! unparseable-line',
    ],
  },
  {
    code: 'html-content',
    name: 'a tag far into a real file is not HTML',
    lines: [
      'User-agent: *',
      ...Array.from({ length: 25 }, (_, i) => `Disallow: /p${i}`),
      'Disallow: /<html> #! unencoded-path-character«<»',
    ],
  },
  {
    code: 'dialect-difference',
    name: 'a blank line inside a group, first match against longest match, a wildcard and a $ anchor',
    input: () => 'User-agent: *\n\nDisallow: /private\nAllow: /private/reports\nDisallow: /*.pdf$',
    expect: [
      [2, 'dialect-difference', '\nDisallow: /private\nAllow: /private/reports\nDisallow: /*.pdf$'],
      [3, 'dialect-difference', 'Disallow: /private\nAllow: /private/reports'],
      [5, 'dialect-difference', 'Disallow: /*.pdf$'],
      [5, 'dialect-difference', 'Disallow: /*.pdf$'],
    ],
  },
  {
    code: 'dialect-difference',
    name: 'repeated wildcards in one group are reported once, at the first',
    lines: [
      'User-agent: *',
      'Disallow: /*.php #! dialect-difference«Disallow: /*.php»',
      'Disallow: /*.cgi',
      'Disallow: /*.asp',
    ],
  },
  {
    code: 'dialect-difference',
    name: 'nothing for a file both readings decide alike',
    lines: ['User-agent: *', 'Disallow: /private/', 'Allow: /public/'],
  },
  {
    code: 'disallow-all',
    name: 'for * and for Googlebot, not for other crawlers',
    lines: [
      'User-agent: *',
      'Disallow: / #! disallow-all«/»',
      'User-agent: Googlebot',
      'Disallow: /* #! disallow-all«/*»',
      'User-agent: BadBot',
      'Disallow: /',
    ],
  },
  {
    code: 'disallow-all',
    name: 'not when an allow neutralises it',
    lines: ['User-agent: *', 'Disallow: / #! conflicting-rules', 'Allow: /'],
  },
  {
    code: 'unencoded-path-character',
    name: 'spaces, quotes and angle brackets in a pattern',
    lines: [
      'User-agent: *',
      'Disallow: /my documents/a b #! unencoded-path-character« »',
      'Allow: /"q" #! unencoded-path-character«"»',
      'Disallow: /%20ok',
    ],
    fixed: ['User-agent: *', 'Disallow: /my%20documents/a%20b', 'Allow: /%22q%22', 'Disallow: /%20ok'],
  },
  {
    code: 'hash-in-path',
    name: 'a # glued to a pattern',
    lines: ['User-agent: *', 'Disallow: /help#contact   #! hash-in-path«#contact»', 'Disallow: /ok # a comment'],
  },
  {
    code: 'invalid-crawl-delay',
    name: 'values crawlers cannot read',
    lines: [
      'User-agent: Bingbot',
      'Crawl-delay: 10s #! invalid-crawl-delay«10s»',
      'Crawl-delay: 1,5 #! invalid-crawl-delay«1,5»',
      'Crawl-delay: .5',
      'Crawl-delay: 2.',
      'Crawl-delay: #! invalid-crawl-delay«Crawl-delay:»',
      'Crawl-delay: 0.5',
      'Crawl-delay: 3',
      'Disallow: /x',
    ],
    fixed: [
      'User-agent: Bingbot',
      'Crawl-delay: 10',
      'Crawl-delay: 1,5',
      'Crawl-delay: .5',
      'Crawl-delay: 2.',
      'Crawl-delay:',
      'Crawl-delay: 0.5',
      'Crawl-delay: 3',
      'Disallow: /x',
    ],
  },
  {
    code: 'invalid-clean-param',
    name: 'Yandex\u2019s form: params joined by & and an optional path',
    lines: [
      'User-agent: Yandex',
      'Clean-param: utm_source, utm_medium #! invalid-clean-param«utm_source, utm_medium»',
      'Clean-param: ref /some_dir/get_book.pl',
      'Clean-param: sid&sort',
      'Clean-param: a&&b #! invalid-clean-param',
      'Disallow: /x',
    ],
  },
  {
    code: 'invalid-license',
    name: 'a relative path and an empty value; an absolute URL is fine',
    lines: [
      'License: /license.xml #! invalid-license«/license.xml» extension-field',
      'License: #! invalid-license«License:» extension-field',
      'License: https://publisher.example/license.xml #! extension-field',
      'User-agent: *',
      'Allow: /',
    ],
  },
  {
    code: 'invalid-content-usage',
    name: 'no path, outside any group, unparsable, empty, unknown label, value other than y or n',
    lines: [
      'Content-Usage: / train-ai=n #! invalid-content-usage«Content-Usage: / train-ai=n» extension-field',
      'User-agent: *',
      'Content-Usage: train-ai=n #! invalid-content-usage«train-ai=n» extension-field',
      'Content-Usage: /a Train-ai=n #! invalid-content-usage«/a Train-ai=n» extension-field',
      'Content-Usage: /b train-ai=n, #! invalid-content-usage extension-field',
      'Content-Usage: /c #! invalid-content-usage«/c» extension-field',
      'Content-Usage: /d serch=n #! invalid-content-usage extension-field',
      'Content-Usage: /e train-ai=no, search="y" #! invalid-content-usage invalid-content-usage extension-field',
      'Content-Usage: /f train-ai=n;reason="x", ai-use=y, search=n #! extension-field',
      'Allow: /',
    ],
    fixed: [
      'Content-Usage: / train-ai=n',
      'User-agent: *',
      'Content-Usage: / train-ai=n',
      'Content-Usage: /a Train-ai=n',
      'Content-Usage: /b train-ai=n,',
      'Content-Usage: /c',
      'Content-Usage: /d serch=n',
      'Content-Usage: /e train-ai=no, search="y"',
      'Content-Usage: /f train-ai=n;reason="x", ai-use=y, search=n',
      'Allow: /',
    ],
  },
  {
    code: 'retired-usage-label',
    name: 'labels of earlier revisions of the vocabulary',
    lines: [
      'User-agent: *',
      'Content-Usage: / bots=n, train-ai=n #! retired-usage-label«/ bots=n, train-ai=n» extension-field',
      'Content-Usage: /a all=n, train-genai=n #! retired-usage-label retired-usage-label extension-field',
      'Content-Usage: /b ai-output=y #! retired-usage-label extension-field',
      'Allow: /',
    ],
  },
  {
    code: 'invalid-content-signal',
    name: 'not pairs, unknown and capitalised signals, values a signal does not take',
    lines: [
      'User-agent: *',
      'Content-Signal: no #! invalid-content-signal«no» extension-field',
      'Content-Signal: ai-train=maybe, serch=yes #! invalid-content-signal invalid-content-signal extension-field',
      'Content-Signal: Search=yes, train-ai=no #! invalid-content-signal invalid-content-signal extension-field',
      'Content-Signal: use=reference, ai-input=no #! extension-field',
      'Content-Signal: use=everything #! invalid-content-signal extension-field',
      'Allow: /',
    ],
  },
  {
    code: 'usage-contradiction',
    name: 'a use allowed for crawlers that may not fetch the path',
    lines: [
      'User-agent: GPTBot',
      'Disallow: /',
      'Content-Signal: ai-train=yes, search=no #! usage-contradiction«ai-train=yes, search=no» content-signal-placement extension-field',
      'User-agent: *',
      'Disallow: /private/',
      'Content-Usage: /private/docs train-ai=y #! usage-contradiction extension-field',
      'Content-Usage: /public/ train-ai=y #! extension-field',
      'Content-Usage: /private/x train-ai=n #! extension-field',
    ],
  },
  // ---------------------------------------------------------------- info
  {
    code: 'bom-at-start',
    name: 'a byte order mark at the start',
    bom: true,
    lines: ['User-agent: * #! bom-at-start«\uFEFF»', 'Disallow: /x'],
    fixed: ['User-agent: *', 'Disallow: /x'],
  },
  {
    code: 'bom-at-start',
    name: 'a partial byte order mark (bytes only)',
    input: () => concat([0xef, 0xbb], 'User-agent: *\nDisallow: /x\n'),
    expect: [[1, 'bom-at-start', '\uFFFD']],
    only: 'bytes',
  },
  {
    code: 'no-sitemap',
    name: 'rules but no sitemap line',
    lines: ['User-agent: * #! no-sitemap«»', 'Disallow: /x'],
  },
  {
    code: 'no-sitemap',
    name: 'not when a sitemap is listed',
    lines: ['User-agent: *', 'Disallow: /x', 'Sitemap: https://example.com/s.xml'],
  },
  {
    code: 'empty-disallow',
    name: 'Disallow: with no path',
    lines: [
      'User-agent: *',
      'Disallow: #! empty-disallow«Disallow:»',
      'Disallow:   # nothing #! empty-disallow«Disallow:»',
    ],
  },
  {
    code: 'multiple-global-groups',
    name: 'several * groups',
    lines: [
      'User-agent: *',
      'Disallow: /a',
      'User-agent: Googlebot',
      'Disallow: /b',
      'User-agent: * #! multiple-global-groups«*»',
      'Disallow: /c',
    ],
  },
  {
    code: 'repeated-user-agent',
    name: 'one crawler in several groups, compared case-insensitively by token',
    lines: [
      'User-agent: Bingbot',
      'Disallow: /a',
      'User-agent: x',
      'Disallow: /b',
      'User-agent: bingbot/2.0 #! repeated-user-agent«bingbot/2.0» user-agent-not-product-token',
      'Disallow: /c',
    ],
  },
  {
    code: 'duplicate-rule',
    name: 'the same rule twice, also across merged groups and after normalisation',
    lines: [
      'User-agent: *',
      'Disallow: /tmp/',
      'Disallow: /tmp/ #! duplicate-rule«/tmp/»',
      'Disallow: /ä',
      'Disallow: /%c3%a4 #! duplicate-rule«/%c3%a4»',
    ],
    fixed: ['User-agent: *', 'Disallow: /tmp/', 'Disallow: /ä', ''],
  },
  {
    code: 'duplicate-sitemap',
    name: 'the same sitemap twice',
    lines: [
      'Sitemap: https://example.com/s.xml',
      'User-agent: *',
      'Disallow: /x',
      'Sitemap: https://EXAMPLE.com/s.xml #! duplicate-sitemap«https://EXAMPLE.com/s.xml»',
      'Sitemap: https://example.com/other.xml',
    ],
    fixed: [
      'Sitemap: https://example.com/s.xml',
      'User-agent: *',
      'Disallow: /x',
      'Sitemap: https://example.com/other.xml',
    ],
  },
  {
    code: 'reveals-private-path',
    name: 'backups, secrets and repositories listed for everyone to see',
    lines: [
      'User-agent: *',
      'Disallow: /backup/ #! reveals-private-path«/backup/»',
      'Disallow: /.git #! reveals-private-path',
      'Disallow: /wp-admin/',
      'Disallow: /private/',
      'Disallow: /secretary/',
    ],
  },
  {
    code: 'extension-field',
    name: 'fields for other readers are named, not flagged; fields Google is expected to obey still warn',
    lines: [
      'License: https://publisher.example/license.xml #! extension-field«License»',
      'User-agent: *',
      'Content-Usage: / train-ai=n #! extension-field«Content-Usage»',
      'content-signal: search=yes, ai-train=no #! extension-field«content-signal»',
      'LLM-Policy: https://publisher.example/llm.txt #! extension-field',
      'Crawl-delay: 5 #! ignored-directive',
      'Allow: /',
    ],
  },
  {
    code: 'content-signal-placement',
    name: 'outside any group and in a group for one crawler; the * group is where it belongs',
    lines: [
      'Content-Signal: ai-train=no #! content-signal-placement«Content-Signal: ai-train=no» extension-field',
      'User-agent: *',
      'Content-Signal: search=yes #! extension-field',
      'Allow: /',
      'User-agent: ExampleBot',
      'Content-Signal: ai-train=no #! content-signal-placement extension-field',
      'Disallow: /x',
    ],
  },
  {
    code: 'empty-file',
    name: 'only comments',
    lines: ['# robots.txt #! empty-file«»', ''],
  },
  {
    code: 'empty-file',
    name: 'zero bytes',
    input: () => '',
    expect: [[1, 'empty-file', '']],
  },
];

/**
 * SPEC §1: which robots.txt governs a URL (origin = scheme + host + non-default port; IDN as punycode).
 */

import { describe, expect, it } from 'vitest';
import { originOf, RobotsUrlError, robotsTxtUrl } from '../../src/index.js';

describe('robotsTxtUrl', () => {
  it.each([
    ['http://example.com/homepage', 'http://example.com/robots.txt'],
    ['https://m.de.example.com/some/page/mypage', 'https://m.de.example.com/robots.txt'],
    ['https://example.com?pageid=234#anchor', 'https://example.com/robots.txt'],
    ['https://images.example.com/flowers/daffodil.png', 'https://images.example.com/robots.txt'],
    ['https://example.com/folder/robots.txt', 'https://example.com/robots.txt'],
    ['HTTP://Example.COM/A', 'http://example.com/robots.txt'],
    ['http://example.com:80/', 'http://example.com/robots.txt'],
    ['https://example.com:443/x', 'https://example.com/robots.txt'],
    ['ftp://example.com:21/pub/file', 'ftp://example.com/robots.txt'],
    ['http://example.com:8181/x', 'http://example.com:8181/robots.txt'],
    ['https://example.com:80/x', 'https://example.com:80/robots.txt'],
    ['http://www.exämple.com/', 'http://www.xn--exmple-cua.com/robots.txt'],
    ['http://xn--exmple-cua.com/', 'http://xn--exmple-cua.com/robots.txt'],
    ['http://212.96.82.21/page', 'http://212.96.82.21/robots.txt'],
    ['http://[2001:db8::1]:8080/p', 'http://[2001:db8::1]:8080/robots.txt'],
    ['https://user:secret@example.com/p', 'https://example.com/robots.txt'],
    ['  https://example.com/p  ', 'https://example.com/robots.txt'],
  ])('%s → %s', (page, robots) => {
    expect(robotsTxtUrl(page)).toBe(robots);
    expect(robotsTxtUrl(new URL(page.trim()))).toBe(robots);
    expect(originOf(page)).toBe(robots.slice(0, -'/robots.txt'.length));
  });

  it.each([
    ['example.com', 'invalid-url', 'did you mean "https://example.com"'],
    ['/relative/path', 'invalid-url', 'not an absolute URL'],
    ['http://exa mple.com/', 'invalid-url', 'not an absolute URL'],
    ['http://example.com:99999/', 'invalid-url', 'not an absolute URL'],
    ['file:///etc/passwd', 'unsupported-scheme', 'robots.txt exists only for http, https and ftp'],
    ['mailto:someone@example.com', 'unsupported-scheme', '"mailto:"'],
    ['ws://example.com/socket', 'unsupported-scheme', '"ws:"'],
  ])('rejects %s (%s)', (input, code, message) => {
    let thrown: unknown;
    try {
      robotsTxtUrl(input);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(RobotsUrlError);
    expect(thrown).toMatchObject({ code, url: input });
    expect((thrown as Error).message).toContain(message);
  });

  it('throws a TypeError for values that are not URLs at all', () => {
    expect(() => robotsTxtUrl(42 as never)).toThrow(TypeError);
  });
});

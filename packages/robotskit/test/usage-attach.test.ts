/**
 * The page's `Content-Usage` HTTP header (draft-ietf-aipref-attach) read as the robots.txt rule's preferences are, and
 * combined with the robots.txt answer, most restrictive per category.
 */

import { describe, expect, it } from 'vitest';
import { attachedUsage, headerUsage, parseRobotsTxt } from '../src/index.js';

const robots = parseRobotsTxt(
  'User-agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: / train-ai=y, search=y\nContent-Usage: /n/ search=n\n',
);

describe('headerUsage', () => {
  it('is null without a header, and reads one line as a dictionary', () => {
    expect(headerUsage([])).toBeNull();
    expect(headerUsage(['train-ai=n, search=y'])).toEqual({
      lines: ['train-ai=n, search=y'],
      parsed: true,
      error: null,
      preferences: { 'train-ai': 'disallow', search: 'allow' },
    });
  });

  it('joins several field lines with ", " before parsing: a repeated key keeps the last line’s value', () => {
    expect(headerUsage(['train-ai=n', 'search=y, train-ai=y'])?.preferences).toEqual({
      'train-ai': 'allow',
      search: 'allow',
    });
    // One broken line breaks the field as a whole: nothing is stated.
    const broken = headerUsage(['train-ai=n', 'Search=y']);
    expect(broken).toMatchObject({ parsed: false, preferences: {} });
    expect(broken?.error).toMatch(/lower-case .*at byte 12/);
  });

  it('reads bytes: a byte over 0x7f fails the dictionary, and is shown, not kept', () => {
    const value = new Uint8Array([...new TextEncoder().encode('train-ai=n, x="'), 0xe9, 0x22]);
    const read = headerUsage([value]);
    expect(read).toMatchObject({ parsed: false, preferences: {} });
    expect(read?.lines).toEqual(['train-ai=n, x="\ufffd"']);
    // Other values than y and n, unknown labels and parameters are ignored, as in robots.txt.
    expect(headerUsage(['train-ai=?1, search=y;q=1, bots=n, ai-use="n"'])?.preferences).toEqual({ search: 'allow' });
  });
});

describe('attachedUsage', () => {
  it('combines the robots.txt answer and the header, any disallow first, else any allow', () => {
    const answer = robots.usage('/page', 'GPTBot');
    expect(attachedUsage(answer, ['train-ai=n, ai-use=y'])).toEqual({
      crawlable: true,
      robotsTxt: { 'train-ai': 'allow', search: 'allow' },
      header: {
        lines: ['train-ai=n, ai-use=y'],
        parsed: true,
        error: null,
        preferences: { 'train-ai': 'disallow', 'ai-use': 'allow' },
      },
      combined: { 'train-ai': 'disallow', search: 'allow', 'ai-use': 'allow' },
    });
    // The header cannot loosen what robots.txt disallows (under /n/ its longest rule states search=n only).
    expect(attachedUsage(robots.usage('/n/x', 'GPTBot'), ['search=y, train-ai=y']).combined).toEqual({
      search: 'disallow',
      'train-ai': 'allow',
    });
  });

  it('without a header is the robots.txt answer; for a URL the crawler may not fetch, nothing', () => {
    expect(attachedUsage(robots.usage('/page', '*'), [])).toEqual({
      crawlable: true,
      robotsTxt: { 'train-ai': 'allow', search: 'allow' },
      header: null,
      combined: { 'train-ai': 'allow', search: 'allow' },
    });
    const blocked = attachedUsage(robots.usage('/never/x', '*'), ['train-ai=y']);
    expect(blocked).toMatchObject({ crawlable: false, robotsTxt: {}, combined: {} });
    expect(blocked.header?.preferences).toEqual({ 'train-ai': 'allow' });
  });

  it('refuses a line that is neither text nor bytes (a programmer error)', () => {
    expect(() => headerUsage([3 as unknown as string])).toThrow(TypeError);
  });
});

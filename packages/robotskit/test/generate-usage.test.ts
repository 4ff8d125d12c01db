/**
 * generateRobots with AI usage preferences: per-group `usage` (Content-Usage rules) and `contentSignal`, written as
 * lines, re-read by the engine and checked to give exactly what the policy states; a file that does not is caught; a
 * malformed usage part is a PolicyError that says where.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { usageMismatches } from '../src/semantics/generate-usage.js';
import { generateRobots, PolicyError, type RobotsPolicy } from '../src/semantics/index.js';

const POLICY: RobotsPolicy = {
  groups: [
    {
      crawlers: ['*'],
      allow: ['/'],
      disallow: ['/never/'],
      contentSignal: { search: 'yes', 'ai-train': 'no', 'ai-input': 'no' },
      usage: [
        { path: '/', preferences: { 'train-ai': 'disallow', search: 'allow' } },
        { path: '/ai-ok/', preferences: { 'train-ai': 'allow' } },
        { path: '/café/*.pdf$', preferences: { 'ai-use': 'disallow' } },
      ],
    },
    { crawlers: ['GPTBot', 'ClaudeBot'], usage: [{ path: '/', preferences: { 'train-ai': 'allow' } }] },
    {
      crawlers: ['ClaudeBot'],
      disallow: ['/drafts/'],
      usage: [{ path: '/docs/', preferences: { 'ai-use': 'allow' } }],
    },
  ],
};

describe('generateRobots: AI usage preferences', () => {
  it('writes Content-Signal and Content-Usage lines in their groups, and verifies them', () => {
    const result = generateRobots(POLICY);
    expect(result.text).toBe(
      [
        'User-agent: *',
        'Allow: /',
        'Disallow: /never/',
        'Content-Signal: search=yes, ai-train=no, ai-input=no',
        'Content-Usage: / train-ai=n, search=y',
        'Content-Usage: /ai-ok/ train-ai=y',
        'Content-Usage: /café/*.pdf$ ai-use=n',
        '',
        'User-agent: GPTBot',
        'User-agent: ClaudeBot',
        'Disallow:',
        'Content-Usage: / train-ai=y',
        '',
        'User-agent: ClaudeBot',
        'Disallow: /drafts/',
        'Content-Usage: /docs/ ai-use=y',
        '',
      ].join('\n'),
    );
    expect(result.usage).toEqual([]);
    expect(result.verified).toBe(true);
    expect(result.checks.every((c) => c.usage !== undefined && c.usage.length === 0)).toBe(true);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('the engine reads the generated file as the policy says: the draft example table and more', () => {
    const robots = parseRobotsTxt(generateRobots(POLICY).text);
    const at = (path: string, crawler: string) => robots.usage(path, crawler);
    expect(at('/test', 'SomeBot')).toMatchObject({
      crawlable: true,
      preferences: { 'train-ai': 'disallow', search: 'allow' },
    });
    expect(at('/never/test', 'SomeBot')).toMatchObject({ crawlable: false, preferences: {} });
    expect(at('/ai-ok/test', 'SomeBot').preferences).toEqual({ 'train-ai': 'allow' });
    expect(at('/caf%C3%A9/a.pdf', 'SomeBot').preferences).toEqual({ 'ai-use': 'disallow' });
    expect(at('/caf%C3%A9/a.pdfx', 'SomeBot').preferences).toEqual({ 'train-ai': 'disallow', search: 'allow' });
    expect(at('/test', 'SomeBot').contentSignal?.signals).toEqual({
      search: 'yes',
      'ai-train': 'no',
      'ai-input': 'no',
    });
    expect(at('/anything', 'GPTBot')).toMatchObject({ preferences: { 'train-ai': 'allow' }, contentSignal: null });
    // ClaudeBot's two groups merge: its / rule and its /docs/ rule, and /drafts/ disallowed.
    expect(at('/docs/x', 'ClaudeBot').preferences).toEqual({ 'ai-use': 'allow' });
    expect(at('/x', 'ClaudeBot').preferences).toEqual({ 'train-ai': 'allow' });
    expect(at('/drafts/x', 'ClaudeBot')).toMatchObject({ crawlable: false, preferences: {} });
  });

  it('the check catches a file whose preferences are not the policy’s', () => {
    const reference = parseRobotsTxt('User-agent: *\nAllow: /\n');
    const parts = [{ usage: [{ path: '/a/', preferences: { 'train-ai': 'disallow' as const } }], signal: null }];
    const good = parseRobotsTxt('User-agent: *\nAllow: /\nContent-Usage: /a/ train-ai=n\n');
    expect(usageMismatches(good, reference, ['*'], parts)).toEqual([]);
    const wrong = parseRobotsTxt('User-agent: *\nAllow: /\nContent-Usage: /a/ train-ai=y\nContent-Signal: search=no\n');
    expect(usageMismatches(wrong, reference, ['*'], parts)).toEqual([
      { crawler: '*', path: '/', what: 'content-signal', policy: {}, file: { search: 'no' } },
      {
        crawler: '*',
        path: '/a/',
        what: 'preferences',
        policy: { 'train-ai': 'disallow' },
        file: { 'train-ai': 'allow' },
      },
      { crawler: '*', path: '/a/', what: 'content-signal', policy: {}, file: { search: 'no' } },
    ]);
    // A rule in the wrong group: the crawler does not get it.
    const misplaced = parseRobotsTxt('User-agent: GPTBot\nAllow: /\nContent-Usage: /a/ train-ai=n\n');
    expect(usageMismatches(misplaced, reference, ['*'], parts).map((m) => [m.path, m.file])).toEqual([['/a/', {}]]);
  });

  it('says where a usage part is wrong', () => {
    const group = (extra: Record<string, unknown>) => ({ groups: [{ crawlers: ['*'], ...extra }] });
    const cases: [unknown, RegExp][] = [
      [group({ usage: {} }), /^groups\[0\]\.usage: expected a list of \{ path, preferences \}$/],
      [
        group({ usage: [{ path: 'a', preferences: { 'train-ai': 'allow' } }] }),
        /^groups\[0\]\.usage\[0\]\.path: expected a path starting with \/$/,
      ],
      [
        group({ usage: [{ path: '/a b', preferences: { 'train-ai': 'allow' } }] }),
        /whitespace, a control character or #/,
      ],
      [
        group({ usage: [{ path: '/', preferences: { bots: 'allow' } }] }),
        /^groups\[0\]\.usage\[0\]\.preferences: 'bots' is a retired label \(draft-ietf-aipref-vocab-03, draft-ietf-aipref-vocab-04\); current labels: train-ai, ai-use, search$/,
      ],
      [group({ usage: [{ path: '/', preferences: { 'train-AI': 'allow' } }] }), /unknown label 'train-AI'/],
      [
        group({ usage: [{ path: '/', preferences: { 'train-ai': 'n' } }] }),
        /preferences\.train-ai: expected allow or disallow$/,
      ],
      [group({ usage: [{ path: '/', preferences: {} }] }), /state at least one category/],
      [
        group({ usage: [{ path: '/', preferences: { search: 'allow' }, where: 1 }] }),
        /unknown field 'where' \(known: path, preferences\)/,
      ],
      [
        group({
          usage: [
            { path: '/', preferences: { search: 'allow' } },
            { path: '/', preferences: { search: 'disallow' } },
          ],
        }),
        /usage\[1\]\.path: '\/' is given twice in the group/,
      ],
      [
        group({ contentSignal: { 'ai-training': 'no' } }),
        /contentSignal: unknown key 'ai-training' \(known: search, ai-train, ai-input, use\)/,
      ],
      [group({ contentSignal: { use: 'yes' } }), /contentSignal\.use: expected immediate or reference or full/],
      [group({ contentSignal: {} }), /contentSignal: state at least one key/],
      [group({ signal: {} }), /unknown field 'signal' \(known: crawlers, allow, disallow, usage, contentSignal\)/],
    ];
    for (const [policy, message] of cases) {
      let error: unknown;
      try {
        generateRobots(policy as RobotsPolicy);
      } catch (e) {
        error = e;
      }
      expect(error, JSON.stringify(policy)).toBeInstanceOf(PolicyError);
      expect((error as Error).message, JSON.stringify(policy)).toMatch(message);
    }
  });
});

/**
 * `robotskit generate` with AI usage preferences, run as a process: a policy's per-group `usage` (Content-Usage rules)
 * and `contentSignal` are written as lines and verified by the engine; `--check` holds a hand-written file to them;
 * a malformed usage part is one line, exit 2.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobotsTxt } from 'robotskit';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { type RunResult, spawn } from './helpers.js';

const dir = tempDir('generate-usage');
const write = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** The real command, with a data folder of its own (no merged crawler list). */
const robotskit = (argv: string[]): Promise<RunResult> =>
  spawn(argv, undefined, { ROBOTSKIT_DATA_DIR: join(dir, 'data') });

// The attach draft's example as a policy: any crawler may fetch all but /never/, may not train on it except under
// /ai-ok/; ExampleBot may train on everything.
const policy = write(
  'policy.yaml',
  [
    'groups:',
    '  - crawlers: ["*"]',
    '    allow: [/]',
    '    disallow: [/never/]',
    '    contentSignal: { search: "yes", ai-train: "no" }',
    '    usage:',
    '      - { path: /, preferences: { train-ai: disallow } }',
    '      - { path: /ai-ok/, preferences: { train-ai: allow } }',
    '  - crawlers: [ExampleBot]',
    '    allow: [/]',
    '    usage:',
    '      - { path: /, preferences: { train-ai: allow } }',
    '',
  ].join('\n'),
);
const expected = [
  'User-agent: *',
  'Allow: /',
  'Disallow: /never/',
  'Content-Signal: search=yes, ai-train=no',
  'Content-Usage: / train-ai=n',
  'Content-Usage: /ai-ok/ train-ai=y',
  '',
  'User-agent: ExampleBot',
  'Allow: /',
  'Content-Usage: / train-ai=y',
  '',
].join('\n');

describe('robotskit generate: AI usage preferences', () => {
  it("writes the policy's Content-Signal and Content-Usage lines, verified; the engine reads the draft's table from it", async () => {
    const result = await robotskit(['generate', policy]);
    expect(result).toEqual({ code: 0, stdout: expected, stderr: '' });
    const robots = parseRobotsTxt(result.stdout);
    expect(robots.usage('/test', 'SomeBot')).toMatchObject({
      crawlable: true,
      preferences: { 'train-ai': 'disallow' },
    });
    expect(robots.usage('/never/test', 'SomeBot')).toMatchObject({ crawlable: false, preferences: {} });
    expect(robots.usage('/ai-ok/test', 'SomeBot').preferences).toEqual({ 'train-ai': 'allow' });
    for (const path of ['/test', '/never/test', '/ai-ok/test'])
      expect(robots.usage(path, 'ExampleBot').preferences).toEqual({ 'train-ai': 'allow' });
    const json = await robotskit(['generate', policy, '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ verified: true, text: expected, unverified: [], check: null });
  });

  it('--check: exit 0 for a file with the same preferences, 1 with each usage preference where not', async () => {
    const same = write(
      'same.txt',
      expected.replace(
        'Content-Usage: / train-ai=n\nContent-Usage: /ai-ok/ train-ai=y',
        'Content-Usage: /ai-ok/ train-ai=y\nContent-Usage: / train-ai=n',
      ),
    );
    expect(await robotskit(['generate', policy, '--check', same])).toEqual({ code: 0, stdout: '', stderr: '' });
    // Without the /ai-ok/ rule: / decides there, and training is disallowed where the policy allows it.
    const lax = write('lax.txt', expected.replace('Content-Usage: /ai-ok/ train-ai=y\n', ''));
    const result = await robotskit(['generate', policy, '--check', lax]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `${lax} does not follow the policy:`,
        "*: 0 regions decided otherwise than the policy says, 1 AI usage preference other than the policy's",
        '  usage  train-ai disallow, the policy says allow  at /ai-ok/ (line 5)',
        '',
      ].join('\n'),
    );
    const json = await robotskit(['generate', policy, '--check', lax, '--json']);
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout) as {
      check: { followsPolicy: boolean; crawlers: { crawler: string; usage: unknown[] }[] };
    };
    expect(doc.check.followsPolicy).toBe(false);
    expect(doc.check.crawlers.map((c) => [c.crawler, c.usage])).toEqual([
      [
        '*',
        [
          {
            path: '/ai-ok/',
            category: 'train-ai',
            before: 'disallow',
            after: 'allow',
            linesBefore: [5],
            linesAfter: [6],
          },
        ],
      ],
    ]);
  });

  it('a malformed usage part is one line on standard error, exit 2', async () => {
    const cases: [string, RegExp][] = [
      [
        'groups:\n  - crawlers: ["*"]\n    usage: [{ path: /, preferences: { bots: disallow } }]\n',
        /^robotskit: policy '.*': groups\[0\]\.usage\[0\]\.preferences: 'bots' is a retired label \(draft-ietf-aipref-vocab-03, draft-ietf-aipref-vocab-04\); current labels: train-ai, ai-use, search\n$/,
      ],
      [
        'groups:\n  - crawlers: ["*"]\n    contentSignal: { ai-train: maybe }\n',
        /^robotskit: policy '.*': groups\[0\]\.contentSignal\.ai-train: expected yes or no\n$/,
      ],
    ];
    for (const [i, [text, message]] of cases.entries()) {
      const result = await robotskit(['generate', write(`bad-${i}.yaml`, text)]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
    }
  });
});

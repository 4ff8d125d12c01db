/**
 * `robotskit generate <policy> [--check robots.txt]`: robots.txt from a JSON or YAML policy, verified; --check as a CI
 * gate for a hand-written file.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRobotsTxt } from 'robotskit';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { run } from './helpers.js';

const dir = tempDir('generate');
const write = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const policy = {
  groups: [
    { crawlers: ['GPTBot', 'CCBot'], disallow: ['/'] },
    { crawlers: ['*'], disallow: ['/admin/'], allow: ['/admin/help$'] },
  ],
  sitemaps: ['https://example.invalid/sitemap.xml'],
};
const expected = [
  'User-agent: GPTBot',
  'User-agent: CCBot',
  'Disallow: /',
  '',
  'User-agent: *',
  'Allow: /admin/help$',
  'Disallow: /admin/',
  '',
  'Sitemap: https://example.invalid/sitemap.xml',
  '',
].join('\n');
const jsonPolicy = write('policy.json', JSON.stringify(policy));
const yamlPolicy = write(
  'policy.yaml',
  [
    '# AI crawlers stay out; everyone else keeps out of /admin/ except its help page',
    'groups:',
    '  - crawlers: [GPTBot, CCBot]',
    '    disallow: [/]',
    '  - crawlers: ["*"]',
    '    disallow:',
    '      - /admin/',
    '    allow:',
    '      - /admin/help$',
    'sitemaps:',
    '  - https://example.invalid/sitemap.xml',
    '',
  ].join('\n'),
);

describe('robotskit generate', () => {
  it('writes the same verified file from JSON and from YAML', async () => {
    expect(await run(['generate', jsonPolicy])).toEqual({ code: 0, stdout: expected, stderr: '' });
    expect(await run(['generate', yamlPolicy])).toEqual({ code: 0, stdout: expected, stderr: '' });
    expect(await run(['generate', '-'], { stdin: JSON.stringify(policy) })).toEqual({
      code: 0,
      stdout: expected,
      stderr: '',
    });
  });

  it('expands a category of the catalogue', async () => {
    const result = await run(['generate', '-'], {
      stdin: 'groups:\n  - crawlers: ["category:ai-training"]\n    disallow: ["/"]\n',
    });
    expect(result.code).toBe(0);
    const robots = parseRobotsTxt(result.stdout);
    expect(robots.isAllowed('https://example.invalid/a', 'GPTBot')).toBe(false);
    expect(robots.isAllowed('https://example.invalid/a', 'Googlebot')).toBe(true);
    // Crawlers robots.txt cannot name as Google reads it are left out, and said so in one line.
    expect(result.stderr).toMatch(
      /^robotskit: left out, robots\.txt cannot name them as Google reads it and they obey the \* group: .*AI2Bot \(read as AI\).*img2dataset \(read as img\)/,
    );
    expect(result.stderr.split('\n').length).toBe(2);
    expect(result.stdout).not.toMatch(/^User-agent: (AI2Bot|img2dataset)$/m);
    // Brightbot 1.0 is written as the token Google matches.
    expect(result.stdout).toMatch(/^User-agent: Brightbot$/m);
    // A name robots.txt cannot hold, named on its own, is refused in one line.
    const refused = await run(['generate', '-'], { stdin: 'groups:\n  - crawlers: ["AI2Bot"]\n    disallow: ["/"]\n' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      "robotskit: policy standard input: groups[0].crawlers[0]: 'AI2Bot' cannot be named in robots.txt as Google reads it: a user-agent line 'AI2Bot' is read as 'AI' (letters, - and _ only), so it would obey the * group\n",
    );
  });

  it('--check: exit 0 when a robots.txt decides as the policy says, 1 with the regions when not', async () => {
    const same = write(
      'same.txt',
      'User-agent: CCBot\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin/\nAllow: /admin/help$\n',
    );
    expect(await run(['generate', yamlPolicy, '--check', same])).toEqual({ code: 0, stdout: '', stderr: '' });
    const lax = write('lax.txt', 'User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin/\n');
    const result = await run(['generate', yamlPolicy, '--check', lax]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`${lax} does not follow the policy:`);
    // CCBot has no group of its own in lax.txt: it may fetch what the policy blocks for it.
    expect(result.stdout).toMatch(/^CCBot: \d+ regions? decided otherwise than the policy says$/m);
    expect(result.stdout).toContain('allowed, the policy blocks');
    // Everyone else: /admin/help is blocked though the policy allows it.
    expect(result.stdout).toMatch(
      /^\*: 1 region decided otherwise than the policy says\n {2}blocked, the policy allows {2}\/admin\/help\$ {2}e\.g\. \/admin\/help \(line 5\)$/m,
    );
    expect(result.stdout).not.toMatch(/^GPTBot:/m);
  });

  it('exits 2 with one line for unreadable files and wrong policies', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['generate', join(dir, 'missing.yaml')],
        /^robotskit: cannot read policy file '.*missing\.yaml': no such file\n$/,
      ],
      [['generate', write('bad.json', '{"groups": [')], /^robotskit: policy '.*bad\.json' is not JSON: .+\n$/],
      [
        ['generate', write('bad.yaml', 'groups: [\n')],
        /^robotskit: policy '.*bad\.yaml' is not YAML \(nor JSON\): .+\n$/,
      ],
      [
        ['generate', write('unknown.yaml', 'groups:\n  - crawlers: ["category:robots"]\n')],
        /^robotskit: policy '.*unknown\.yaml': groups\[0\]\.crawlers\[0\]: unknown category 'robots' \(known: search, ads, ai, tool, other, search-engine, ai-training, ai-search, ai-assistant, control-token, seo-tool, archiver, preview, scraping-tool\)\n$/,
      ],
      [
        ['generate', write('path.yaml', 'groups:\n  - crawlers: ["*"]\n    disallow: [admin]\n')],
        /^robotskit: policy '.*path\.yaml': groups\[0\]\.disallow\[0\]: 'admin' must start with \/ or \*\n$/,
      ],
      [
        ['generate', jsonPolicy, '--check', join(dir, 'missing.txt')],
        /^robotskit: cannot read robots\.txt file '.*missing\.txt': no such file\n$/,
      ],
      [
        ['generate', '-', '--check', '-'],
        /^robotskit: only one of the policy and --check can be standard input \(-\)\n$/,
      ],
    ];
    for (const [argv, stderr] of cases) {
      const result = await run(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stdout, argv.join(' ')).toBe('');
      expect(result.stderr, argv.join(' ')).toMatch(stderr);
    }
  });
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { run, spawn } from './helpers.js';

const dir = tempDir('cli');
const robotsFile = join(dir, 'robots.txt');
writeFileSync(
  robotsFile,
  'User-agent: *\nDisallow: /private # keep out\nAllow: /private/ok\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n',
);

describe('robotskit test', () => {
  it('exits 0 when allowed and 1 when disallowed, silently when not a TTY', async () => {
    expect(await run(['test', robotsFile, 'Bingbot', 'https://e.com/public'])).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(await run(['test', robotsFile, 'Bingbot', 'https://e.com/private/x'])).toMatchObject({
      code: 1,
      stdout: '',
    });
    expect((await run(['test', robotsFile, 'Googlebot', 'https://e.com/private/x'])).code).toBe(0);
  });

  it('prints the verdict and the deciding line on a TTY', async () => {
    const disallowed = await run(['test', robotsFile, 'Bingbot', 'https://e.com/private/x'], { tty: true });
    expect(disallowed.stdout).toBe('disallowed (line 2: Disallow: /private # keep out)\n');
    const allowed = await run(['test', robotsFile, 'Bingbot', 'https://e.com/x'], { tty: true });
    expect(allowed.stdout).toBe('allowed (no rule matched)\n');
  });

  it('reads the robots.txt from standard input with -', async () => {
    const result = await run(['test', '-', 'FooBot', 'http://e.com/a'], { stdin: 'user-agent: FooBot\ndisallow: /a' });
    expect(result.code).toBe(1);
  });

  it('exits 2 with one clear line on usage and I/O errors, never a stack trace', async () => {
    const missing = await run(['test', join(dir, 'nope.txt'), 'G', 'https://e.com/']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`robotskit: cannot read robots.txt file '${join(dir, 'nope.txt')}': no such file\n`);
    const isDir = await run(['test', dir, 'G', 'https://e.com/']);
    expect(isDir).toMatchObject({ code: 2, stderr: expect.stringContaining('it is a directory') });
    const missingArg = await run(['test', robotsFile]);
    expect(missingArg.code).toBe(2);
    expect(missingArg.stderr).toContain("missing required argument 'user-agent'");
    const unknown = await run(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    for (const r of [missing, isDir, missingArg, unknown]) expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('robotskit explain', () => {
  it('explains in words which groups applied and which line decided', async () => {
    const result = await run(['explain', robotsFile, 'https://e.com/private/x?y=1#frag', '--ua', 'Bingbot']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('verdict   DISALLOWED');
    expect(result.stdout).toContain('path      /private/x?y=1');
    expect(result.stdout).toContain('line 1: User-agent: *');
    expect(result.stdout).toContain('line 2: Disallow: /private # keep out');
  });

  it('prints JSON with --json and pools several crawlers', async () => {
    const result = await run(['explain', robotsFile, 'https://e.com/nogoogle', '--ua', 'Googlebot, Bingbot', '--json']);
    expect(result.code).toBe(1);
    const doc = JSON.parse(result.stdout);
    expect(doc).toMatchObject({
      url: 'https://e.com/nogoogle',
      allowed: false,
      line: 6,
      rule: { kind: 'disallow', pattern: '/nogoogle', line: 6, indexHtml: false },
      groups: 'specific',
      groupLines: [5],
      userAgents: ['Googlebot', 'Bingbot'],
      ruleText: 'Disallow: /nogoogle',
    });
  });

  it('reduces a full User-Agent string to its product token', async () => {
    const ua = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    const result = await run(['explain', robotsFile, 'https://e.com/nogoogle', '--ua', ua, '--json']);
    expect(JSON.parse(result.stdout).userAgents).toEqual(['Googlebot']);
  });

  it('decides for Googlebot without --ua, and refuses an empty one', async () => {
    const byDefault = await run(['explain', robotsFile, 'https://e.com/nogoogle', '--json']);
    expect(byDefault.code).toBe(1);
    expect(JSON.parse(byDefault.stdout).userAgents).toEqual(['Googlebot']);
    const empty = await run(['explain', robotsFile, 'https://e.com/', '--ua', ' , ']);
    expect(empty).toMatchObject({ code: 2, stderr: 'robotskit: --ua needs at least one user-agent token\n' });
  });
});

describe('the robotskit executable', () => {
  it('prints help on standard error with no arguments and exits 2, a usage error', async () => {
    const result = await spawn([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: robotskit');
    expect(result.stderr).toContain('Exit status:');
  });

  it('prints its version', async () => {
    const result = await spawn(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
  });
});

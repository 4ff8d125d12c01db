/**
 * `robotskit audit` and AI usage preferences, against a real HTTP server on 127.0.0.1: the page's `Content-Usage`
 * header (each line as its bytes) and robots.txt's `Content-Usage` rule, shown each and combined, most restrictive per
 * category; the command run as a process. Each case's answer is the engine's `attachedUsage` on the same bytes: the
 * CLI only fetches.
 */
import { join } from 'node:path';
import { attachedUsage, parseRobotsTxt } from 'robotskit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditJson } from '../src/answers/audit.js';
import { tempDir } from './cleanup.js';
import { type RunResult, spawn } from './helpers.js';
import { type Site, Sites } from './sites.js';

const ROBOTS =
  'User-agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: / train-ai=y, search=y\nContent-Usage: /ai-ok/ train-ai=y\n\nUser-agent: GPTBot\nAllow: /\nContent-Usage: / train-ai=n\n';

/** Each page and the Content-Usage header lines it sends (strings: one char per byte, as Node writes them). */
const PAGES: Record<string, string[]> = {
  '/plain': [],
  '/header-n': ['train-ai=n'],
  '/two-lines': ['ai-use=y', 'search=n'],
  '/broken': ['Train-ai=n'],
  '/bytes': ['train-ai=n, x="caf\xe9"'],
  '/ai-ok/page': ['search=n, train-ai=y'],
  '/never/page': ['train-ai=y'],
};

const dir = tempDir('audit-usage');
const sites = new Sites();
let site: Site;

beforeAll(async () => {
  site = await sites.start((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
    const lines = PAGES[req.url ?? ''];
    if (lines === undefined) return void res.writeHead(404).end();
    const flat = ['content-type', 'text/html'];
    for (const line of lines) flat.push('Content-Usage', line);
    res.writeHead(200, flat).end('<!doctype html><title>t</title>');
  });
});
afterAll(() => sites.closeAll());

/** The real command, with a data folder of its own (no merged crawler list). */
const robotskit = (argv: string[]): Promise<RunResult> =>
  spawn(argv, undefined, { ROBOTSKIT_DATA_DIR: join(dir, 'data') });

const latin1 = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('robotskit audit: AI usage preferences', () => {
  const robots = parseRobotsTxt(ROBOTS);
  for (const [path, lines] of Object.entries(PAGES)) {
    for (const ua of ['Googlebot', 'GPTBot']) {
      it(`${path} for ${ua}: the engine's combination of robots.txt and the header`, async () => {
        const result = await robotskit(['audit', `${site.origin}${path}`, '--ua', ua, '--json']);
        expect(result.stderr).toBe('');
        const doc = JSON.parse(result.stdout) as AuditJson;
        const expected = attachedUsage(robots.usage(path, ua), lines.map(latin1));
        const { robotsTxt, ...rest } = doc.usage;
        expect(robotsTxt.preferences).toEqual(expected.robotsTxt);
        expect(rest).toEqual({
          crawlable: expected.crawlable,
          header: expected.header === null ? null : { ...expected.header },
          combined: expected.combined,
        });
        expect(robotsTxt.rules.map((r) => r.line)).toEqual(robots.usage(path, ua).rules.map((r) => r.line));
        expect(result.code).toBe(expected.crawlable ? 0 : 1);
      });
    }
  }

  it('says what each source states and the combination, in words', async () => {
    const combined = await robotskit(['audit', `${site.origin}/header-n`]);
    expect(combined.code).toBe(0);
    expect(combined.stdout).toContain(
      '  usage    robots.txt  train-ai allow, search allow (line 4: Content-Usage: / train-ai=y, search=y)\n' +
        '           header      train-ai disallow (Content-Usage: train-ai=n)\n' +
        '           combined    train-ai disallow, search allow (most restrictive per category)\n',
    );
    const broken = await robotskit(['audit', `${site.origin}/broken`]);
    expect(broken.stdout).toContain(
      '           header      none: not a dictionary, a key must be lower-case (at byte 0)',
    );
    expect(broken.stdout).toContain('           combined    train-ai allow, search allow');
    const none = await robotskit(['audit', `${site.origin}/plain`]);
    expect(none.stdout).toContain('           header      no Content-Usage header\n');
    const blocked = await robotskit(['audit', `${site.origin}/never/page`]);
    expect(blocked.code).toBe(1);
    expect(blocked.stdout).toContain('  usage    robots.txt  none: it cannot be crawled\n');
    expect(blocked.stdout).toContain(
      '           combined    none: preferences apply only to pages a crawler may fetch\n',
    );
  });

  it('a header with a byte over 0x7f is shown, and states nothing', async () => {
    const result = await robotskit(['audit', `${site.origin}/bytes`, '--json']);
    const doc = JSON.parse(result.stdout) as AuditJson;
    expect(doc.usage.header).toMatchObject({ parsed: false, preferences: {}, lines: ['train-ai=n, x="caf\ufffd"'] });
    expect(doc.usage.combined).toEqual({ 'train-ai': 'allow', search: 'allow' });
  });
});

/**
 * A URL ending in a lone `?` keeps it on every command that asks the crawl client (`check`, `batch`, `audit`) as on
 * `test`: under `Disallow: /*?`, Google disallows `/search?`, and the URL printed is the one decided.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from './helpers.js';
import { type Site, Sites } from './sites.js';

const ROBOTS = 'User-agent: *\nDisallow: /*?\nDisallow: /cse?\n';
const sites = new Sites();
let site: Site;
let open: Site;

beforeAll(async () => {
  site = await sites.serve({ '/robots.txt': { body: ROBOTS }, '/search': { body: 'page' } });
  open = await sites.serve({
    '/robots.txt': { body: 'User-agent: *\nDisallow: /private\n' },
    '/page?': { body: '<html><head></head><body>ok</body></html>', headers: { 'content-type': 'text/html' } },
  });
});
afterAll(() => sites.closeAll());

describe('a URL ending in a lone `?`', () => {
  it('is blocked by `check`, with the rule that decides it (exit 1)', async () => {
    for (const url of [`${site.origin}/search?`, `${site.origin}/search?#top`, `${site.origin}/cse?`]) {
      const result = await run(['check', url, '--ua', 'Googlebot']);
      expect(result.code, url).toBe(1);
      expect(result.stdout, url).toContain(`BLOCKED  ${site.origin}/`);
      expect(result.stdout, url).toMatch(/rule {5}line [23]: Disallow: \/(\*|cse)\?/);
    }
    expect((await run(['check', `${site.origin}/search`, '--ua', 'Googlebot'])).code).toBe(0);
  });

  it('is blocked by `batch`, line by line', async () => {
    const input = [`${site.origin}/search?`, `${site.origin}/search`, `${site.origin}/a?#`].join('\n');
    const result = await run(['batch', '-', '--ua', 'Googlebot'], { stdin: `${input}\n` });
    const records = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { url: string; allowed: boolean });
    expect(records.map((r) => r.allowed)).toEqual([false, true, false]);
    expect(records[0]!.url).toBe(`${site.origin}/search?`);
  });

  it('is blocked by `audit`, as by `test` on the same file', async () => {
    const audit = await run(['audit', `${site.origin}/search?`, '--ua', 'Googlebot', '--json']);
    expect(audit.code).toBe(1);
    expect(JSON.parse(audit.stdout)).toMatchObject({
      verdict: 'cannot be crawled',
      robots: { allowed: false, line: 2 },
    });
    // The page audited is requested as decided, with its `?`.
    const allowed = await run(['audit', `${open.origin}/page?`, '--ua', 'Googlebot', '--json']);
    expect(allowed.code).toBe(0);
    expect(open.requests).toContain('/page?');
    expect(open.requests).not.toContain('/page');
    const dir = mkdtempSync(join(tmpdir(), 'bare-query-'));
    try {
      const file = join(dir, 'robots.txt');
      writeFileSync(file, ROBOTS);
      expect((await run(['test', file, 'Googlebot', `${site.origin}/search?`])).code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

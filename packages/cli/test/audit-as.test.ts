/**
 * `robotskit audit <url> --as …` against an origin on 127.0.0.1 that treats crawlers differently by User-Agent: a 403
 * to GPTBot's, a challenge to Bytespider's, a 429 to CCBot's, another robots.txt to ClaudeBot's. Each crawler is
 * fetched with its real User-Agent (the engine's catalogue), and every place where the edge disagrees with the file is
 * reported (exit 1); a refusal the file asks for is no disagreement (exit 0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessJson } from '../src/answers/access.js';
import { run, spawn } from './helpers.js';
import { type Site, Sites } from './sites.js';

const sites = new Sites();
let site: Site;

const ROBOTS = 'User-agent: *\nDisallow: /private/\n\nUser-agent: Amazonbot\nDisallow: /\n';
const CHALLENGE =
  '<!doctype html><html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script></body></html>';

beforeAll(async () => {
  site = await sites.start((req, res) => {
    const ua = String(req.headers['user-agent'] ?? '');
    if (req.url === '/robots.txt') {
      if (ua.includes('ClaudeBot'))
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n');
      if (ua.includes('PerplexityBot')) return void res.writeHead(403).end('no');
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
    }
    if (ua.includes('GPTBot'))
      return void res.writeHead(403, { 'content-type': 'text/html' }).end('<h1>Forbidden</h1>');
    if (ua.includes('CCBot')) return void res.writeHead(429, { 'retry-after': '3600' }).end();
    if (ua.includes('Bytespider')) return void res.writeHead(200, { 'content-type': 'text/html' }).end(CHALLENGE);
    if (ua.includes('Applebot'))
      return void res.writeHead(403, { 'content-type': 'text/html', 'cf-mitigated': 'challenge' }).end('');
    if (ua.includes('Amazonbot')) return void res.writeHead(403).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end('<html><head><title>ok</title></head></html>');
  });
});

afterAll(() => sites.closeAll());

async function accessOf(argv: string[]): Promise<{ code: number; doc: AccessJson }> {
  const result = await run([...argv, '--json']);
  expect(result.stderr).toBe('');
  return { code: result.code, doc: JSON.parse(result.stdout) as AccessJson };
}

const findings = (doc: AccessJson) =>
  Object.fromEntries(doc.crawlers.map((c) => [c.crawler, c.findings.map((f) => f.kind)]));

describe('audit --as', () => {
  it('reports a 403 to GPTBot, which robots.txt allows, fetched with its real User-Agent (exit 1)', async () => {
    const before = site.agents.length;
    const { code, doc } = await accessOf(['audit', `${site.origin}/page`, '--as', 'GPTBot,Googlebot']);
    expect(code).toBe(1);
    expect(findings(doc)).toEqual({ GPTBot: ['edge-refuses'], Googlebot: [] });
    const gpt = doc.crawlers[0]!;
    expect(gpt).toMatchObject({
      allowed: true,
      documentedUserAgent: true,
      page: { status: 403, challenge: false, error: null },
      robots: { status: 200, sameAsBaseline: true },
    });
    expect(gpt.findings[0]!.message).toBe('the page answers HTTP 403 to GPTBot, which robots.txt allows to fetch it');
    // robotskit's own fetches, then each crawler's robots.txt and page with its real User-Agent, then each robots.txt
    // again with Cache-Control: no-cache (is the copy served a cache's older one?).
    const agents = site.agents.slice(before);
    const requests = site.requests.slice(before);
    const of = (ua: string) => requests.filter((_, i) => agents[i]!.includes(ua)).sort();
    expect(of('GPTBot/1.1; +https://openai.com/gptbot')).toEqual(['/page', '/robots.txt', '/robots.txt']);
    expect(of('Googlebot/2.1; +http://www.google.com/bot.html')).toEqual(['/page', '/robots.txt', '/robots.txt']);
    expect(agents.filter((a) => a.startsWith('robotskit/'))).toHaveLength(3);
    expect(gpt.freshness).toMatchObject({ state: 'current', olderBySeconds: null, fresh: { status: 200 } });
    expect(doc.baseline).toMatchObject({ robots: { status: 200 }, page: { status: 200 } });
    expect(doc.disagreements).toBe(1);
  });

  it('reports another robots.txt per User-Agent (cloaking), a challenge and a 429, each once', async () => {
    const { code, doc } = await accessOf([
      'audit',
      `${site.origin}/page`,
      '--as',
      'ClaudeBot,Bytespider,CCBot,Applebot,PerplexityBot',
    ]);
    expect(code).toBe(1);
    expect(findings(doc)).toEqual({
      ClaudeBot: ['robots-differs'],
      Bytespider: ['challenge'],
      CCBot: ['edge-refuses'],
      Applebot: ['edge-refuses', 'challenge'],
      // Its robots.txt is a 403 (Google reads a 4xx as no robots.txt: allowed), unlike robotskit's 200.
      PerplexityBot: ['robots-differs'],
    });
    const claude = doc.crawlers.find((c) => c.crawler === 'ClaudeBot')!;
    expect(claude.robots).toMatchObject({ status: 200, sameAsBaseline: false });
    expect(claude.findings[0]!.message).toMatch(
      /^robots\.txt is served differently to ClaudeBot: \d+ bytes that differ/,
    );
    const perplexity = doc.crawlers.find((c) => c.crawler === 'PerplexityBot')!;
    expect(perplexity.robots).toMatchObject({ status: 403, outcome: 'allow-all' });
    expect(perplexity.findings[0]!.message).toBe(
      'robots.txt is served differently to PerplexityBot: HTTP 403 instead of HTTP 200',
    );
  });

  it('finds no disagreement where the edge refuses what the file disallows (exit 0)', async () => {
    const { code, doc } = await accessOf(['audit', `${site.origin}/page`, '--as', 'Amazonbot']);
    expect(code).toBe(0);
    expect(doc.crawlers[0]).toMatchObject({ crawler: 'Amazonbot', allowed: false, line: 5, page: { status: 403 } });
    expect(doc.crawlers[0]!.ruleText).toBe('Disallow: /');
    // Nor for a crawler the file disallows the URL to, whatever the edge does.
    const privatePage = await accessOf(['audit', `${site.origin}/private/x`, '--as', 'GPTBot']);
    expect(privatePage.code).toBe(0);
    expect(privatePage.doc.crawlers[0]).toMatchObject({ allowed: false, page: { status: 403 }, findings: [] });
  });

  it('says it in words on a terminal, for a token outside the catalogue too', async () => {
    const result = await run(['audit', `${site.origin}/page`, '--as', 'GPTBot,MyBot']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('edge-refuses   the page answers HTTP 403 to GPTBot');
    expect(result.stdout).toContain('MyBot  Mozilla/5.0 (compatible; MyBot/1.0) (built: its operator documents none)');
    expect(result.stdout).toContain('the edge agrees with the file');
    expect(result.stdout).toMatch(/1 disagreement\(s\) between the edge and robots\.txt\n$/);
  });

  it('refuses what it cannot do in one line (exit 2)', async () => {
    const url = `${site.origin}/page`;
    const cases: [string[], string][] = [
      [['--as', ' , '], 'robotskit: --as needs at least one crawler, e.g. --as GPTBot,Googlebot\n'],
      [
        ['--as', 'GPTBot', '--ua', 'Googlebot'],
        'robotskit: --as names the crawlers itself: give --as or --ua, not both\n',
      ],
      [
        ['--as', Array.from({ length: 21 }, (_, i) => `Bot${i}`).join(',')],
        'robotskit: --as names 21 crawlers: at most 20 at once\n',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await run(['audit', url, ...args]);
      expect(result).toEqual({ code: 2, stdout: '', stderr: message });
    }
    const notHttp = await spawn(['audit', 'ftp://127.0.0.1/x', '--as', 'GPTBot']);
    expect(notHttp).toEqual({
      code: 2,
      stdout: '',
      stderr: "robotskit: cannot audit 'ftp://127.0.0.1/x': only http and https URLs are supported\n",
    });
  });

  it('reports an unreachable page in words, not as a crash', async () => {
    const closed = await sites.closedOrigin();
    const { code, doc } = await accessOf(['audit', `${closed}/page`, '--as', 'GPTBot']);
    // Unreachable robots.txt: disallow-all for every crawler, so nothing the edge does contradicts it.
    expect(code).toBe(0);
    expect(doc.crawlers[0]).toMatchObject({ allowed: false, page: { status: null, error: 'connection refused' } });
  });
});

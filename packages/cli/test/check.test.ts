/**
 * `robotskit check` against real HTTP servers on 127.0.0.1: allowed, blocked, 5xx, 404, timeouts, unreachable hosts,
 * crawler profiles, the --json shape and the exit codes (0 allowed, 1 blocked, whatever the fetch outcome, 2 usage error).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckJson } from '../src/crawl/verdict.js';
import { run, spawn } from './helpers.js';
import { type Site, Sites } from './sites.js';

const ROBOTS = 'User-agent: *\nDisallow: /private/\nAllow: /private/ok\n\nUser-agent: Googlebot\nDisallow: /g/\n';
const sites = new Sites();
let rules: Site;
let missing: Site;
let down: Site;
let silent: Site;
let html: Site;

beforeAll(async () => {
  rules = await sites.serve({ '/robots.txt': { body: ROBOTS } });
  missing = await sites.serve({});
  down = await sites.serve({ '/robots.txt': { status: 503 } });
  silent = await sites.start(() => {});
  html = await sites.serve({
    '/robots.txt': { body: '<html><body>User-agent: *</body></html>', headers: { 'content-type': 'text/html' } },
  });
});
afterAll(() => sites.closeAll());

const json = (stdout: string) => JSON.parse(stdout) as CheckJson[];

describe('robotskit check', () => {
  it('says allowed, with the deciding line, the fetch and the policy (exit 0)', async () => {
    const result = await run(['check', `${rules.origin}/private/ok`, '--ua', 'robotskit']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`ALLOWED  ${rules.origin}/private/ok  for robotskit`);
    expect(lines[1]).toBe('  rule     line 3: Allow: /private/ok');
    expect(lines[2]).toMatch(
      new RegExp(`^  robots   ${rules.origin}/robots\\.txt: HTTP 200, ${ROBOTS.length} bytes, \\d+ ms$`),
    );
    expect(lines[3]).toMatch(/^ {2}policy {3}rules: robots\.txt fetched at .* \(HTTP 200\); its rules apply$/);
    expect(rules.agents.at(-1)).toMatch(/^robotskit\//);
  });

  it('says blocked (exit 1) and checks several URLs with one fetch per origin', async () => {
    const before = rules.requests.length;
    const result = await run([
      'check',
      `${rules.origin}/private/x`,
      `${rules.origin}/public`,
      `${missing.origin}/a`,
      '--ua',
      'robotskit',
    ]);
    expect(result.code).toBe(1);
    expect(rules.requests.length - before).toBe(1);
    expect(result.stdout).toContain(`BLOCKED  ${rules.origin}/private/x`);
    expect(result.stdout).toContain('  rule     line 2: Disallow: /private/');
    expect(result.stdout).toContain(`ALLOWED  ${rules.origin}/public`);
    expect(result.stdout).toContain('  rule     no rule matched: allowed');
    expect(result.stdout).toContain(`ALLOWED  ${missing.origin}/a`);
    expect(result.stdout).toContain('not found (HTTP 404) (Google treats that as no robots.txt');
    expect(result.stdout).toContain('  policy   allow-all: no robots.txt');
  });

  it('decides for Googlebot (its profile) without --ua', async () => {
    const result = await run(['check', `${rules.origin}/g/x`, `${rules.origin}/private/x`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`BLOCKED  ${rules.origin}/g/x  for Googlebot (profile: Googlebot)`);
    expect(result.stdout).toContain(`ALLOWED  ${rules.origin}/private/x  for Googlebot (profile: Googlebot)`);
  });

  it('prints a JSON array in argument order', async () => {
    const result = await run(['check', '--json', '--ua', 'Googlebot', `${rules.origin}/g/1`, `${missing.origin}/x y`]);
    expect(result.code).toBe(1);
    const [blocked, allowed] = json(result.stdout);
    expect(blocked).toEqual({
      input: `${rules.origin}/g/1`,
      url: `${rules.origin}/g/1`,
      allowed: false,
      crawler: 'Googlebot',
      crawlerRewrites: [],
      line: 6,
      rule: { kind: 'disallow', pattern: '/g/', line: 6, indexHtml: false },
      ruleText: 'Disallow: /g/',
      robotsUrl: `${rules.origin}/robots.txt`,
      fetch: {
        url: `${rules.origin}/robots.txt`,
        finalUrl: `${rules.origin}/robots.txt`,
        status: 200,
        outcome: 'rules',
        error: null,
        redirects: 0,
        bytes: ROBOTS.length,
        truncated: false,
        html: false,
        ms: expect.any(Number),
      },
      policy: { mode: 'rules', reason: 'fetched', message: expect.stringContaining('its rules apply') },
      problem: null,
    });
    expect(allowed).toMatchObject({
      input: `${missing.origin}/x y`,
      url: `${missing.origin}/x%20y`,
      allowed: true,
      line: 0,
      rule: null,
      ruleText: null,
      fetch: { status: 404, outcome: 'allow-all' },
      policy: { mode: 'allow-all', reason: 'not-found' },
    });
  });

  it('uses a crawler profile’s fallback order', async () => {
    // Googlebot-Image has no group: it obeys Googlebot's, so /private/ is open to it and /g/ is not.
    const open = await run(['check', '--json', '--ua', 'googlebot-image', `${rules.origin}/private/x`]);
    expect(open.code).toBe(0);
    expect(json(open.stdout)[0]).toMatchObject({ crawler: 'Googlebot-Image', allowed: true });
    const shut = await run(['check', '--ua', 'Googlebot-Image', `${rules.origin}/g/x`]);
    expect(shut.code).toBe(1);
    expect(shut.stdout).toContain('for Googlebot-Image (profile: Googlebot-Image → Googlebot)');
    // The same name as a plain token of another crawler gets the * group.
    expect((await run(['check', '--ua', 'SomeBot', `${rules.origin}/private/x`])).code).toBe(1);
  });

  it('a 5xx robots.txt blocks the whole site (exit 1)', async () => {
    const result = await run(['check', '--json', `${down.origin}/anything`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(json(result.stdout)[0]).toMatchObject({
      allowed: false,
      fetch: { status: 503, outcome: 'disallow-all' },
      policy: { mode: 'disallow-all', reason: 'unreachable' },
      problem: expect.stringContaining('server error (HTTP 503) (Google stops crawling'),
    });
    const text = await run(['check', `${down.origin}/anything`]);
    expect(text.stdout).toContain('  rule     none: the whole site is disallowed');
  });

  it('follows robots.txt redirects and says so', async () => {
    const moved = await sites.serve({
      '/robots.txt': { status: 301, headers: { location: '/files/robots.txt' } },
      '/files/robots.txt': { body: 'User-agent: *\nDisallow: /\n' },
    });
    const result = await run(['check', `${moved.origin}/a`]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `  robots   ${moved.origin}/robots.txt via 1 redirect(s) to ${moved.origin}/files/robots.txt: HTTP 200, 26 bytes`,
    );
    expect(result.stdout).toContain('  rule     line 2: Disallow: /');
  });

  it('flags an HTML page served as robots.txt', async () => {
    const result = await run(['check', `${html.origin}/`]);
    expect(result.stdout).toContain('the file is an HTML page');
  });

  it('exits 1 (blocked, as Google treats it) with one line on stderr when the robots.txt does not answer in time', async () => {
    const result = await run(['check', '--timeout', '0.3', `${silent.origin}/a`, `${silent.origin}/b`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `robotskit: cannot fetch '${silent.origin}/robots.txt': no response within 0.3 s (until it can be, Google treats every URL there as disallowed)\n`,
    );
    expect(result.stdout).toContain(`BLOCKED  ${silent.origin}/a`);
    expect(result.stdout).toContain('  policy   disallow-all:');
  });

  it('exits 1 with one line on stderr when the robots.txt answer breaks off in its body', async () => {
    const reset = await sites.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('User-agent: *\n', () => setTimeout(() => res.socket?.resetAndDestroy(), 20));
    });
    const stalled = await sites.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('User-agent: *\n');
    });
    const result = await run(['check', '--timeout', '0.3', `${reset.origin}/a`, `${stalled.origin}/b`]);
    expect(result.code).toBe(1);
    const lines = result.stderr.split('\n');
    expect(lines).toHaveLength(3);
    // How the reset is worded depends on what the client read before it (a reset, or a body shorter than announced).
    expect(lines[0]).toMatch(
      new RegExp(
        `^robotskit: cannot fetch '${reset.origin}/robots.txt': [^\\n]+ \\(until it can be, Google treats every URL there as disallowed\\)$`,
      ),
    );
    expect(lines[1]).toBe(
      `robotskit: cannot fetch '${stalled.origin}/robots.txt': no complete response within 0.3 s (until it can be, Google treats every URL there as disallowed)`,
    );
    expect(lines[2]).toBe('');
    expect(result.stdout).toContain(`BLOCKED  ${reset.origin}/a`);
    expect(result.stdout).toMatch(
      /\(latest: HTTP 200, then (connection reset by the server|connection closed by the server|invalid HTTP response)\): crawling stops for the first 12 h/,
    );
    expect(result.stdout).toContain('(latest: HTTP 200, then the response stalled): crawling stops for the first 12 h');
  });

  it('exits 1 (blocked) when nothing listens, from the real executable, without a stack trace', async () => {
    const closed = await sites.closedOrigin();
    const result = await spawn(['check', '--json', `${closed}/x`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `robotskit: cannot fetch '${closed}/robots.txt': connection refused (until it can be, Google treats every URL there as disallowed)\n`,
    );
    expect(json(result.stdout)[0]).toMatchObject({
      allowed: false,
      fetch: { status: null, error: { kind: 'connect' } },
    });
  });

  it('says what a TLS failure or a port the fetch refuses means, in words', async () => {
    const tls = await run(['check', `${rules.origin.replace('http:', 'https:')}/a`]);
    expect(tls.code).toBe(1);
    expect(tls.stderr).toBe(
      `robotskit: cannot fetch '${rules.origin.replace('http:', 'https:')}/robots.txt': TLS failure: the server does not speak TLS on this port (plain http?) (until it can be, Google treats every URL there as disallowed)\n`,
    );
    const blocked = await run(['check', 'http://127.0.0.1:6000/a']);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toBe(
      "robotskit: cannot fetch 'http://127.0.0.1:6000/robots.txt': port 6000 is one the fetch standard blocks, so robotskit's fetch refuses it (until it can be, Google treats every URL there as disallowed)\n",
    );
  });

  it('says which crawler it used when --ua is a User-Agent string or has spaces around it', async () => {
    const ua = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    const full = await run(['check', '--ua', ua, `${rules.origin}/g/x`]);
    expect(full.code).toBe(1);
    expect(full.stderr).toBe(
      `robotskit: --ua: used 'Googlebot' for '${ua}': the crawler this User-Agent string names (robots.txt groups are matched by product token)\n`,
    );
    expect(full.stdout).toContain('for Googlebot (profile: Googlebot)');
    const spaced = await run(['check', '--json', '--ua', ' SomeBot ', `${rules.origin}/private/x`]);
    expect(json(spaced.stdout)[0]).toMatchObject({
      crawler: 'SomeBot',
      crawlerRewrites: ["used 'SomeBot' for ' SomeBot ': surrounding whitespace removed"],
    });
    const plain = await run(['check', '--json', '--ua', 'SomeBot', `${rules.origin}/private/x`]);
    expect(plain.stderr).toBe('');
    expect(json(plain.stdout)[0]!.crawlerRewrites).toEqual([]);
  });

  it('rejects bad arguments with exit 2 before fetching anything', async () => {
    const before = rules.requests.length;
    const bad = await run(['check', `${rules.origin}/a`, 'not a url']);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toBe("robotskit: invalid URL 'not a url': not a URL (one starts with https:// or http://)\n");
    expect((await run(['check', 'mailto:a@b.c'])).stderr).toMatch(/^robotskit: invalid URL 'mailto:a@b.c'/);
    expect((await run(['check', `${rules.origin}/a`, 'gopher://127.0.0.1/pub/file'])).stderr).toMatch(
      /^robotskit: invalid URL 'gopher:\/\/127\.0\.0\.1\/pub\/file': unsupported scheme "gopher:"/,
    );
    expect((await run(['check', '--timeout', '0', `${rules.origin}/`])).stderr).toBe(
      "robotskit: --timeout must be a positive number of seconds, not '0'\n",
    );
    expect((await run(['check', '--ua', ' , ', `${rules.origin}/`])).code).toBe(2);
    expect((await run(['check'])).code).toBe(2);
    expect(rules.requests.length).toBe(before);
  });
});

/**
 * `robotskit mcp` and the service's `/mcp` end to end, with the MCP SDK's own client: over stdio (the client spawns the
 * real executable) and over streamable HTTP (a real `robotskit serve`), against real origins on 127.0.0.1. One case
 * table goes through both surfaces and through the command line: each tool's answer is the command's `--json` for
 * the same inputs. Then what only the service does: the token, the SSRF guard, the stateless endpoint's other methods.
 */

import { type ChildProcess, spawn as spawnChild } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, tracked } from './cleanup.js';
import { BIN, plainEnv, serviceUrl, spawn } from './helpers.js';
import { type Site, Sites } from './sites.js';

const dir = tempDir('mcp');
const sites = new Sites();
let site: Site;

const ROBOTS = 'User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\nAllow: /open/\n';
const OLD = 'User-agent: *\nDisallow: /a/\n';
const NEW = 'User-agent: *\nDisallow: /a/\nDisallow: /b/\n';
const html = (head: string) => `<!doctype html><html><head><title>t</title>${head}</head><body>hi</body></html>`;

beforeAll(async () => {
  site = await sites.start((req, res) => {
    const ua = String(req.headers['user-agent'] ?? '');
    if (req.url === '/robots.txt') {
      // Another file for ClaudeBot's User-Agent: cloaking.
      const body = ua.includes('ClaudeBot') ? 'User-agent: *\nDisallow:\n' : ROBOTS;
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    }
    // The edge refuses GPTBot's User-Agent, whatever the file says.
    if (ua.includes('GPTBot')) return void res.writeHead(403, { 'content-type': 'text/plain' }).end('forbidden');
    if (req.url === '/noindex') {
      return void res.writeHead(200, { 'content-type': 'text/html', 'x-robots-tag': 'noindex' }).end(html(''));
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(html('<meta name="robots" content="nofollow">'));
  });
  writeFileSync(join(dir, 'old.txt'), OLD);
  writeFileSync(join(dir, 'new.txt'), NEW);
});

afterAll(() => sites.closeAll());

/** One question asked through a tool, and through the command line. */
interface Case {
  readonly name: string;
  readonly tool: string;
  readonly args: () => Record<string, unknown>;
  readonly argv: () => string[];
  readonly stdin?: string;
}

const CASES: readonly Case[] = [
  {
    name: 'check: blocked and allowed URLs of a live robots.txt',
    tool: 'check',
    args: () => ({ urls: [`${site.origin}/private/x`, `${site.origin}/open/y`], crawler: 'GPTBot' }),
    argv: () => ['check', `${site.origin}/private/x`, `${site.origin}/open/y`, '--ua', 'GPTBot', '--json'],
  },
  {
    name: 'check: the default crawler',
    tool: 'check',
    args: () => ({ urls: [`${site.origin}/private/x`] }),
    argv: () => ['check', `${site.origin}/private/x`, '--json'],
  },
  {
    name: 'explain: a text and a URL',
    tool: 'explain',
    args: () => ({ robotsTxt: ROBOTS, url: '/open/page', crawler: 'GPTBot' }),
    argv: () => ['explain', '-', '/open/page', '--ua', 'GPTBot', '--json'],
    stdin: ROBOTS,
  },
  {
    name: 'explain: a User-Agent string, rewritten to its crawler',
    tool: 'explain',
    args: () => ({
      robotsTxt: ROBOTS,
      url: 'https://e.invalid/private/',
      crawler: 'Mozilla/5.0 (compatible; GPTBot/1.1)',
    }),
    argv: () => [
      'explain',
      '-',
      'https://e.invalid/private/',
      '--ua',
      'Mozilla/5.0 (compatible; GPTBot/1.1)',
      '--json',
    ],
    stdin: ROBOTS,
  },
  {
    name: 'lint: a text',
    tool: 'lint',
    args: () => ({ robotsTxt: 'User-agent: *\nAlow: /x\nCrawl-delay: soon\n' }),
    argv: () => ['lint', '-', '--json'],
    stdin: 'User-agent: *\nAlow: /x\nCrawl-delay: soon\n',
  },
  {
    name: 'lint: the robots.txt of a URL',
    tool: 'lint',
    args: () => ({ url: `${site.origin}/some/page` }),
    argv: () => ['lint', `${site.origin}/some/page`, '--json'],
  },
  {
    name: 'diff: two texts',
    tool: 'diff',
    args: () => ({ before: OLD, after: NEW, crawlers: ['Googlebot', 'GPTBot', '*'] }),
    argv: () => ['diff', join(dir, 'old.txt'), join(dir, 'new.txt'), '--ua', 'Googlebot,GPTBot,*', '--json'],
  },
  {
    name: 'audit: a page with X-Robots-Tag',
    tool: 'audit',
    args: () => ({ url: `${site.origin}/noindex` }),
    argv: () => ['audit', `${site.origin}/noindex`, '--json'],
  },
  {
    name: 'audit as crawlers: 403 to GPTBot, another robots.txt to ClaudeBot',
    tool: 'audit',
    args: () => ({ url: `${site.origin}/open/page`, as: ['GPTBot', 'Googlebot', 'ClaudeBot'] }),
    argv: () => ['audit', `${site.origin}/open/page`, '--as', 'GPTBot,Googlebot,ClaudeBot', '--json'],
  },
];

/**
 * Timings, when robots.txt was fetched (the tools fetch it once and answer from their cache, the command each run),
 * and who robotskit says it is (the command's User-Agent, the service's) are not answers.
 */
function comparable(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v) => {
    if (key === 'ms') return 0;
    if (key === 'file' && (v === '<stdin>' || v === '<input>')) return '<text>';
    if (typeof v === 'string') return v.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, '<time>');
    if (key === 'baseline' && typeof v === 'object' && v !== null) return { ...v, userAgent: 'robotskit' };
    return v;
  });
}

/** The command's `--json` for a case, as a process. */
async function cliAnswer(c: Case): Promise<unknown> {
  const result = await spawn(c.argv(), c.stdin);
  expect(result.code, result.stderr).toBeLessThan(2);
  return JSON.parse(result.stdout);
}

/** A tool's answer: the JSON text it returns. */
async function toolAnswer(client: Client, c: Case): Promise<unknown> {
  const result = await client.callTool({ name: c.tool, arguments: c.args() });
  expect(result.isError ?? false).toBe(false);
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  return JSON.parse(content[0]!.text);
}

const TOOLS = ['audit', 'check', 'diff', 'explain', 'lint'];

/** What every surface must do: the tools listed, each case answered as the command answers it, errors as tool errors. */
function surfaceTests(connect: () => Client) {
  it('lists the tools, each with an input schema', async () => {
    const { tools } = await connect().listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.description).toBeTruthy();
    }
  });

  it.each(CASES)('$name: the same answer as the command', async (c) => {
    const [fromTool, fromCli] = await Promise.all([toolAnswer(connect(), c), cliAnswer(c)]);
    expect(comparable(fromTool)).toEqual(comparable(fromCli));
  });

  it('check answers from its cache: robots.txt is fetched once for many calls', async () => {
    const robotsFetches = () => site.requests.filter((r) => r === '/robots.txt').length;
    const ask = () => connect().callTool({ name: 'check', arguments: { urls: [`${site.origin}/cached/x`] } });
    await ask();
    const before = robotsFetches();
    for (let i = 0; i < 3; i++) expect((await ask()).isError ?? false).toBe(false);
    expect(robotsFetches()).toBe(before);
  });

  it('audit as crawlers finds the 403 to GPTBot and the other robots.txt served to ClaudeBot', async () => {
    const doc = (await toolAnswer(connect(), CASES.at(-1)!)) as {
      crawlers: { crawler: string; allowed: boolean; findings: { kind: string }[] }[];
      disagreements: number;
    };
    expect(doc.crawlers.map((c) => [c.crawler, c.allowed, c.findings.map((f) => f.kind)])).toEqual([
      ['GPTBot', true, ['edge-refuses']],
      ['Googlebot', true, []],
      ['ClaudeBot', true, ['robots-differs']],
    ]);
    expect(doc.disagreements).toBe(2);
  });

  it('says a user mistake as a tool error in the command words, and a bad input as the SDK does, never crashing', async () => {
    const client = connect();
    const notUrl = await client.callTool({ name: 'explain', arguments: { robotsTxt: ROBOTS, url: 'notaurl' } });
    expect(notUrl.isError).toBe(true);
    const cli = await spawn(['explain', '-', 'notaurl'], ROBOTS);
    expect(cli.stderr).toBe(`robotskit: ${(notUrl.content as { text: string }[])[0]!.text}\n`);
    const both = await client.callTool({ name: 'lint', arguments: { robotsTxt: 'x', url: 'https://e.invalid/' } });
    expect(both).toMatchObject({ isError: true, content: [{ text: 'give robotsTxt or url, not both' }] });
    const scheme = await client.callTool({ name: 'audit', arguments: { url: 'ftp://127.0.0.1/x' } });
    expect(scheme).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('only http and https') }],
    });
    const empty = await client.callTool({ name: 'check', arguments: { urls: [] } });
    expect(empty.isError).toBe(true);
    expect((empty.content as { text: string }[])[0]!.text).toMatch(/urls/);
    const unknown = await client.callTool({ name: 'check', arguments: { urls: 'not a list' } });
    expect(unknown.isError).toBe(true);
    // Still answering after all that.
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
  });
}

describe('robotskit mcp over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'robotskit-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp'],
        env: plainEnv() as Record<string, string>,
        stderr: 'pipe',
      }),
    );
  });
  afterAll(() => client.close());
  surfaceTests(() => client);

  it('says a line that is not JSON-RPC on standard error, in one line, and answers the next', async () => {
    const child = tracked(
      spawnChild(process.execPath, [BIN, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'], env: plainEnv() }),
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) child.stdin.end();
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.write('not json\n');
    child.stdin.write('{"jsonrpc":"2.0","id":7,"method":"tools/none"}\n');
    expect(await exit).toBe(0);
    expect(err).toMatch(/^robotskit: mcp: [^\n]+\n$/);
    expect(JSON.parse(out)).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32601 } });
  });

  it('answers requests piped in, even when the input ends before the robots.txt they need has come', async () => {
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'check', arguments: { urls: [`${site.origin}/private/piped`] } },
      },
    ];
    const result = await spawn(['mcp'], lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const answers = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; result: { content: { text: string }[] } });
    expect(answers.map((a) => a.id)).toEqual([1, 2]);
    expect(JSON.parse(answers[1]!.result.content[0]!.text)).toMatchObject([{ allowed: false, line: 2 }]);
  });

  it('ends with exit status 0 when its input ends', async () => {
    const child = tracked(
      spawnChild(process.execPath, [BIN, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'], env: plainEnv() }),
    );
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.end();
    expect(await exit).toBe(0);
  });
});

/** The serve processes started here, stopped at the end whatever happened (they outlive single tests). */
const serves: ChildProcess[] = [];
afterAll(() => {
  for (const child of serves) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** `robotskit serve` as a child, and its URL. */
async function startServe(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnChild(process.execPath, [BIN, 'serve', '--port', '0', '--workers', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: plainEnv(),
  });
  serves.push(child);
  return { child, url: await serviceUrl(child) };
}

async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exit = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  await exit;
}

async function httpClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'robotskit-test', version: '1.0.0' });
  const requestInit = token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit }));
  return client;
}

describe('/mcp under robotskit serve (streamable HTTP)', () => {
  let serve: { child: ChildProcess; url: string };
  let client: Client;
  beforeAll(async () => {
    serve = await startServe(['--db', join(dir, 'open.sqlite'), '--allow-private-addresses']);
    client = await httpClient(serve.url);
  });
  afterAll(async () => {
    await client.close();
    await stopServe(serve.child);
  });
  surfaceTests(() => client);

  it('is stateless: GET and DELETE are 405, with the API error shape', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${serve.url}/mcp`, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({ error: { code: 'method-not-allowed' } });
    }
  });
});

describe('/mcp behind the service checks', () => {
  it('needs the token when the service has one', async () => {
    const token = 'secret-token-123';
    const serve = await startServe(['--db', join(dir, 'token.sqlite'), '--token', token, '--allow-private-addresses']);
    try {
      await expect(httpClient(serve.url)).rejects.toThrow(/unauthorized/);
      const wrong = await fetch(`${serve.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer wrong-token-000' },
        body: '{}',
      });
      expect(wrong.status).toBe(401);
      const client = await httpClient(serve.url, token);
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(TOOLS.length);
      await client.close();
    } finally {
      await stopServe(serve.child);
    }
  });

  it('fetches through the SSRF guard: loopback is refused without --allow-private-addresses', async () => {
    const serve = await startServe(['--db', join(dir, 'guarded.sqlite')]);
    const before = site.requests.length;
    try {
      const client = await httpClient(serve.url);
      const checked = await client.callTool({ name: 'check', arguments: { urls: [`${site.origin}/open/x`] } });
      const [verdict] = JSON.parse((checked.content as { text: string }[])[0]!.text) as {
        allowed: boolean;
        fetch: { error: { kind: string } | null };
      }[];
      // Refused by the guard: disallow-all, never fail open.
      expect(verdict).toMatchObject({ allowed: false, fetch: { error: { kind: 'blocked' } } });
      const audited = await client.callTool({ name: 'audit', arguments: { url: `${site.origin}/open/x` } });
      const doc = JSON.parse((audited.content as { text: string }[])[0]!.text) as { page: unknown; crawlable: boolean };
      expect(doc).toMatchObject({ page: null, crawlable: false });
      const as = await client.callTool({ name: 'audit', arguments: { url: `${site.origin}/open/x`, as: ['GPTBot'] } });
      const access = JSON.parse((as.content as { text: string }[])[0]!.text) as {
        baseline: { page: { status: number | null; error: string | null } };
        crawlers: { freshness: { state: string; fresh: { status: number | null; problem: string | null } } }[];
      };
      expect(access.baseline.page.status).toBeNull();
      expect(access.baseline.page.error).toMatch(/127\.0\.0\.1/);
      // The no-cache fetch that looks for a CDN's older copy goes through the guard too.
      expect(access.crawlers[0]!.freshness).toMatchObject({ state: 'unchecked', fresh: { status: null } });
      expect(access.crawlers[0]!.freshness.fresh.problem).toMatch(/127\.0\.0\.1|refused|private/i);
      await client.close();
      // Not one request reached the origin.
      expect(site.requests.length).toBe(before);
    } finally {
      await stopServe(serve.child);
    }
  });
});

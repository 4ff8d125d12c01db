/**
 * The MCP server's tools (the official MCP TypeScript SDK's `McpServer`), each answering with the same JSON as the
 * command's `--json`, from the same code (`../answers/`, `../crawl/`): `check` (may this crawler fetch these URLs:
 * robots.txt fetched with Google's rules and cached by the engine's crawl client, one client per server so answers
 * are reused across calls), `explain`, `lint`, `diff` and `audit` (with `as`: the access each crawler gets from the
 * edge). Inputs are checked by the tools' schemas (the SDK answers a bad one with a tool error); a user mistake the
 * answers find (not a URL, no crawler named) is a tool error in the command's words, never a crash.
 */

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CrawlerProfile } from 'robotskit';
import type { RobotsClient } from 'robotskit/fetch';
import { z } from 'zod';
import { accessAnswer, asCrawlers, MAX_AS_CRAWLERS } from '../answers/access.js';
import { auditAnswer, auditTarget } from '../answers/audit.js';
import { diffAnswer } from '../answers/diff.js';
import { explainAnswer } from '../answers/explain.js';
import { fetchForLint, lintJson } from '../answers/lint.js';
import { crawlClient } from '../crawl/client.js';
import type { Network } from '../crawl/network.js';
import { checkUrl } from '../crawl/verdict.js';
import { CliError } from '../io.js';
import { DEFAULT_CRAWLER } from '../options/choices.js';
import { crawlerOfUa } from '../options/ua.js';
import { checkUrlArgument } from '../options/url.js';

/** URLs one `check` call may ask about. */
const MAX_CHECK_URLS = 100;
/** Characters of one robots.txt a tool takes (Google parses 500 KiB; the linter says when a file is longer). */
const MAX_ROBOTS_CHARS = 1_000_000;

/** What every server built by {@link buildMcpServer} shares: the network, the crawl client (its cache), the limits. */
export interface ToolContext {
  readonly network: Network;
  readonly client: RobotsClient;
  readonly timeoutMs: number;
  readonly version: string;
  /** The calls being answered, so a server whose input ended can finish them before it stops. */
  readonly calls: Set<Promise<unknown>>;
  /** The catalogue crawler names are read in (with the list `crawlers update` merged, when there is one). */
  readonly catalogue: readonly CrawlerProfile[] | undefined;
}

/** The shared part of the servers: one crawl client, so a robots.txt fetched for one call serves the next. */
export function toolContext(
  network: Network,
  timeoutMs: number,
  version: string,
  catalogue?: readonly CrawlerProfile[],
): ToolContext {
  const client = crawlClient(crawlerOfUa(DEFAULT_CRAWLER), timeoutMs, version, { network });
  return { network, client, timeoutMs, version, calls: new Set(), catalogue };
}

const crawlerField = z
  .string()
  .max(2000)
  .optional()
  .describe(
    `a crawler of the catalogue (GPTBot, Googlebot-Image), product token(s) or a User-Agent string; default ${DEFAULT_CRAWLER}`,
  );
const robotsField = z.string().max(MAX_ROBOTS_CHARS);

/** A tool's answer: the command's JSON, as `--json` prints it. */
function json(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** Runs a tool; a user mistake becomes a tool error in the command's words. */
async function answerNow(run: () => Promise<string> | string): Promise<CallToolResult> {
  try {
    return json(await run());
  } catch (error) {
    if (error instanceof CliError) return { isError: true, content: [{ type: 'text', text: error.message }] };
    throw error;
  }
}

/** The calls of `context` being answered, each counted until it settles. */
function answering(context: ToolContext) {
  return (run: () => Promise<string> | string): Promise<CallToolResult> => {
    const call = answerNow(run);
    context.calls.add(call);
    const done = () => context.calls.delete(call);
    call.then(done, done);
    return call;
  };
}

/** Waits for the calls being answered (their answers then go out). */
export async function callsSettled(context: ToolContext): Promise<void> {
  while (context.calls.size > 0) await Promise.allSettled([...context.calls]);
}

const utf8 = (text: string) => new TextEncoder().encode(text);

function registerFileTools(server: McpServer, context: ToolContext): void {
  const answer = answering(context);
  const { catalogue } = context;
  server.registerTool(
    'explain',
    {
      title: 'Explain a verdict',
      description:
        'Decide one URL for a crawler on the given robots.txt text, exactly as Google’s parser reads it: the verdict, the groups that applied and the deciding line (as robotskit explain --json).',
      inputSchema: {
        robotsTxt: robotsField.describe('the robots.txt text'),
        url: z.string().max(8192).describe('the URL (https://…) or path (/…) to decide'),
        crawler: crawlerField,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ robotsTxt, url, crawler }) =>
      answer(() => JSON.stringify(explainAnswer(utf8(robotsTxt), url, crawlerOfUa(crawler, catalogue)).doc, null, 2)),
  );
  server.registerTool(
    'diff',
    {
      title: 'What an edit changes',
      description:
        'Compare two robots.txt texts by meaning: for each crawler, the exact regions of paths decided differently, with a shortest example and the deciding lines before and after (as robotskit diff --json).',
      inputSchema: {
        before: robotsField.describe('the robots.txt before the edit'),
        after: robotsField.describe('the robots.txt after the edit'),
        crawlers: z
          .array(z.string().min(1).max(200))
          .min(1)
          .max(200)
          .optional()
          .describe('crawlers of the catalogue or product tokens, * for any other; default: all the files concern'),
        maxStates: z.number().int().min(1).max(10_000_000).optional().describe('states to explore per crawler'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ before, after, crawlers, maxStates }) =>
      answer(() =>
        JSON.stringify(diffAnswer(utf8(before), utf8(after), { crawlers, maxStates, catalogue }).diff, null, 2),
      ),
  );
}

function registerNetworkTools(server: McpServer, context: ToolContext): void {
  const { network, client, timeoutMs, version, catalogue } = context;
  const answer = answering(context);
  server.registerTool(
    'check',
    {
      title: 'May this crawler fetch these URLs?',
      description:
        'Fetch the robots.txt that governs each URL (with Google’s rules: redirects, status codes, size limit, cached per its lifetime) and say whether the crawler may fetch it, the deciding line, how the fetch went and the policy in force (as robotskit check --json).',
      inputSchema: {
        urls: z.array(z.string().min(1).max(8192)).min(1).max(MAX_CHECK_URLS).describe('page URLs, any mix of sites'),
        crawler: crawlerField,
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ urls, crawler }) =>
      answer(async () => {
        const named = crawlerOfUa(crawler, catalogue);
        for (const url of urls) checkUrlArgument(url);
        const checked = await Promise.all(urls.map((url) => checkUrl(client, url, named, timeoutMs)));
        return JSON.stringify(
          checked.map((c) => c.result),
          null,
          2,
        );
      }),
  );
  server.registerTool(
    'lint',
    {
      title: 'Lint a robots.txt',
      description:
        'Every problem of a robots.txt as Google’s parser reads it (lines it cannot use, what it reads differently than meant, useful facts), for the given text or the robots.txt of a URL (as robotskit lint --json).',
      inputSchema: {
        robotsTxt: robotsField.optional().describe('the robots.txt text (give this or url)'),
        url: z.string().max(8192).optional().describe('a URL of the site whose robots.txt to fetch and lint'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ robotsTxt, url }) =>
      answer(async () => {
        if ((robotsTxt === undefined) === (url === undefined)) throw new CliError('give robotsTxt or url, not both');
        if (robotsTxt !== undefined) return lintJson('<input>', utf8(robotsTxt));
        const fetched = await fetchForLint(url as string, timeoutMs, version, network);
        return lintJson(fetched.name, fetched.bytes, fetched.finalUrl);
      }),
  );
  server.registerTool(
    'audit',
    {
      title: 'Audit a page',
      description:
        'robots.txt, X-Robots-Tag and robots meta tags together: can the page be crawled, indexed, its links followed, and why (as robotskit audit --json). With as: fetch robots.txt and the page as each of those crawlers (their real User-Agent) and report where the edge disagrees with the file: a 401/402/403/429 or a challenge to a crawler the file allows, another robots.txt per User-Agent, a CDN’s cached copy older than the origin’s (as robotskit audit --as … --json).',
      inputSchema: {
        url: z.string().min(1).max(8192).describe('the page (http or https)'),
        crawler: crawlerField,
        as: z
          .array(z.string().min(1).max(2000))
          .min(1)
          .max(MAX_AS_CRAWLERS)
          .optional()
          .describe('crawlers to fetch as (GPTBot, Googlebot…)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    ({ url, crawler, as }) =>
      answer(async () => {
        if (as !== undefined) {
          if (crawler !== undefined) throw new CliError('as names the crawlers itself: give as or crawler, not both');
          const crawlers = asCrawlers(as.join(','), catalogue);
          const target = auditTarget(url);
          return JSON.stringify((await accessAnswer(target, crawlers, { network, timeoutMs, version })).doc, null, 2);
        }
        const named = crawlerOfUa(crawler, catalogue);
        const target = auditTarget(url);
        return JSON.stringify((await auditAnswer(target, named, { client, network, timeoutMs })).doc, null, 2);
      }),
  );
}

/** An MCP server with robotskit's tools, over the shared context. */
export function buildMcpServer(context: ToolContext): McpServer {
  const server = new McpServer(
    { name: 'robotskit', version: context.version },
    {
      instructions:
        'robots.txt exactly as Google’s reference parser reads it (RFC 9309): use check for whether a crawler may fetch a URL (live robots.txt), explain/lint/diff for robots.txt texts, audit for page-level controls and for what the edge does to each crawler.',
    },
  );
  registerFileTools(server, context);
  registerNetworkTools(server, context);
  return server;
}

/**
 * `runBatch` serialises each record from parts it keeps per policy and per deciding rule, and writes records complete
 * at once without a slot. Over generated files, statuses and URLs (an in-memory `fetch`, no network), read a line at a
 * time or several at once, its output must be exactly the plain serialisation: one `JSON.stringify` per line of the client's own verdict for it.
 */
import fc from 'fast-check';
import { RobotsUrlError } from 'robotskit';
import { createRobotsClient, describeFetchOutcome, type FetchLike, type FetchResponseLike } from 'robotskit/fetch';
import { describe, expect, it } from 'vitest';
import { runBatch } from '../src/batch/run.js';
import { crawlerOfUa } from '../src/options/ua.js';
import { retrievalOptions } from '../src/transport/retrieval.js';

const RULES = [
  'User-agent: *',
  'User-agent: Googlebot',
  'User-agent: robotskit',
  'Disallow: /a',
  'Disallow: /a/b',
  'Allow: /a/b/',
  'Allow: /dir/index.html',
  'Disallow: /dir/',
  'Disallow: /*.pdf$',
  'Allow: /*?q=',
  'Disallow: /',
  'Allow: /',
  'Disallow:',
];
// With a `\` in a query and in a fragment (which the parser keeps, and JSON escapes).
const PATHS = [
  '/',
  '/a',
  '/a/b',
  '/a/b/c',
  '/dir/',
  '/dir/index.html',
  '/dir/x',
  '/f.pdf',
  '/f.pdf?x',
  '/s?q=1',
  '/s?q=a\\b',
  '/z#a\\b',
  '/z',
];
/** Hosts, one with a `"` (which the parser keeps, and JSON escapes). */
const HOSTS = ['127.0.0.1', 'q"h.invalid'];

interface Site {
  readonly status: number;
  readonly body: string;
}

const sitesArb = fc.array(
  fc.record({
    status: fc.constantFrom(200, 200, 200, 404, 500, 503),
    body: fc.array(fc.constantFrom(...RULES), { maxLength: 12 }).map((lines) => lines.join('\n')),
  }),
  { minLength: 1, maxLength: 4 },
);

function fetchOf(sites: readonly Site[]): FetchLike {
  return async (url) => {
    const site = sites[Number(new URL(url).port) - 8000]!;
    const response: FetchResponseLike = {
      status: site.status,
      headers: new Headers({ 'content-type': 'text/plain' }),
      body: new Response(site.body).body,
    };
    return response;
  };
}

describe('batch records', () => {
  it('are the plain serialisation of the client verdicts, line for line', async () => {
    const input = (count: number) =>
      fc.array(
        fc.oneof(
          fc
            .tuple(fc.constantFrom(...HOSTS), fc.nat({ max: count - 1 }), fc.constantFrom(...PATHS))
            .map(([h, k, p]) => `http://${h}:${8000 + k}${p}`),
          fc.constantFrom('not a url', 'mailto:a@b.c', '# comment', ''),
        ),
        { maxLength: 80 },
      );
    await fc.assert(
      fc.asyncProperty(
        sitesArb.chain((sites) =>
          fc.tuple(
            fc.constant(sites),
            input(sites.length),
            fc.integer({ min: 1, max: 8 }),
            // Lines one at a time, or several at once (as the command reads them: every line of a chunk).
            fc.option(fc.integer({ min: 1, max: 9 })),
          ),
        ),
        async ([sites, lines, window, together]) => {
          const fetch = fetchOf(sites);
          let out = '';
          await runBatch({
            lines: (async function* () {
              if (together === null) yield* lines;
              else for (let at = 0; at < lines.length; at += together) yield lines.slice(at, at + together);
            })(),
            write: (chunk) => {
              out += chunk;
            },
            crawler: 'Googlebot',
            fetch,
            window,
            perOrigin: Math.max(1, window >> 1),
          });
          // The plain way: a client of its own, one verdict and one JSON.stringify per line.
          const crawler = crawlerOfUa('Googlebot');
          const { userAgent, ...retrieval } = retrievalOptions(10_000, '0');
          const client = createRobotsClient({ userAgent: userAgent!, crawler: crawler.input, retrieval, fetch });
          let expected = '';
          for (const [k, raw] of lines.entries()) {
            const text = raw.trim();
            if (text === '' || text.startsWith('#')) continue;
            const index = k + 1;
            let v: Awaited<ReturnType<typeof client.explain>>;
            try {
              v = await client.explain(text, crawler.input);
            } catch (error) {
              if (!(error instanceof RobotsUrlError)) throw error;
              expected += `${JSON.stringify({ index, url: text, error: { kind: 'invalid-url' } })}\n`;
              continue;
            }
            const latest = v.latest;
            expected += `${JSON.stringify({
              index,
              url: v.url,
              allowed: v.allowed,
              line: v.line,
              rule: v.rule === null ? null : { kind: v.rule.kind, pattern: v.rule.pattern },
              robotsUrl: v.robotsUrl,
              fetch: {
                status: latest.status,
                outcome: latest.outcome,
                error:
                  latest.error === null
                    ? null
                    : { kind: latest.error.kind, message: describeFetchOutcome(latest, { timeoutMs: 10_000 }).summary },
              },
              policy: { mode: v.policy.mode, reason: v.policy.reason },
            })}\n`;
          }
          // Error records carry the engine's message; compare them without it.
          const withoutMessages = (s: string) => s.replace(/,"message":"(?:[^"\\]|\\.)*"\}\}\n/g, '}}\n');
          expect(withoutMessages(out)).toBe(withoutMessages(expected));
        },
      ),
      { numRuns: 200 },
    );
  });
});

/**
 * A stored version's AI use (`GET /api/versions/:id/ai-use`) through the real service on SQLite: a worker fetches a
 * robots.txt from a real HTTP server on 127.0.0.1, first a Cloudflare-managed-style file (Content-Signal in the `*`
 * group, AI crawlers and control tokens blocked by name), then the attach draft's example with Content-Usage rules;
 * the section says, per purpose, what the catalogue's crawlers get and which preferences apply with their lines, in
 * exactly the engine's words (`aiUse` on the same bytes).
 */

import type { LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { parseRobotsTxt } from 'robotskit';
import { aiUse } from 'robotskit/semantics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VersionAiUseJson } from '../src/http/api-types.js';
import { buildApp } from '../src/http/app.js';
import { parsePropertyInput } from '../src/http/property-input.js';
import { createGuardedFetch, type GuardedFetch } from '../src/net/guarded-fetch.js';
import { type Database, openDatabase } from '../src/storage/connect.js';
import { createProperty } from '../src/storage/properties.js';
import { workerRetrieval } from '../src/worker/retrieval.js';
import { Worker } from '../src/worker/worker.js';
import { testDatabases } from './databases.js';
import { ManualClock } from './helpers.js';
import { type LocalOrigin, startOrigin } from './origins.js';

const DAY = 24 * 60 * 60_000;

/** A resolver that knows no name: the origin is reached by address. */
const noNames = ((_host: string, _options: unknown, callback: (error: NodeJS.ErrnoException) => void) => {
  const error: NodeJS.ErrnoException = new Error('no such name');
  error.code = 'ENOTFOUND';
  callback(error);
}) as unknown as LookupFunction;

/** As Cloudflare's managed robots.txt writes it (its comment block shortened). */
const CLOUDFLARE = `# As a condition of accessing this website, you agree to abide by the following content signals:
# search, ai-input, ai-train (see https://contentsignals.org)
User-agent: *
Content-Signal: search=yes,ai-train=no
Allow: /

User-agent: Amazonbot
Disallow: /

User-agent: Applebot-Extended
Disallow: /

User-agent: CCBot
Disallow: /

User-agent: ClaudeBot
Disallow: /

User-agent: Google-Extended
Disallow: /

User-agent: GPTBot
Disallow: /
`;

/** The attach draft's example, with a group of GPTBot's own that keeps /private/ out and says more under /blog/. */
const ATTACH = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: / train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: / train-ai=y

User-Agent: GPTBot
Disallow: /private/
Content-Usage: /blog/ train-ai=n, search=y
Content-Usage: /private/ train-ai=y
`;

type Use = NonNullable<VersionAiUseJson['aiUse']>;

/** The set of `purpose` that holds `crawler`. */
function setOf(use: Use, purpose: string, crawler: string) {
  const set = use.purposes.find((p) => p.purpose === purpose)?.sets.find((s) => s.crawlers.includes(crawler));
  if (set === undefined) throw new Error(`no set of ${purpose} holds ${crawler}`);
  return set;
}

describe('a version’s AI use on the API (SQLite)', () => {
  const target = testDatabases[0]!;
  let database: Database;
  let fetch: GuardedFetch;
  let app: FastifyInstance;
  let worker: Worker;
  let origin: LocalOrigin;
  let fileId: number;
  const clock = new ManualClock(100 * DAY);

  beforeAll(async () => {
    database = await openDatabase(target.config());
    fetch = createGuardedFetch({ allowPrivate: true, lookup: noNames });
    worker = new Worker({
      db: database.db,
      dialect: database.dialect,
      retrieve: workerRetrieval(fetch, clock.now),
      now: clock.now,
    });
    app = await buildApp({ database, now: clock.now, fetch, webRoot: false });
    origin = await startOrigin({ status: 200, body: CLOUDFLARE });
    const property = await createProperty(
      database.db,
      database.dialect,
      parsePropertyInput(`${origin.url}/`),
      clock.now(),
    );
    const files = await app.inject({ method: 'GET', url: `/api/properties/${property.id}/files` });
    fileId = (files.json() as { files: { id: number }[] }).files[0]!.id;
  });
  afterAll(async () => {
    await app?.close();
    await fetch?.close();
    await origin?.close();
    await database?.close();
    await target.cleanup();
  });

  /** Fetches the file now and answers the AI use of its newest version. */
  async function fetchAndRead(): Promise<VersionAiUseJson> {
    clock.advance(DAY);
    await database.db.updateTable('robots_files').set({ next_fetch_at: clock.now() }).execute();
    expect(await worker.runUntilIdle()).toBe(1);
    const versions = (await app.inject({ method: 'GET', url: `/api/files/${fileId}/versions` })).json() as {
      versions: { id: number }[];
    };
    const newest = Math.max(...versions.versions.map((v) => v.id));
    const reply = await app.inject({ method: 'GET', url: `/api/versions/${newest}/ai-use` });
    expect(reply.statusCode, reply.body).toBe(200);
    return reply.json<VersionAiUseJson>();
  }

  it('says what a Cloudflare-managed file gives each purpose, and its Content-Signal', async () => {
    const answer = await fetchAndRead();
    expect(answer.outcome).toBe('rules');
    const use = answer.aiUse!;
    // The service says exactly what the engine says of the same bytes.
    expect(use).toEqual(JSON.parse(JSON.stringify(aiUse(parseRobotsTxt(CLOUDFLARE)))));
    expect(use.statesPreferences).toBe(true);
    expect(use.purposes.map((p) => p.purpose)).toEqual([
      'ai-training',
      'ai-search',
      'ai-assistant',
      'control-token',
      'search-engine',
    ]);
    const training = use.purposes[0]!;
    expect(training.label).toBe('AI training');
    expect(training.blocked).toBe(4);
    expect(training.text).toBe(
      `AI training: ${training.crawlers} crawlers: 4 blocked, ${training.crawlers - 4} allowed`,
    );

    const gpt = setOf(use, 'ai-training', 'GPTBot');
    expect(gpt).toMatchObject({ crawlers: ['GPTBot'], access: 'nothing', match: 'specific', groupLines: [22] });
    expect(gpt.text).toBe('blocked: every URL (line 23)');
    expect(gpt.statements).toEqual([]);

    // Every other AI crawler follows the * group: allowed, with the signal's preferences carried over.
    const others = setOf(use, 'ai-search', 'OAI-SearchBot');
    expect(others).toMatchObject({ access: 'everything', match: 'global', groupLines: [3] });
    expect(others.text).toBe('allowed: no rule blocks any URL');
    expect(others.statements.map((s) => s.text)).toEqual([
      'Search (search): allowed (Content-Signal search=yes, ai-train=no, line 4)',
      'AI Training (train-ai): disallowed (Content-Signal search=yes, ai-train=no, line 4)',
    ]);

    // Control tokens: what their groups ask of the uses they govern, with the deciding line.
    expect(setOf(use, 'control-token', 'Google-Extended').statements.map((s) => s.text)).toEqual([
      "training (Google-Extended, on what Google's crawlers fetch): disallowed for every URL (line 20)",
      "grounding (Google-Extended, on what Google's crawlers fetch): disallowed for every URL (line 20)",
    ]);
    expect(setOf(use, 'control-token', 'Applebot-Extended').statements.map((s) => s.text)).toEqual([
      "training (Applebot-Extended, on what Apple's crawlers fetch): disallowed for every URL (line 11)",
    ]);
    expect(setOf(use, 'search-engine', 'Googlebot').access).toBe('everything');
  });

  it('names the deciding Content-Usage lines of the attach draft, path by path, and the rules they cannot reach', async () => {
    origin.answer = { status: 200, body: ATTACH };
    const use = (await fetchAndRead()).aiUse!;
    expect(use).toEqual(JSON.parse(JSON.stringify(aiUse(parseRobotsTxt(ATTACH)))));
    // A crawler of the * group: /never/ kept out; train-ai disallowed from /, allowed under /ai-ok/.
    const star = setOf(use, 'ai-training', 'ClaudeBot');
    expect(star.text).toBe('some paths blocked: /never/ (line 3)');
    expect(star.statements.map((s) => s.text)).toEqual([
      'AI Training (train-ai): disallowed for / (line 4)',
      'AI Training (train-ai): allowed for /ai-ok/ (line 5)',
    ]);
    // GPTBot's own group: its /private/ rule applies to nothing it may fetch.
    const gpt = setOf(use, 'ai-training', 'GPTBot');
    expect(gpt.crawlers).toEqual(['GPTBot']);
    expect(gpt.text).toBe('some paths blocked: /private/ (line 12)');
    expect(gpt.statements.map((s) => s.text)).toEqual([
      'Search (search): allowed for /blog/ (line 13)',
      'AI Training (train-ai): disallowed for /blog/ (line 13)',
    ]);
    expect(gpt.notes).toEqual(['line 14 does not apply: the crawler may not fetch /private/']);
    expect(gpt.statements.every((s) => s.source === 'content-usage')).toBe(true);
  });

  it('has nothing to say of a version without rules, and 404 for a version that does not exist', async () => {
    origin.answer = { status: 404, body: 'not here' };
    const answer = await fetchAndRead();
    expect(answer).toEqual({ versionId: answer.versionId, outcome: 'allow-all', aiUse: null });
    const missing = await app.inject({ method: 'GET', url: '/api/versions/999999/ai-use' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 'not-found', message: 'no version with id 999999' } });
    const bad = await app.inject({ method: 'GET', url: '/api/versions/x/ai-use' });
    expect(bad.statusCode).toBe(400);
  });
});

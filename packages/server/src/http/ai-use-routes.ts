/**
 * A stored version's AI use (`GET /api/versions/:id/ai-use`): what its rules give the catalogue's crawlers of each
 * purpose (AI training, AI search, user-triggered AI assistants, control tokens, search engines) and the AI usage
 * preferences that apply (`Content-Usage`, `Content-Signal`, control tokens), all in the engine's words (`aiUse` of
 * `robotskit/semantics`); the service parses the version's bytes and says what the engine answers. Kept per body
 * (a body never changes), bounded like the headlines, and computed in the analysis threads (a large file's answer
 * takes up to seconds: never on the event loop), so a pathological file cannot hold up the API.
 */

import type { AiUse } from 'robotskit/semantics';
import { Type } from 'typebox';
import type { ApiContext } from './context.js';
import { type Api, errors, IdParams, Nullable, Outcome } from './shapes.js';
import { versionOr404 } from './version-routes.js';
import { clientGone } from './work-limits.js';

const Statement = Type.Object({
  source: Type.Union([Type.Literal('content-usage'), Type.Literal('content-signal'), Type.Literal('control-token')]),
  category: Type.String({
    description: 'a vocabulary label (train-ai), content-signal:<key>, or a control token’s use (training)',
  }),
  value: Type.String({ description: 'allow, disallow, or a Content-Signal value as written' }),
  pattern: Nullable(Type.String({ description: 'where it applies; null: every URL the crawlers may fetch' })),
  lines: Type.Array(Type.Integer()),
  text: Type.String({ description: 'in the engine’s words: AI Training (train-ai): disallowed for /x (line 4)' }),
});

const AiUseSet = Type.Object({
  crawlers: Type.Array(Type.String(), { description: 'catalogue crawlers the file’s groups select alike' }),
  match: Type.Union([Type.Literal('specific'), Type.Literal('global'), Type.Literal('none')]),
  groupLines: Type.Array(Type.Integer(), { description: 'the first line of each group that applies' }),
  access: Type.Union([Type.Literal('nothing'), Type.Literal('everything'), Type.Literal('some')]),
  blocked: Type.Array(Type.Object({ pattern: Type.String(), line: Type.Integer() })),
  blockedTotal: Type.Integer(),
  complete: Type.Boolean(),
  statements: Type.Array(Statement),
  notes: Type.Array(Type.String()),
  text: Type.String({ description: 'the access in words' }),
});

const AiUsePurpose = Type.Object({
  purpose: Type.String({ description: 'the engine’s crawler purpose (ai-training, ai-search, …)' }),
  label: Type.String(),
  crawlers: Type.Integer(),
  blocked: Type.Integer(),
  allowed: Type.Integer(),
  some: Type.Integer(),
  sets: Type.Array(AiUseSet),
  text: Type.String(),
});

export const VersionAiUse = Type.Object({
  versionId: Type.Integer(),
  outcome: Outcome,
  aiUse: Nullable(
    Type.Object({
      purposes: Type.Array(AiUsePurpose),
      statesPreferences: Type.Boolean({ description: 'whether a group has a Content-Usage or Content-Signal line' }),
      complete: Type.Boolean(),
    }),
    { description: 'null when the version has no rules (not found, unreachable)' },
  ),
});

/** Per body hash: the answer (bodies never change). */
const known = new Map<string, AiUse>();
const KEPT = 64;
/** The bounds of one body's comparisons, as the headlines'. */
const MAX_STATES = 20_000;
const TIMEOUT_MS = 1_000;

/** Registers `GET /api/versions/:id/ai-use` on `api`. */
export function registerAiUseRoutes(api: Api, context: ApiContext): void {
  const schema = {
    summary: 'What a version gives the catalogue’s crawlers of each AI purpose, and the AI usage preferences',
    tags: ['files'],
    params: IdParams,
    response: { 200: VersionAiUse, ...errors(400, 404, 429) },
  };
  api.get('/api/versions/:id/ai-use', { schema }, async (request, reply) => {
    const row = await versionOr404(context, request.params.id);
    const base = { versionId: row.id, outcome: row.outcome };
    if (row.outcome !== 'rules' || row.content === null) return { ...base, aiUse: null };
    const hash = row.body_hash ?? '';
    let answer = known.get(hash);
    if (answer === undefined) {
      const bytes = row.content;
      answer = await context.heavyWork.run(
        'the AI use',
        () => context.analysisThreads.aiUse(bytes, { maxStates: MAX_STATES, timeoutMs: TIMEOUT_MS }),
        clientGone(reply),
      );
      if (row.body_hash !== null) {
        if (known.size >= KEPT) known.delete(known.keys().next().value as string);
        known.set(hash, answer);
      }
    }
    return { ...base, aiUse: answer as never };
  });
}

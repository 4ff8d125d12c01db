/**
 * The cross-surface contract (../../robotskit/test/contract/cases.ts), CLI runner: `robotskit test` (the name as
 * given, like Google's runner), `explain --ua` and `check --ua` against a local HTTP server (the name read by the
 * engine's resolveCrawler) must each give the engine's answer on the bytes: verdict and deciding line. The commands
 * run in-process (one parse per question, no process per case), and the real executable once per surface.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { productToken } from 'robotskit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_CASES, expectedAnswer } from '../../robotskit/test/contract/cases.js';
import { type CaseOrigins, serveCases } from '../../robotskit/test/contract/serve.js';
import type { CheckJson } from '../src/crawl/verdict.js';
import type { ExplainJson } from '../src/output/explanation.js';
import { tempDir } from './cleanup.js';
import { run, spawn } from './helpers.js';

const dir = tempDir('contract');
const fileOf = (id: string) => join(dir, `${id}.txt`);
let origins: CaseOrigins;

beforeAll(async () => {
  for (const c of CONTRACT_CASES) writeFileSync(fileOf(c.id), c.bytes);
  origins = await serveCases(CONTRACT_CASES);
});
afterAll(async () => {
  await origins.close();
});

/** `allowed (line 2: …)` or `disallowed (no rule matched)` → the answer. */
function answerOfTest(code: number, stdout: string): { allowed: boolean; line: number } {
  const line = /\(line (\d+):/.exec(stdout)?.[1];
  return { allowed: code === 0, line: line === undefined ? 0 : Number(line) };
}

describe('contract: the CLI', () => {
  for (const c of CONTRACT_CASES) {
    describe(`${c.id} [${c.tags.join(', ')}]`, () => {
      it('robotskit test answers as the engine on the bytes, the name as given', async () => {
        for (const path of c.paths) {
          for (const agent of c.agents) {
            const url = `https://contract.invalid${path}`;
            const r = await run(['test', fileOf(c.id), agent, url], { tty: true });
            // Only a reduced User-Agent string is said, on standard error.
            expect(r.stderr === '', `${path} ${agent}: ${r.stderr}`).toBe(productToken(agent) === agent);
            expect(answerOfTest(r.code, r.stdout), `${path} ${agent}`).toEqual(expectedAnswer(c, path, agent, 'raw'));
          }
        }
      });

      it('explain --ua answers as the engine on the bytes, the name read by resolveCrawler', async () => {
        const asks = [...c.agents, ...(c.agentLists ?? []).map((list) => list.join(','))];
        for (const path of c.paths) {
          for (const ua of asks) {
            const r = await run(['explain', fileOf(c.id), `https://contract.invalid${path}`, '--ua', ua, '--json']);
            const doc = JSON.parse(r.stdout) as ExplainJson;
            const want = expectedAnswer(c, path, ua.includes(',') ? ua.split(',') : ua, 'resolved');
            expect({ allowed: doc.allowed, line: doc.line }, `${path} ${ua}`).toEqual(want);
            expect(r.code).toBe(want.allowed ? 0 : 1);
          }
        }
      });

      it('check --ua against a local server answers as the engine on the bytes', async () => {
        const origin = origins.origin.get(c.id)!;
        const asks = [...c.agents, ...(c.agentLists ?? []).map((list) => list.join(','))];
        for (const ua of asks) {
          const r = await run(['check', '--json', '--ua', ua, ...c.paths.map((p) => `${origin}${p}`)]);
          const results = JSON.parse(r.stdout) as CheckJson[];
          const agent = ua.includes(',') ? ua.split(',') : ua;
          expect(
            results.map((x) => ({ allowed: x.allowed, line: x.line })),
            ua,
          ).toEqual(c.paths.map((p) => expectedAnswer(c, p, agent, 'resolved')));
          expect(results.every((x) => x.fetch.status === 200)).toBe(true);
          expect(r.code).toBe(results.every((x) => x.allowed) ? 0 : 1);
        }
      });
    });
  }

  it('the real executable reads the bytes too (test, explain, check)', async () => {
    const c = CONTRACT_CASES.find((x) => x.id === 'latin1')!;
    const path = '/caf%E9';
    const want = expectedAnswer(c, path, 'Googlebot', 'raw');
    expect(want.allowed).toBe(false);
    const url = `https://contract.invalid${path}`;
    expect((await spawn(['test', fileOf(c.id), 'Googlebot', url])).code).toBe(1);
    const explained = await spawn(['explain', fileOf(c.id), url, '--ua', 'Googlebot', '--json']);
    expect(JSON.parse(explained.stdout)).toMatchObject(want);
    const checked = await spawn(['check', '--json', '--ua', 'Googlebot', `${origins.origin.get(c.id)}${path}`]);
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.stdout)[0]).toMatchObject(want);
  });
});

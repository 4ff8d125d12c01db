/**
 * The cross-surface contract, engine runner: the answers on the bytes are what the reference documents, and the same
 * file as text (where it is valid UTF-8) gives the same answers. The CLI, the service and the browser run the same
 * table (packages/cli/test/contract.test.ts, packages/server/test/contract.test.ts,
 * packages/server/test/browser/contract.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, resolveCrawler } from '../src/index.js';
import { CONTRACT_CASES, expectedAnswer, isUtf8, textOf } from './contract/cases.js';

describe('contract: the engine', () => {
  it('covers every tag the issue asks for', () => {
    const tags = new Set(CONTRACT_CASES.flatMap((c) => c.tags));
    for (const tag of [
      'utf-8',
      'latin-1',
      'invalid-utf-8',
      'utf-16-bom',
      'bom',
      'partial-bom',
      'cr-only',
      'mixed-line-endings',
      'nul',
      'long-line',
      'multibyte-cut',
      'over-500-kib',
      'html',
      'odd-agents',
      'agent-list',
    ]) {
      expect(tags.has(tag as never), tag).toBe(true);
    }
    expect(new Set(CONTRACT_CASES.map((c) => c.id)).size).toBe(CONTRACT_CASES.length);
  });

  for (const c of CONTRACT_CASES) {
    describe(`${c.id} [${c.tags.join(', ')}]`, () => {
      it('answers what the reference documents', () => {
        for (const fact of c.reference ?? []) {
          expect(expectedAnswer(c, fact.path, fact.agent, 'raw'), `${fact.path} ${fact.agent}`).toMatchObject({
            allowed: fact.allowed,
            ...(fact.line === undefined ? {} : { line: fact.line }),
          });
        }
      });

      it('gives the same answers on its text (where the text is the same file), on URLs and on paths', () => {
        const robots = parseRobotsTxt(c.bytes);
        const text = isUtf8(c.bytes) ? parseRobotsTxt(textOf(c.bytes)) : null;
        for (const path of c.paths) {
          for (const agent of c.agents) {
            for (const mode of ['raw', 'resolved'] as const) {
              const want = expectedAnswer(c, path, agent, mode);
              const input = mode === 'raw' ? agent : resolveCrawler(agent).input;
              const url = `https://contract.invalid${path}`;
              expect(robots.isAllowed(url, input), `${path} ${agent} ${mode}`).toBe(want.allowed);
              expect(robots.explain(url, input)).toMatchObject(want);
              if (text !== null) expect(text.explain(path, input), `text ${path} ${agent} ${mode}`).toMatchObject(want);
            }
          }
          for (const list of c.agentLists ?? []) {
            const want = expectedAnswer(c, path, list, 'raw');
            // Asked in both orders of string and list, on fresh objects: no answer depends on an earlier question.
            const fresh = parseRobotsTxt(c.bytes);
            expect(fresh.explain(path, list.join('\n'))).toMatchObject(expectedAnswer(c, path, list.join('\n'), 'raw'));
            expect(fresh.explain(path, list)).toMatchObject(want);
            if (text !== null) expect(text.explain(path, list)).toMatchObject(want);
          }
        }
      });
    });
  }
});

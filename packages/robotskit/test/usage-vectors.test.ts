/**
 * The published vector suite (vectors/aipref.json, shipped in the package) run on the engine, by its own contract:
 * every case passes, none is skipped (robotskit is the implementation whose readings the suite records).
 */

import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { type AiprefCase, AIPREF_SUITE as SUITE } from './aipref-vectors.js';

/** The robots.txt of a case as the contract says: text as its UTF-8 bytes, or the exact bytes. */
function input(c: AiprefCase): string | Uint8Array {
  if (c.robots_b64 !== undefined) return new Uint8Array(Buffer.from(c.robots_b64, 'base64'));
  return c.robots_txt!;
}

describe('vectors/aipref.json', () => {
  it('is a suite with a contract, the current labels and unique ids', () => {
    expect(SUITE.labels).toEqual(['train-ai', 'ai-use', 'search']);
    expect(SUITE.contract.length).toBeGreaterThan(3);
    expect(new Set(SUITE.cases.map((c) => c.id)).size).toBe(SUITE.cases.length);
    for (const c of SUITE.cases) expect(c.source ?? c.reading, c.id).toBeDefined();
  });

  it('holds the attach draft’s own example table', () => {
    const table = SUITE.cases.filter((c) => c.id.startsWith('attach-example-'));
    expect(
      table.map((c) => [c.user_agent, new URL(c.url).pathname, c.expected.crawlable, c.expected.preferences]),
    ).toEqual([
      ['SomeBot', '/test', true, { 'train-ai': 'disallow' }],
      ['SomeBot', '/never/test', false, {}],
      ['SomeBot', '/ai-ok/test', true, { 'train-ai': 'allow' }],
      ['ExampleBot', '/test', true, { 'train-ai': 'allow' }],
      ['ExampleBot', '/never/test', true, { 'train-ai': 'allow' }],
      ['ExampleBot', '/ai-ok/test', true, { 'train-ai': 'allow' }],
    ]);
  });

  it.each(SUITE.cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const robots = parseRobotsTxt(input(c));
    const answer = robots.usage(c.url, c.user_agent);
    const actual: Record<string, unknown> = {
      crawlable: answer.crawlable,
      preferences: answer.preferences,
      lines: answer.rules.map((r) => r.line),
    };
    if ('content_signal' in c.expected) actual.content_signal = answer.contentSignal;
    expect(actual).toEqual(c.expected);
    // explain carries the same answer (left out only when no group holds a usage line, so there is nothing to say),
    // and agrees on the verdict.
    const explained = robots.explain(c.url, c.user_agent);
    expect(explained.allowed).toBe(c.expected.crawlable);
    const nothing = { crawlable: answer.crawlable, preferences: {}, rules: [], contentSignal: null };
    expect(explained.usage ?? nothing).toEqual(answer);
  });
});

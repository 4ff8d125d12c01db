/**
 * `robotskit explain` shows the AI usage preferences that apply, driven by the engine's published vector suite
 * (robotskit's vectors/aipref.json): every case through `explain - <url> --ua <crawler> --json` with the robots.txt on
 * standard input, its answer compared with the case's expectation, exactly as the engine's own test reads it; and the
 * text form in words for the attach draft's example.
 */

import { describe, expect, it } from 'vitest';
import { caseBytes, AIPREF_SUITE as SUITE } from '../../robotskit/test/aipref-vectors.js';
import { run } from './helpers.js';

interface UsageJson {
  readonly allowed: boolean;
  readonly usage?: {
    readonly crawlable: boolean;
    readonly preferences: Record<string, string>;
    readonly rules: { line: number }[];
    readonly contentSignal: unknown;
  };
}

describe('robotskit explain: AI usage preferences, by the vector suite', () => {
  it.each(SUITE.cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const result = await run(['explain', '-', c.url, '--ua', c.user_agent, '--json'], { stdin: caseBytes(c) });
    expect(result.code, result.stderr).toBe(c.expected.crawlable ? 0 : 1);
    const doc = JSON.parse(result.stdout) as UsageJson;
    // No usage in the document only when no group of the file holds a usage line: then nothing is stated.
    const usage = doc.usage ?? { crawlable: doc.allowed, preferences: {}, rules: [], contentSignal: null };
    const actual: Record<string, unknown> = {
      crawlable: usage.crawlable,
      preferences: usage.preferences,
      lines: usage.rules.map((r) => r.line),
    };
    if ('content_signal' in c.expected) actual.content_signal = usage.contentSignal;
    expect(actual).toEqual(c.expected);
  });
});

describe('robotskit explain: usage in words', () => {
  const example = SUITE.cases.find((c) => c.id === 'attach-example-other-test')!;

  it('names the deciding Content-Usage line and the preference per category', async () => {
    const result = await run(['explain', '-', 'https://example.com/test', '--ua', 'SomeBot'], {
      stdin: example.robots_txt!,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '  usage     line 4: Content-Usage: / train-ai=n\n            train-ai: disallow (AI Training)\n',
    );
  });

  it('says a URL the crawler may not fetch has no preferences', async () => {
    const result = await run(['explain', '-', 'https://example.com/never/test', '--ua', 'SomeBot'], {
      stdin: example.robots_txt!,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('  usage     none: preferences apply only to URLs the crawler may fetch\n');
  });

  it('shows Content-Signal mapped where the use is the same, the rest side by side', async () => {
    const robots = 'User-Agent: *\nContent-Signal: search=yes, ai-input=no, ai-train=no, use=reference\nAllow: /\n';
    const result = await run(['explain', '-', 'https://example.com/a', '--ua', 'Googlebot'], { stdin: robots });
    expect(result.stdout).toContain(
      [
        '  usage     no Content-Usage rule matches: every category unknown',
        '  signals   line 2: Content-Signal: search=yes, ai-input=no, ai-train=no, use=reference',
        '            as search: allow (Search)',
        '            as train-ai: disallow (AI Training)',
        '            no vocabulary category of the same use: ai-input=no, use=reference',
      ].join('\n'),
    );
  });

  it('says nothing of usage for a file without usage lines', async () => {
    const result = await run(['explain', '-', 'https://example.com/a', '--ua', 'Googlebot'], {
      stdin: 'User-agent: *\nDisallow: /x\n',
    });
    expect(result.stdout).not.toContain('usage');
  });
});

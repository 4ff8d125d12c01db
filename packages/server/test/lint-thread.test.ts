/**
 * Large fetched bodies are linted in a worker thread: the event loop (the API's, in `serve`) keeps turning while a
 * hostile 500 KiB robots.txt is linted, and the analysis is the same as linting in place. Before, the analyzer
 * linted every body on the event loop, which stood still until it was done.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { AnalysisMemoryError } from '../src/analysis/threads.js';
import { analyzeBody } from '../src/storage/rows.js';
import { analyzeFetchedBody, INLINE_LINT_BYTES, LintThread, LintThreadClosedError } from '../src/worker/lint-thread.js';

/** 500 KiB of user-agent lines of one group: seconds of lint work. */
const hostile = new TextEncoder().encode(`${'User-agent: bot\n'.repeat(32_000)}Disallow: /\n`);

describe('linting large bodies off the event loop', () => {
  const thread = new LintThread();
  afterAll(() => thread.close());

  it('keeps the event loop turning while a hostile body is linted, with the same result', async () => {
    expect(hostile.length).toBeGreaterThan(INLINE_LINT_BYTES);
    let turns = 0;
    let stop = false;
    const spin = () => {
      turns++;
      if (!stop) setImmediate(spin);
    };
    setImmediate(spin);
    const analysis = await analyzeFetchedBody(hostile, thread);
    stop = true;
    // Linting this body takes well over a hundred event-loop turns' time on any machine: in place, there are none.
    expect(turns).toBeGreaterThan(100);
    const inPlace = analyzeBody(hostile);
    expect(analysis).toEqual(inPlace);
    expect(inPlace.diagnostics.length).toBeGreaterThan(0);
  });

  it('fails a lint past its memory bound alone, with an error saying so; the next lint runs in a new thread', async () => {
    const small = new LintThread({ maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8 });
    try {
      // 500 KB of misspelled lines: 50,000 findings, ~56 MB of heap in the thread.
      const noisy = new TextEncoder().encode(
        Array.from({ length: 60_000 }, (_, i) => (i % 2 ? `Disalow: /x${i}` : `Foo bar ${i}`))
          .join('\n')
          .slice(0, 512_000),
      );
      const outcome = await small.analyze(noisy).catch((error: unknown) => error);
      expect(outcome).toBeInstanceOf(AnalysisMemoryError);
      expect((outcome as Error).message).toContain('the lint needed more than the 8 MB of memory');
      const body = new TextEncoder().encode('User-agent: *\nDisalow: /x\n');
      expect(await small.analyze(body)).toEqual(analyzeBody(body));
    } finally {
      await small.close();
    }
  });

  it('lints small bodies in place, as the worker does', async () => {
    const small = new TextEncoder().encode('User-agent: *\nDisalow: /x\n');
    const result = analyzeFetchedBody(small, thread);
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual(analyzeBody(small));
  });

  it('starts a new thread when the old one is gone', async () => {
    const first = await thread.analyze(hostile);
    await thread.close();
    const again = await thread.analyze(hostile);
    expect(again).toEqual(first);
  });

  it('ends a lint in progress when closed, so a stopping service never waits for it', async () => {
    const own = new LintThread();
    // The expectation is attached before closing: the rejection comes during close().
    const rejected = expect(own.analyze(hostile)).rejects.toBeInstanceOf(LintThreadClosedError);
    await own.close();
    await rejected;
  });
});

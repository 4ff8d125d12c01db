/**
 * `robotskit batch --order completion` (`runBatch({ order: 'completion' })`) against real HTTP servers on 127.0.0.1:
 * records as they complete, so a slow robots.txt holds back only its own site's URLs; the same records as input order
 * (one shared table of inputs runs through both orders); the window and per-origin bounds; interruption and resuming.
 * Backpressure is tested in both orders in `batch.test.ts`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runBatch } from '../src/batch/run.js';
import type { BatchOrder, BatchProgress } from '../src/batch/types.js';
import { counted, heldSite as held, records, ruledSite, spawnBatch } from './batch-helpers.js';
import { tempDir } from './cleanup.js';
import { run } from './helpers.js';
import { type Site, Sites } from './sites.js';

const sites = new Sites();
afterEach(async () => {
  await sites.closeAll();
  sites.maxInFlight = 0;
});

/** A site whose robots.txt disallows /private-<n>/. */
const ruled = (n: number) => ruledSite(sites, n);
/** A site whose robots.txt (it disallows /b) is answered only on release(). */
const heldSite = () => held(sites, 'User-agent: *\nDisallow: /b\n');

/** A run whose output is collected as it is written. */
function collect(lines: AsyncIterable<string | readonly string[]>, extra: Partial<Parameters<typeof runBatch>[0]>) {
  let out = '';
  const seen: BatchProgress[] = [];
  const done = runBatch({
    lines,
    write: (s) => {
      out += s;
    },
    onProgress: (p) => seen.push(p),
    ...extra,
  });
  return { done, out: () => out, seen };
}

describe('batch --order completion', () => {
  it('writes the records of sites that answered while an earlier line waits on a slow robots.txt', async () => {
    const slow = await heldSite();
    const fast = await ruled(1);
    const input = [
      `${slow.site.origin}/b/1`,
      `${fast.origin}/private-1/x`,
      '',
      `${fast.origin}/y`,
      `${slow.site.origin}/a`,
    ];
    const { done, out } = collect(counted(input).lines, { order: 'completion' });
    // The fast site's records are out while the slow site has not answered.
    await vi.waitFor(() => expect(records(out()).map((r) => r.index)).toEqual([2, 4]));
    expect(slow.site.requests).toEqual(['/robots.txt']);
    slow.release();
    const summary = await done;
    expect(summary).toMatchObject({
      interrupted: false,
      written: 4,
      allowed: 2,
      blocked: 2,
      pending: 0,
      resumeFrom: 6,
    });
    expect(records(out()).map((r) => [r.index, r.allowed])).toEqual([
      [2, false],
      [4, true],
      [1, false],
      [5, true],
    ]);
    expect(fast.requests).toEqual(['/robots.txt']);
    expect(slow.site.requests).toEqual(['/robots.txt']);
  });

  it('gives every line the record input order gives it, for any mix of sites and lines (one table, both orders)', async () => {
    const many: Site[] = [];
    for (let i = 0; i < 4; i++) many.push(await ruled(i));
    const missing = await sites.serve({});
    const down = await sites.serve({ '/robots.txt': { status: 500 } });
    const redirected = await sites.serve({
      '/robots.txt': { status: 301, headers: { location: '/real.txt' } },
      '/real.txt': { body: 'User-agent: *\nDisallow: /q\n' },
    });
    const origins = [...many, missing, down, redirected].map((s) => s.origin);
    const line = fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .tuple(
            fc.nat(origins.length - 1),
            fc.constantFrom('/private-0/a', '/private-2/', '/q', '/x?y=1', '/%7Ea', '/B'),
          )
          .map(([o, p]) => `${origins[o]}${p}`),
      },
      { weight: 1, arbitrary: fc.constantFrom('', '# note', 'not a url', 'mailto:x@example.invalid', '  ') },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 60 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        async (input, window, perOrigin) => {
          const outputs: Record<BatchOrder, string> = { input: '', completion: '' };
          for (const order of ['input', 'completion'] as const) {
            const run = collect(counted(input).lines, { order, window, perOrigin, concurrency: 3 });
            const summary = await run.done;
            expect(summary.written).toBe(records(run.out()).length);
            expect(summary.pending).toBe(0);
            outputs[order] = run.out();
          }
          const inInputOrder = records(outputs.input);
          const sorted = records(outputs.completion).sort((a, b) => a.index - b.index);
          expect(sorted).toEqual(inInputOrder);
          const expected = input.flatMap((l, k) => (l.trim() === '' || l.trim().startsWith('#') ? [] : [k + 1]));
          expect(inInputOrder.map((r) => r.index)).toEqual(expected);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('stops reading while the window is full of URLs in flight', async () => {
    const [a, b, c] = [await heldSite(), await heldSite(), await heldSite()];
    const input: string[] = [];
    for (const site of [a, b, c]) for (let n = 0; n < 10; n++) input.push(`${site.site.origin}/p/${n}`);
    const { state, lines } = counted(input);
    const { done, seen } = collect(lines, { order: 'completion', window: 15, perOrigin: 10, progressEveryMs: 5 });
    // Ten URLs of the first site and five of the second are in flight: the sixteenth line waits for room.
    await vi.waitFor(() => expect(state.pulled).toBe(16));
    await new Promise((r) => setTimeout(r, 50));
    expect(state.pulled).toBe(16);
    expect(c.site.requests).toEqual([]);
    a.release();
    // The first site's ten are written: the second site's ten and five of the third fill the window again.
    await vi.waitFor(() => expect(state.pulled).toBe(26));
    await vi.waitFor(() => expect(c.site.requests).toEqual(['/robots.txt']));
    b.release();
    await vi.waitFor(() => expect(state.pulled).toBe(30));
    c.release();
    expect((await done).written).toBe(30);
    expect(Math.max(...seen.map((p) => p.pending))).toBe(15);
  });

  it('lets one site take at most --per-origin of the window', async () => {
    const [a, b] = [await heldSite(), await heldSite()];
    const input: string[] = [];
    for (let n = 0; n < 12; n++) input.push(`${a.site.origin}/p/${n}`);
    for (let n = 0; n < 10; n++) input.push(`${b.site.origin}/p/${n}`);
    const { state, lines } = counted(input);
    const { done } = collect(lines, { order: 'completion', window: 100, perOrigin: 10 });
    // The first site's eleventh URL waits for room for that site, though the window has room.
    await vi.waitFor(() => expect(state.pulled).toBe(11));
    await new Promise((r) => setTimeout(r, 50));
    expect(state.pulled).toBe(11);
    expect(b.site.requests).toEqual([]);
    a.release();
    await vi.waitFor(() => expect(b.site.requests).toEqual(['/robots.txt']));
    b.release();
    expect((await done).written).toBe(22);
  });

  it.each(['input', 'completion'] as const)(
    'in %s order, writes the records complete while the input is slow to come, without waiting for more',
    async (order) => {
      const slow = await heldSite();
      const pauses: (() => void)[] = [];
      const pause = () =>
        new Promise<void>((r) => {
          pauses.push(r);
        });
      async function* lines() {
        yield `${slow.site.origin}/b/1`;
        await pause();
        yield `${slow.site.origin}/b/2`;
        await pause();
        yield `${slow.site.origin}/b/3`;
      }
      const { done, out } = collect(lines(), { order });
      await vi.waitFor(() => expect(slow.site.requests).toEqual(['/robots.txt']));
      // Completed while the run waits for input (its robots.txt answered then).
      slow.release();
      await vi.waitFor(() => expect(records(out()).map((r) => r.index)).toEqual([1]));
      // Answered from memory at once, just before the input pauses again.
      pauses[0]!();
      await vi.waitFor(() => expect(records(out()).map((r) => r.index)).toEqual([1, 2]));
      await vi.waitFor(() => expect(pauses).toHaveLength(2));
      pauses[1]!();
      expect((await done).written).toBe(3);
      expect(records(out()).map((r) => r.index)).toEqual([1, 2, 3]);
    },
  );

  it('lets robots.txt answers in while it takes an input already in memory (no starved fetches)', async () => {
    const loaded = await ruled(3);
    const other = await ruled(4);
    let firstWritten = () => {};
    const ready = new Promise<void>((r) => {
      firstWritten = r;
    });
    async function* lines() {
      yield `${loaded.origin}/x`;
      await ready;
      // The other site's first URL, then 200,000 lines answered from memory, with no I/O between them.
      yield [`${other.origin}/private-4/y`];
      for (let n = 0; n < 200; n++) yield Array.from({ length: 1000 }, (_, k) => `${loaded.origin}/p/${n}/${k}`);
    }
    let out = '';
    const done = runBatch({
      lines: lines(),
      order: 'completion',
      write: (text) => {
        out += text;
        firstWritten();
      },
    });
    expect((await done).written).toBe(200_002);
    const indices = records(out).map((r) => r.index);
    // The other site's record came out while the input was being taken, not after it.
    expect(indices.indexOf(2)).toBeGreaterThan(0);
    expect(indices.indexOf(2)).toBeLessThan(150_000);
  });

  it('stops on the signal with every complete record written and the first line without one to resume from', async () => {
    const slow = await heldSite();
    const fast = await ruled(7);
    const input = [`${fast.origin}/a`, `${slow.site.origin}/b`, `${fast.origin}/private-7/c`, '', `${fast.origin}/d`];
    const stop = new AbortController();
    const { done, out, seen } = collect(counted(input).lines, {
      order: 'completion',
      signal: stop.signal,
      progressEveryMs: 5,
    });
    await vi.waitFor(() => expect(records(out()).map((r) => r.index)).toEqual([1, 3, 5]));
    await vi.waitFor(() => expect(seen.at(-1)).toMatchObject({ lines: 5, pending: 1 }));
    stop.abort();
    const summary = await done;
    expect(summary).toMatchObject({ interrupted: true, written: 3, resumeFrom: 2 });
    await vi.waitFor(() => expect(slow.closed()).toBe(true));

    // Resuming from there repeats the records of later lines already written; one per index completes the output.
    const again = await heldSite();
    const rest = collect(counted(input.map((l) => l.replace(slow.site.origin, again.site.origin))).lines, {
      order: 'completion',
      fromLine: summary.resumeFrom,
    });
    await vi.waitFor(() => expect(again.site.requests).toEqual(['/robots.txt']));
    again.release();
    expect(await rest.done).toMatchObject({ interrupted: false, written: 3, resumeFrom: 6 });
    const byIndex = new Map([...records(out()), ...records(rest.out())].map((r) => [r.index, r]));
    expect([...byIndex.keys()].sort()).toEqual([1, 2, 3, 5]);
    expect(byIndex.get(2)).toMatchObject({ allowed: false });
  });

  it('the command takes --order completion, says how to resume it, and refuses an unknown order', async () => {
    const fast = await ruled(11);
    const slow = await heldSite();
    const dir = tempDir('batch');
    const file = join(dir, 'urls.txt');
    writeFileSync(file, [`${slow.site.origin}/b`, `${fast.origin}/a`, `${fast.origin}/private-11/c`].join('\n'));
    const { child, output, exited } = spawnBatch([file, '--order', 'completion', '--timeout', '600']);
    // The fast site's records come out while the first line waits.
    await vi.waitFor(() => expect(records(output.stdout).map((r) => r.index)).toEqual([2, 3]), { timeout: 20_000 });
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(output.stderr).toBe(
      'robotskit: interrupted: 2 records written, every line before 1 is done; resume with --from-line 1 --order completion (records of later lines written already come again: keep one per index)\n',
    );

    const bad = await run(['batch', file, '--order', 'sideways']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/--order.*sideways.*input, completion/);
  });
});

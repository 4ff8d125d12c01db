/**
 * `robotskit batch` and its core against real HTTP servers on 127.0.0.1: one robots.txt request per origin (counted
 * on the servers), input order, error records for bad lines, the concurrency bound (measured on the servers), and
 * memory bounds: reading stops while the window, one origin's share of it, or the output is full.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { abortableFetch } from '../src/batch/abortable-fetch.js';
import { lineBatchesOf, linesOf } from '../src/batch/input.js';
import { runBatch } from '../src/batch/run.js';
import type { BatchProgress, BatchSummary } from '../src/batch/types.js';
import { robotsFetch } from '../src/transport/fetch.js';
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

describe('robotskit batch', () => {
  it('checks URLs of many origins with exactly one robots.txt request per origin, in input order', async () => {
    const many: Site[] = [];
    for (let i = 0; i < 20; i++) many.push(await ruled(i));
    const missing = await sites.serve({});
    const down = await sites.serve({ '/robots.txt': { status: 500 } });
    const input: string[] = [];
    for (let n = 0; n < 2000; n++) {
      const i = n % 22;
      if (i === 20) input.push(`${missing.origin}/p/${n}`);
      else if (i === 21) input.push(`${down.origin}/p/${n}`);
      else input.push(`${many[i]!.origin}/${n % 3 === 0 ? `private-${i}` : 'public'}/${n}`);
    }
    const result = await run(['batch', '-', '--concurrency', '5'], { stdin: `${input.join('\n')}\n` });
    expect(result.code).toBe(0);
    // Not a terminal: no progress line, only the summary, whose counts add up.
    const summary =
      /^robotskit: 2000 records: (\d+) allowed, (\d+) blocked, 0 invalid; 22 robots\.txt fetched, 0 unreachable\n$/.exec(
        result.stderr,
      );
    expect(summary, result.stderr).not.toBeNull();
    expect(Number(summary![1]) + Number(summary![2])).toBe(2000);
    const out = records(result.stdout);
    expect(out.map((r) => r.index)).toEqual(input.map((_, k) => k + 1));
    out.forEach((r, k) => {
      const i = k % 22;
      expect(r.url).toBe(input[k]);
      if (i === 20) expect(r).toMatchObject({ allowed: true, fetch: { status: 404 }, policy: { mode: 'allow-all' } });
      else if (i === 21)
        expect(r).toMatchObject({ allowed: false, fetch: { status: 500 }, policy: { mode: 'disallow-all' } });
      else expect(r.allowed).toBe(k % 3 !== 0);
    });
    expect(out[0]).toEqual({
      index: 1,
      url: input[0],
      allowed: false,
      line: 2,
      rule: { kind: 'disallow', pattern: '/private-0/' },
      robotsUrl: `${many[0]!.origin}/robots.txt`,
      fetch: { status: 200, outcome: 'rules', error: null },
      policy: { mode: 'rules', reason: 'fetched' },
    });
    for (const site of [...many, missing, down]) expect(site.requests).toEqual(['/robots.txt']);
    expect(sites.maxInFlight).toBeLessThanOrEqual(5);
    // Each robots.txt is fetched once, so no connection is kept alive (the servers would keep one open for 5 s).
    await vi.waitFor(() => expect(sites.connections).toBe(0), { timeout: 2000 });
  });

  it('writes an error record for each line that is not a URL, skips blank and # lines, never crashes', async () => {
    const site = await ruled(1);
    const closed = await sites.closedOrigin();
    const stdin = [
      `${site.origin}/a`,
      '',
      '# a comment',
      'not a url',
      '   ',
      'mailto:someone@example.com',
      'http://',
      `  ${site.origin}/private-1/x  `,
      `${closed}/x`,
      `${site.origin}/last`,
      `ftp://127.0.0.1:${new URL(closed).port}/pub/file`,
    ].join('\r\n');
    const result = await run(['batch'], { stdin });
    expect(result.code).toBe(0);
    const out = records(result.stdout);
    expect(out.map((r) => [r.index, r.error?.kind ?? r.allowed])).toEqual([
      [1, true],
      [4, 'invalid-url'],
      [6, 'invalid-url'],
      [7, 'invalid-url'],
      [8, false],
      [9, false],
      [10, true],
      [11, false],
    ]);
    // ftp:// is read over FTP (packages/cli/test/ftp.test.ts); no server there is a server error.
    expect(out[7]).toMatchObject({ fetch: { outcome: 'disallow-all', error: { kind: 'connect' } } });
    expect(out[1]!.error!.message).toContain('not an absolute URL');
    expect(out[2]!.error!.message).toContain('unsupported scheme "mailto:"');
    expect(out[5]).toMatchObject({
      fetch: { status: null, outcome: 'disallow-all', error: { kind: 'connect' } },
      policy: { mode: 'disallow-all', reason: 'unreachable' },
    });
  });

  it('counts as unreachable the sites whose robots.txt could not be fetched, not those that answered 5xx', async () => {
    const ok = await ruled(7);
    const closed = await sites.closedOrigin();
    const down = await sites.serve({ '/robots.txt': { status: 503 } });
    const stalled = await sites.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('User-agent: *\n');
    });
    const input = [ok.origin, closed, down.origin, stalled.origin].flatMap((o) => [`${o}/a`, `${o}/b`]);
    const summary = await runBatch({ lines: counted(input).lines, write: () => {}, timeoutMs: 300 });
    expect(summary).toMatchObject({ written: 8, allowed: 2, blocked: 6, fetches: 4, unreachable: 2 });
  });

  it('reads a file, resumes with --from-line, and reports file errors in one line', async () => {
    const site = await ruled(2);
    const dir = tempDir('batch');
    const file = join(dir, 'urls.txt');
    writeFileSync(file, [1, 2, 3, 4, 5].map((n) => `${site.origin}/private-2/${n}`).join('\n'));
    const all = await run(['batch', file]);
    expect(records(all.stdout).map((r) => r.index)).toEqual([1, 2, 3, 4, 5]);
    const resumed = await run(['batch', file, '--from-line', '4']);
    expect(records(resumed.stdout).map((r) => [r.index, r.url])).toEqual([
      [4, `${site.origin}/private-2/4`],
      [5, `${site.origin}/private-2/5`],
    ]);
    expect(await run(['batch', join(dir, 'nope.txt')])).toEqual({
      code: 2,
      stdout: '',
      stderr: `robotskit: cannot read URL file '${join(dir, 'nope.txt')}': no such file\n`,
    });
    expect((await run(['batch', dir])).stderr).toBe(`robotskit: cannot read URL file '${dir}': it is a directory\n`);
    expect((await run(['batch', file, '--concurrency', '0'])).stderr).toBe(
      "robotskit: --concurrency must be a positive integer, not '0'\n",
    );
  });

  it('draws progress on standard error only when it is a terminal, and the summary also when not', async () => {
    const site = await ruled(6);
    const dir = tempDir('batch');
    const file = join(dir, 'urls.txt');
    writeFileSync(file, Array.from({ length: 3000 }, (_, n) => `${site.origin}/private-6/${n}`).join('\n'));
    const tty = await run(['batch', file], { tty: true, columns: 200 });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toMatch(
      /\r\[#+-*\] +\d+% [\d,]+ URLs? checked \(0 allowed, [\d,]+ blocked, 0 invalid\), [\d,]+ written, [\d,]+\/s; (waiting \d+ s for http:\/\/127\.0\.0\.1:\d+\/robots\.txt \(line [\d,]+\); )?[01] robots\.txt fetched/,
    );
    // The URLs checked are the allowed, blocked and invalid ones: the counts add up on every redraw.
    for (const [, checked, allowed, blocked, invalid] of tty.stderr.matchAll(
      /([\d,]+) URLs? checked \(([\d,]+) allowed, ([\d,]+) blocked, ([\d,]+) invalid\)/g,
    )) {
      const num = (t: string | undefined) => Number(t!.replaceAll(',', ''));
      expect(num(allowed) + num(blocked) + num(invalid)).toBe(num(checked));
    }
    expect(
      tty.stderr.endsWith(
        'robotskit: 3000 records: 0 allowed, 3000 blocked, 0 invalid; 1 robots.txt fetched, 0 unreachable\n',
      ),
    ).toBe(true);
    expect(records(tty.stdout)).toHaveLength(3000);
    const piped = await run(['batch', file]);
    expect(piped.stderr).toBe(
      'robotskit: 3000 records: 0 allowed, 3000 blocked, 0 invalid; 1 robots.txt fetched, 0 unreachable\n',
    );
    const quiet = await run(['batch', file, '--quiet'], { tty: true, columns: 200 });
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toBe(piped.stdout);
  });

  it('never draws the progress line wider than the terminal (a wrapped line cannot be redrawn in place)', async () => {
    const site = await ruled(8);
    const dir = tempDir('batch');
    const file = join(dir, 'urls.txt');
    writeFileSync(file, Array.from({ length: 3000 }, (_, n) => `${site.origin}/private-8/${n}`).join('\n'));
    const narrow = await run(['batch', file], { tty: true, columns: 60 });
    expect(narrow.code).toBe(0);
    // Each redraw is '\r', the line, then erase-to-end-of-line.
    const drawn = narrow.stderr
      .split('\r')
      .filter((segment) => segment.includes('\u001b[K'))
      .map((segment) => segment.slice(0, segment.indexOf('\u001b[K')))
      .filter((line) => line !== '');
    expect(drawn.length).toBeGreaterThan(0);
    for (const line of drawn) expect(line.length).toBeLessThanOrEqual(59);
    expect(drawn[0]).toMatch(/^\[[#-]{24}\] +\d+% /);
    // A pseudo-terminal without a size reports 0 columns: 80 are assumed.
    const sizeless = await run(['batch', file], { tty: true, columns: 0 });
    expect(sizeless.stderr).toMatch(/\r\[[#-]{24}\] +\d+% [\d,]+ URLs? checked/);
  });

  it('keeps the progress moving while the first URLs wait on a slow robots.txt', async () => {
    let release = () => {};
    const slow = await sites.start((_req, res) => {
      release = () => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
    });
    const seen: BatchProgress[] = [];
    const done = runBatch({
      lines: counted([`${slow.origin}/a`, `${slow.origin}/b`]).lines,
      write: () => {},
      onProgress: (p) => seen.push(p),
      progressEveryMs: 20,
    });
    // Nothing can be written yet, and the display still hears about the fetch in flight, more than once.
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(2));
    expect(seen[0]).toMatchObject({ lines: 2, written: 0, pending: 2, activeFetches: 1 });
    // And it names what the output waits for: the slow site's robots.txt, for the first line.
    expect(seen.at(-1)!.waitingFor).toMatchObject({ origin: slow.origin, line: 1 });
    release();
    expect(await done).toMatchObject({ written: 2, pending: 0, waitingFor: null });
    await expect(runBatch({ lines: counted([]).lines, write: () => {}, progressEveryMs: 0 })).rejects.toThrow(
      RangeError,
    );
  });

  it('refuses to wait for URLs typed on a terminal', async () => {
    const io = {
      stdout: { write: () => true },
      stderr: {
        write: (s: string) => {
          err += s;
        },
      },
      readStdin: async () => new Uint8Array(),
      stdinStream: () => Object.assign((async function* () {})(), { isTTY: true }),
      env: {},
    };
    let err = '';
    const { main } = await import('../src/main.js');
    expect(await main(['batch'], io)).toBe(2);
    expect(err).toContain('give a file or pipe them in');
  });

  it('keeps at most --concurrency robots.txt fetches in flight, one per origin', async () => {
    const held: (() => void)[] = [];
    const slow: Site[] = [];
    for (let i = 0; i < 10; i++) {
      slow.push(
        await sites.start((_req, res) => {
          held.push(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /x\n'));
        }),
      );
    }
    const input = [];
    for (let n = 0; n < 200; n++) input.push(`${slow[n % 10]!.origin}/${n % 2 ? 'x' : 'y'}/${n}`);
    let stdout = '';
    const done = runBatch({
      lines: counted(input).lines,
      write: (s) => {
        stdout += s;
      },
      concurrency: 3,
    });
    await vi.waitFor(() => expect(held.length).toBe(3));
    for (let released = 1; released <= 10; released++) {
      held[released - 1]!();
      await vi.waitFor(() => expect(held.length).toBe(Math.min(10, released + 3)));
      expect(sites.inFlight).toBeLessThanOrEqual(3);
    }
    const summary = await done;
    expect(sites.maxInFlight).toBe(3);
    expect(summary).toMatchObject({ written: 200, allowed: 100, blocked: 100, fetches: 10, pending: 0 });
    for (const site of slow) expect(site.requests).toEqual(['/robots.txt']);
    expect(records(stdout).map((r) => r.index)).toEqual(input.map((_, k) => k + 1));
  });
});

describe('interruption (Ctrl-C)', () => {
  const heldSite = () => held(sites);

  /** A run that `stop.abort()` interrupts, its progress reports in `seen` and its output in `out()`. */
  function stoppable(lines: AsyncIterable<string | readonly string[]>) {
    const stop = new AbortController();
    const seen: BatchProgress[] = [];
    let out = '';
    const done = runBatch({
      lines,
      write: (s) => {
        out += s;
      },
      signal: stop.signal,
      onProgress: (p) => seen.push(p),
      progressEveryMs: 10,
    });
    return { stop, seen, done, out: () => out };
  }

  it('writes the records complete by then, in input order, aborts the fetches in flight, and says where to resume', async () => {
    const fast = await ruled(9);
    const slow = await heldSite();
    const input = [`${fast.origin}/private-9/a`, '', `${slow.site.origin}/b`, `${fast.origin}/c`];
    const { stop, seen, done, out } = stoppable(counted(input).lines);
    // All lines read; the first record is complete and waits to be written behind nothing, the third on the slow site.
    await vi.waitFor(() => expect(seen.at(-1)).toMatchObject({ lines: 4, pending: 2, activeFetches: 1 }));
    stop.abort();
    const summary: BatchSummary = await done;
    expect(summary).toMatchObject({ interrupted: true, written: 1, lastIndex: 1, resumeFrom: 2 });
    expect(records(out()).map((r) => [r.index, r.allowed])).toEqual([[1, false]]);
    // The slow fetch was not left running.
    await vi.waitFor(() => expect(slow.closed()).toBe(true));

    // Resuming where it says, once the site answers, completes the output.
    const resumed = await heldSite();
    const again = input.map((line) => line.replace(slow.site.origin, resumed.site.origin));
    let rest = '';
    const second = runBatch({
      lines: counted(again).lines,
      write: (s) => {
        rest += s;
      },
      fromLine: summary.resumeFrom,
    });
    await vi.waitFor(() => expect(resumed.site.requests).toEqual(['/robots.txt']));
    resumed.release();
    expect(await second).toMatchObject({ interrupted: false, written: 2, lastIndex: 4 });
    expect(records(out() + rest).map((r) => r.index)).toEqual([1, 3, 4]);
  });

  it('stops in the middle of lines read together, with the same records and place to resume', async () => {
    const fast = await ruled(12);
    const slow = await heldSite();
    const input = [`${fast.origin}/private-12/a`, '', `${slow.site.origin}/b`, `${fast.origin}/c`, `${fast.origin}/d`];
    const { stop, seen, done, out } = stoppable(
      (async function* () {
        yield input.slice(0, 4);
        yield input.slice(4);
      })(),
    );
    await vi.waitFor(() => expect(seen.at(-1)).toMatchObject({ lines: 5, pending: 3, activeFetches: 1 }));
    stop.abort();
    expect(await done).toMatchObject({ interrupted: true, written: 1, lastIndex: 1, resumeFrom: 2 });
    expect(records(out()).map((r) => [r.index, r.allowed])).toEqual([[1, false]]);
    await vi.waitFor(() => expect(slow.closed()).toBe(true));
    // Stopped before it starts: no line of a batch is taken.
    const early = new AbortController();
    early.abort();
    expect(
      await runBatch({
        lines: (async function* () {
          yield input;
        })(),
        write: () => {},
        signal: early.signal,
      }),
    ).toMatchObject({ interrupted: true, lines: 0, written: 0, resumeFrom: 1 });
  });

  it('stops while the input blocks (a pipe that stays open)', async () => {
    const fast = await ruled(10);
    async function* blocking() {
      yield `${fast.origin}/x`;
      await new Promise(() => {});
    }
    const { stop, seen, done, out } = stoppable(blocking());
    await vi.waitFor(() => expect(seen.at(-1)).toMatchObject({ lines: 1, fetches: 1, activeFetches: 0 }));
    stop.abort();
    expect(await done).toMatchObject({ interrupted: true, written: 1, resumeFrom: 2 });
    expect(records(out()).map((r) => r.index)).toEqual([1]);
    // Nothing read, nothing written: resume from the first line asked for.
    const idle = new AbortController();
    idle.abort();
    expect(await runBatch({ lines: blocking(), write: () => {}, signal: idle.signal, fromLine: 7 })).toMatchObject({
      interrupted: true,
      written: 0,
      lastIndex: 0,
      resumeFrom: 7,
    });
  });

  it('the command exits 130 on SIGINT with a prefix of the output and the --from-line to resume with', async () => {
    const fast = await ruled(11);
    const slow = await heldSite();
    const dir = tempDir('batch');
    const file = join(dir, 'urls.txt');
    writeFileSync(file, [`${fast.origin}/a`, `${slow.site.origin}/b`, `${fast.origin}/c`].join('\n'));
    const { child, output, exited } = spawnBatch([file, '--timeout', '600']);
    // The slow site's robots.txt is requested once the run (and its signal handler) is under way.
    await vi.waitFor(() => expect(slow.site.requests).toEqual(['/robots.txt']), { timeout: 20_000 });
    child.kill('SIGINT');
    // It does not wait for the slow site (its --timeout is 10 minutes).
    expect(await exited).toBe(130);
    const match =
      /^robotskit: interrupted: (\d+) records written(, the last for input line (\d+))?; resume with --from-line (\d+)\n$/.exec(
        output.stderr,
      );
    expect(match, output.stderr).not.toBeNull();
    const written = output.stdout === '' ? [] : records(output.stdout).map((r) => r.index);
    expect(written).toEqual([1].slice(0, Number(match![1])));
    expect(Number(match![4])).toBe(written.length === 0 ? 1 : 2);
    await vi.waitFor(() => expect(slow.closed()).toBe(true));
  });
});

describe('abortableFetch', () => {
  it('passes bodies through unchanged, and aborts every request still in flight, bodies included', async () => {
    const body = 'User-agent: *\nDisallow: /x\n'.repeat(5000);
    let stalledClosed = false;
    const site = await sites.start((req, res) => {
      if (req.url === '/whole') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
      // Headers and a first chunk, then nothing.
      res.on('close', () => {
        stalledClosed = true;
      });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('User-agent: *\n');
    });
    const stop = new AbortController();
    const fetch = abortableFetch(robotsFetch, stop.signal);
    const init = () => ({
      method: 'GET' as const,
      headers: {},
      redirect: 'manual' as const,
      signal: new AbortController().signal,
    });
    const whole = await fetch(`${site.origin}/whole`, init());
    expect(whole.status).toBe(200);
    expect(await new Response(whole.body).text()).toBe(body);
    const stalled = await fetch(`${site.origin}/stalled`, init());
    const reader = stalled.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('User-agent: *\n');
    const next = reader.read();
    stop.abort();
    await expect(next).rejects.toThrow();
    await vi.waitFor(() => expect(stalledClosed).toBe(true));
    // After the stop, new requests fail at once.
    await expect(fetch(`${site.origin}/whole`, init())).rejects.toThrow();
  });
});

describe('memory bounds', () => {
  const heldSite = () => held(sites);

  it('stops reading while the window is full of URLs waiting behind a slow robots.txt', async () => {
    const { site: slow, release } = await heldSite();
    const fast = await ruled(3);
    const input = [`${slow.origin}/first`];
    for (let n = 0; n < 5000; n++) input.push(`${fast.origin}/page/${n}`);
    const { state, lines } = counted(input);
    let written = 0;
    const done = runBatch({
      lines,
      write: (s) => {
        written += s.split('\n').length - 1;
      },
      window: 100,
    });
    await vi.waitFor(() => expect(slow.requests).toEqual(['/robots.txt']));
    await vi.waitFor(() => expect(state.pulled).toBe(101));
    // Input order: nothing can be written before the first line's record.
    expect(written).toBe(0);
    await new Promise((r) => setTimeout(r, 50));
    expect(state.pulled).toBe(101);
    release();
    expect((await done).written).toBe(5001);
    expect(written).toBe(5001);
  });

  it('lets one origin take at most --per-origin of the window', async () => {
    const { site: slow, release } = await heldSite();
    const fast = await ruled(4);
    const input: string[] = [];
    for (let n = 0; n < 50; n++) input.push(`${slow.origin}/p/${n}`);
    for (let n = 0; n < 50; n++) input.push(`${fast.origin}/p/${n}`);
    const { state, lines } = counted(input);
    const done = runBatch({ lines, write: () => {}, window: 1000, perOrigin: 10 });
    await vi.waitFor(() => expect(state.pulled).toBe(11));
    await new Promise((r) => setTimeout(r, 50));
    expect(state.pulled).toBe(11);
    release();
    expect((await done).written).toBe(100);
  });

  it.each(['input', 'completion'] as const)(
    'in %s order, stops reading while the output does not drain (backpressure)',
    async (order) => {
      const site = await ruled(5);
      const input: string[] = [];
      for (let n = 0; n < 20_000; n++) input.push(`${site.origin}/p/${n}`);
      const { state, lines } = counted(input);
      let drain = () => {};
      let chunks = 0;
      const done = runBatch({
        lines,
        order,
        window: 64,
        write: () => {
          chunks++;
          // The first chunk is never drained until the test says so.
          return chunks === 1
            ? new Promise<void>((r) => {
                drain = r;
              })
            : undefined;
        },
      });
      await vi.waitFor(() => expect(chunks).toBe(1));
      const pulledAtStall = state.pulled;
      await new Promise((r) => setTimeout(r, 50));
      expect(state.pulled).toBe(pulledAtStall);
      // One chunk (64 KiB of records) plus the window, not the whole input.
      expect(pulledAtStall).toBeLessThan(1000);
      drain();
      const summary: BatchProgress = await done;
      expect(summary.written).toBe(20_000);
      expect(site.requests).toEqual(['/robots.txt']);
    },
  );

  it('reads every line of a chunk at once, as one at a time would (any chunking, CRLF, UTF-8 split)', async () => {
    const enc = new TextEncoder();
    const line = fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\r', ' ', '#'), maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 12 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.array(fc.nat({ max: 40 }), { maxLength: 6 }),
        async (lines, eol, trailing, cuts) => {
          const text = lines.join(eol) + (trailing ? eol : '');
          const bytes = enc.encode(text);
          const at = [...new Set(cuts.map((c) => Math.min(c, bytes.length)))].sort((x, y) => x - y);
          async function* chunks() {
            let from = 0;
            for (const to of [...at, bytes.length]) {
              yield bytes.subarray(from, to);
              from = to;
            }
          }
          const batches: string[][] = [];
          let read = 0;
          for await (const batch of lineBatchesOf(chunks(), (n) => (read += n))) batches.push(batch);
          const single: string[] = [];
          for await (const l of linesOf(chunks())) single.push(l);
          // Every line once, in order; no empty batch; every byte counted.
          // Lines end at `\n`, less one `\r` before it; an empty last piece is no line.
          const expected = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
          if (text.endsWith('\n') || text === '') expected.pop();
          expect(batches.flat()).toEqual(expected);
          expect(single).toEqual(batches.flat());
          expect(batches.every((b) => b.length > 0)).toBe(true);
          expect(read).toBe(bytes.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('splits lines with a bounded buffer', async () => {
    const enc = new TextEncoder();
    async function* chunks() {
      yield enc.encode('a\r\nb');
      yield enc.encode('c\n');
      yield enc.encode(`${'x'.repeat(1_100_000)}`);
      yield enc.encode('tail\nlast');
    }
    const got: string[] = [];
    for await (const line of linesOf(chunks())) got.push(line.length > 20 ? `long:${line.length}` : line);
    expect(got).toEqual(['a', 'bc', 'long:1048576', 'last']);
  });
});

/**
 * `robotskit batch` keeps its memory bounded whatever the input's length: the real executable checks 300,000 URLs over
 * 200 origins (200 ports of this process, each a real HTTP server on 127.0.0.1) in a V8 heap capped at 48 MB, with
 * one robots.txt request per origin. Holding the output (a record per URL, about 75 MB of strings) would not fit.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir, tracked } from './cleanup.js';
import { BIN } from './helpers.js';
import { type Site, Sites } from './sites.js';

const sites = new Sites();
const origins: Site[] = [];

beforeAll(async () => {
  for (let i = 0; i < 200; i++) {
    origins.push(
      await sites.serve({
        '/robots.txt': {
          status: i % 25 === 0 ? 404 : 200,
          body: `User-agent: *\nDisallow: /private/\nAllow: /private/open-${i}\n${`Disallow: /*.pdf$\n# ${'x'.repeat(60)}\n`.repeat(50)}`,
        },
      }),
    );
  }
}, 60_000);
afterAll(() => sites.closeAll());

it('checks 300,000 URLs over 200 origins in a 48 MB heap, one robots.txt fetch per origin', async () => {
  const dir = tempDir('batch-memory');
  const input = join(dir, 'urls.txt');
  const output = join(dir, 'out.ndjson');
  const lines: string[] = [];
  const total = 300_000;
  for (let n = 0; n < total; n++) {
    const origin = origins[(n * 7) % origins.length]!.origin;
    lines.push(`${origin}/${n % 4 === 0 ? 'private' : 'page'}/${n}${n % 9 === 0 ? '.pdf' : ''}`);
  }
  writeFileSync(input, `${lines.join('\n')}\n`);
  const out = openSync(output, 'w');
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const child = tracked(
      spawn(process.execPath, ['--max-old-space-size=48', BIN, 'batch', input, '--concurrency', '16'], {
        stdio: ['ignore', out, 'pipe'],
      }),
    );
    let err = '';
    child.stderr?.on('data', (d) => {
      err += d;
    });
    child.on('close', (c) => resolve({ code: c, stderr: err }));
  });
  closeSync(out);
  expect(stderr).toMatch(
    /^robotskit: 300000 records: \d+ allowed, \d+ blocked, 0 invalid; 200 robots\.txt fetched, 0 unreachable\n$/,
  );
  expect(code).toBe(0);
  const records = readFileSync(output, 'utf8').trim().split('\n');
  expect(records).toHaveLength(total);
  let blocked = 0;
  records.forEach((line, k) => {
    const r = JSON.parse(line) as { index: number; allowed: boolean };
    expect(r.index).toBe(k + 1);
    if (!r.allowed) blocked++;
  });
  // Every 4th URL is under /private/ and every 9th ends in .pdf, except on the 404 origins.
  expect(blocked).toBeGreaterThan(0.25 * total);
  for (const site of origins) expect(site.requests).toEqual(['/robots.txt']);
}, 180_000);

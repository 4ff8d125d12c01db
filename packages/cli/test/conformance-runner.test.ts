/**
 * Google's conformance suite driven through the executable, as the upstream runner drives an implementation: the
 * robots.txt written to a temporary file, then `robotskit test <robots-file> <user-agent> <url>`, exit status 0 read as
 * allowed and 1 as disallowed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { specCases } from '../../robotskit/test/helpers.js';
import { spawn } from './helpers.js';

it('passes all 400 cases through `robotskit test`', async () => {
  const cases = specCases();
  const dir = mkdtempSync(join(tmpdir(), 'robotskit-spec-'));
  const failures: string[] = [];
  let next = 0;
  async function worker(): Promise<void> {
    while (next < cases.length) {
      const c = cases[next++]!;
      const file = join(dir, `case-${c.id}.txt`);
      writeFileSync(file, Buffer.from(c.robots_b64, 'base64'));
      const { code, stderr } = await spawn(['test', file, c.user_agent, c.url]);
      const got = code === 0 ? 'allowed' : code === 1 ? 'disallowed' : `exit ${code}: ${stderr}`;
      if (got !== c.expected) failures.push(`#${c.id} ${c.suite}: expected ${c.expected}, got ${got}`);
    }
  }
  await Promise.all(Array.from({ length: 4 }, worker));
  expect(failures).toEqual([]);
  expect(cases).toHaveLength(400);
}, 180_000);

/**
 * The browser harness cleans up after itself: its database and Chromium's profile live in one temporary folder, gone
 * after `close()`, and gone too when the browser cannot start.
 */

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { missingChromium, startHarness } from './harness.js';

describe.skipIf(missingChromium !== null)('the browser harness', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'robotskit-harness-test-'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps the database and the browser profile in its folder, and removes the folder on close', async () => {
    const h = await startHarness({}, { tempRoot: root });
    const [folder] = readdirSync(root);
    expect(readdirSync(join(root, folder!)).sort()).toEqual(
      expect.arrayContaining(['chromium-profile', 'robotskit.sqlite']),
    );
    const page = await h.open('/');
    await page.close();
    await h.close();
    expect(readdirSync(root)).toEqual([]);
  });

  it('removes its folder and stops the service when the browser cannot start', async () => {
    // A program that exits at once, as a broken Chromium would.
    await expect(startHarness({}, { tempRoot: root, chromiumPath: process.execPath })).rejects.toThrow();
    expect(readdirSync(root)).toEqual([]);
  });

  it('refuses a Chromium that does not exist before it writes anything', async () => {
    await expect(startHarness({}, { tempRoot: root, chromiumPath: join(root, 'no-such-chromium') })).rejects.toThrow(
      /Chromium not found at .*no-such-chromium/,
    );
    expect(readdirSync(root)).toEqual([]);
  });
});

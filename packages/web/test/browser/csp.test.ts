/**
 * The UI works under the service's Content-Security-Policy (own scripts and styles only, its engine worker, no
 * framing): the tester and the report pages load and compute without a single CSP violation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTUALLY, type Harness, missingChromium, startHarness, textOf } from './harness.js';

describe.skipIf(missingChromium !== null)('the UI under its Content-Security-Policy', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('loads the tester and the report with no CSP violation', async () => {
    for (const [path, heading] of [
      ['/', 'robots.txt tester'],
      ['/properties', 'Properties'],
    ] as const) {
      const page = await h.open(path);
      // Listen from the first byte: record violations in the page and on the console, then load it again.
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          const w = window as unknown as { csp?: string[] };
          w.csp ??= [];
          w.csp.push(`${e.violatedDirective} ${e.blockedURI}`);
        });
      });
      await page.reload();
      await expect.poll(() => textOf(page.getByRole('heading', { level: 1 })), EVENTUALLY).toContain(heading);
      if (path === '/') {
        // The verdict table is computed in the engine's worker: the worker loaded under the policy.
        await expect.poll(() => page.locator('table tbody tr').count(), EVENTUALLY).toBeGreaterThan(0);
      }
      expect(await page.evaluate(() => (window as unknown as { csp?: string[] }).csp ?? [])).toEqual([]);
      expect(violations).toEqual([]);
      await page.close();
    }
    expect(h.takePageErrors()).toEqual([]);
  }, 120_000);
});

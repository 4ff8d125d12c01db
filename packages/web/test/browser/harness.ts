/**
 * Browser tests: the real service (SQLite in a temporary folder) serving the built UI, driven by Debian's Chromium
 * through playwright-core. Without Chromium the tests are skipped with a message, except under `CI=true`, where they
 * fail: CI must run them.
 */

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { DEFAULT_WEB_ROOT } from '../../../server/src/http/web-ui.js';
import { type RunningService, type ServiceOptions, startService } from '../../../server/src/service.js';

/** Chromium to drive: `CHROMIUM_PATH`, else Debian's package. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const inCi = process.env.CI === 'true';

/** Why the browser tests cannot run here, or null when they can. */
export const missingChromium: string | null = existsSync(CHROMIUM_PATH)
  ? null
  : `Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;

if (missingChromium !== null) {
  if (inCi) throw new Error(`browser tests cannot run in CI: ${missingChromium}`);
  console.warn(`skipping browser tests: ${missingChromium}`);
}

/** The UI the service serves by default; the tests need it built (`npm run build`). */
const webRoot = DEFAULT_WEB_ROOT;

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/** Screenshots land here (gitignored); look at them after a run. */
export const SCREENSHOTS = join(repoRoot, 'test-results', 'screenshots');

/** Viewports every page is photographed at. */
export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  narrow: { width: 390, height: 844 },
} as const;

export interface Harness {
  service: RunningService;
  browser: Browser;
  context: BrowserContext;
  /** A new page at `path` of the service, desktop-sized unless told otherwise. */
  open(path: string, viewport?: keyof typeof VIEWPORTS): Promise<Page>;
  /** Uncaught exceptions in any page since the last call (each with the path the page was opened at); clears them. */
  takePageErrors(): string[];
  close(): Promise<void>;
}

/** Starts the service and Chromium. */
export async function startHarness(options: Partial<ServiceOptions> = {}): Promise<Harness> {
  if (!existsSync(join(webRoot, 'index.html'))) {
    throw new Error(`the web UI is not built (${webRoot} has no index.html): run npm run build first`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'robotskit-browser-'));
  const service = await startService({
    database: { dialect: 'sqlite', file: join(dir, 'robotskit.sqlite') },
    host: '127.0.0.1',
    port: 0,
    workers: 0,
    log: () => {},
    ...options,
  });
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      // Chromium's own services (autofill, sign-in, updates, safe browsing…) look up Google's hosts in the
      // background; tests keep every packet on loopback, so they are off.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-domain-reliability',
        '--disable-client-side-phishing-detection',
        '--disable-default-apps',
        '--no-first-run',
        '--no-default-browser-check',
        '--disable-quic',
        '--disable-features=AutofillServerCommunication,OptimizationHints,MediaRouter,Translate,CertificateTransparencyComponentUpdater',
        // And whatever is left: every name but localhost resolves to nothing, without asking a DNS server (the
        // tests use 127.0.0.1 literals).
        '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1',
      ],
    });
  } catch (error) {
    await service.close();
    throw error;
  }
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, locale: 'en-GB' });
  // A missing element fails its test with Playwright's message instead of running into the test timeout.
  context.setDefaultTimeout(15_000);
  mkdirSync(SCREENSHOTS, { recursive: true });
  let pageErrors: string[] = [];
  return {
    service,
    browser,
    context,
    async open(path, viewport = 'desktop') {
      const page = await context.newPage();
      await page.setViewportSize(VIEWPORTS[viewport]);
      page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`));
      await page.goto(new URL(path, service.url).href);
      return page;
    },
    takePageErrors() {
      const taken = pageErrors;
      pageErrors = [];
      return taken;
    },
    async close() {
      await browser.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot of `page` as `<name>-<viewport>.png`, at both viewports (restoring the first). */
export async function screenshots(page: Page, name: string): Promise<void> {
  const before = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.waitForTimeout(50);
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** The text of whatever matches `locator` right now, without waiting for it: for use inside `expect.poll`. */
export async function textOf(locator: Locator): Promise<string> {
  return (await locator.allTextContents()).join('');
}

/** `expect.poll` options for the UI: generous, since the machine may be busy (the tests never depend on speed). */
export const EVENTUALLY = { timeout: 15_000, interval: 50 } as const;

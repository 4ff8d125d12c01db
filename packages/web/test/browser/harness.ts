/**
 * Browser tests: the real service (`robotskit-server`, as its users start it; SQLite in a temporary folder) serving
 * the built UI, driven by Debian's Chromium through playwright-core. Without Chromium the tests are skipped with a
 * message, except under `CI=true`, where they fail: CI must run them. Everything a harness writes (the database, the
 * browser profile) is in one temporary folder, removed when it closes, when it fails to start, and at the latest
 * when the test process exits.
 */

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import axe from 'axe-core';
import { type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import type { RunningService, ServiceOptions } from 'robotskit-server';

/** Chromium to drive: `CHROMIUM_PATH`, else Debian's package. */
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const inCi = process.env.CI === 'true';

/** Why a Chromium at `path` cannot run, or null when it is there. */
function chromiumMissingAt(path: string): string | null {
  return existsSync(path) ? null : `Chromium not found at ${path} (apt-get install chromium, or set CHROMIUM_PATH)`;
}

/** Why the browser tests cannot run here, or null when they can. */
export const missingChromium: string | null = chromiumMissingAt(CHROMIUM_PATH);

if (missingChromium !== null) {
  if (inCi) throw new Error(`browser tests cannot run in CI: ${missingChromium}`);
  console.warn(`skipping browser tests: ${missingChromium}`);
}

/** The UI the service serves by default, `dist/web/` of the server package; the tests need it built (`npm run build`). */
const webRoot = join(dirname(createRequire(import.meta.url).resolve('robotskit-server/package.json')), 'dist', 'web');

/** Temporary folders of harnesses not closed yet: removed when the process exits, if a test never closed its own. */
const openFolders = new Set<string>();
process.on('exit', () => {
  for (const dir of openFolders) rmSync(dir, { recursive: true, force: true });
});

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
/** Screenshots land here (gitignored); look at them after a run. */
const SCREENSHOTS = join(repoRoot, 'test-results', 'screenshots');

/** Viewports every page is photographed (and checked for accessibility) at: a laptop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  narrow: { width: 390, height: 844 },
} as const;

/** axe-core's browser bundle, evaluated in the page (through the DevTools protocol, so the page's CSP allows it). */
const AXE_SOURCE: string = axe.source;

/**
 * The WCAG 2.2 A and AA rules axe-core finds serious or critical on `page` as it is now, one line each (rule, what it
 * asks, the elements): empty when there is none.
 *
 * axe reads the page over many tasks; a page that changes meanwhile (a check landing, a tooltip closing) can make axe
 * judge elements already gone, or fail inside axe (an element detached while axe builds its selector). So each run
 * watches the page for changes, and a run during which the page changed (or that failed) is run again, up to five
 * times, on the page as it then is. The result is always from one run on a page that held still; when the page never
 * holds still, this fails saying so (and with axe's own error, if it had one).
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const attempts: string[] = [];
  for (let attempt = 1; attempt <= 5; attempt++) {
    const run = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<AxeResults> } }).axe;
      interface AxeResults {
        violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
      }
      let changed = false;
      const watch = new MutationObserver(() => {
        changed = true;
      });
      watch.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      try {
        const results = await axe.run(document, {
          runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
        });
        // Changes not yet delivered to the observer count too. (Changes axe itself made would show here as well; it
        // makes none, and the loop's limit ends it if it ever did.)
        if (watch.takeRecords().length > 0) changed = true;
        return {
          changed,
          error: null,
          violations: results.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            targets: v.nodes.map((n) => JSON.stringify(n.target)),
          })),
        };
      } catch (error) {
        return { changed, error: String(error), violations: [] };
      } finally {
        watch.disconnect();
      }
    });
    if (!run.changed && run.error === null) {
      return run.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.length}: ${v.targets.slice(0, 5).join(', ')})`);
    }
    attempts.push(run.error ?? 'the page changed during the run');
    await page.waitForTimeout(250 * attempt);
  }
  throw new Error(`axe found no moment the page held still over 5 runs: ${attempts.join('; ')}`);
}

/** A running service and browser for one test file. */
export interface Harness {
  service: RunningService;
  context: BrowserContext;
  /** A new page at `path` of the service, desktop-sized unless told otherwise. */
  open(path: string, viewport?: keyof typeof VIEWPORTS): Promise<Page>;
  /** Uncaught exceptions in any page since the last call (each with the path the page was opened at); clears them. */
  takePageErrors(): string[];
  /** Closes the browser and the service, and removes the temporary folder (even when closing fails). */
  close(): Promise<void>;
}

/** Where the harness runs: for the harness's own tests. */
interface HarnessPlace {
  /** Chromium to drive. @default {@link CHROMIUM_PATH} */
  chromiumPath?: string;
  /** Where the temporary folder goes. @default the system's temporary folder */
  tempRoot?: string;
}

/**
 * Chromium with its own services off (autofill, sign-in, updates, safe browsing… look up Google's hosts in the
 * background; tests keep every packet on loopback) and a resolver that answers only for localhost and 127.0.0.1.
 */
const CHROMIUM_ARGS = [
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
  // Every name but localhost resolves to nothing, without asking a DNS server (the tests use 127.0.0.1 literals).
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1',
];

/** Runs every step, in order, even when one fails; throws the first failure. */
async function allOf(steps: readonly (() => unknown)[]): Promise<void> {
  let failure: { error: unknown } | null = null;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/** Starts the service and Chromium, both writing only into one new temporary folder. */
export async function startHarness(options: Partial<ServiceOptions> = {}, place: HarnessPlace = {}): Promise<Harness> {
  if (!existsSync(join(webRoot, 'index.html'))) {
    throw new Error(`the web UI is not built (${webRoot} has no index.html): run npm run build first`);
  }
  const chromiumPath = place.chromiumPath ?? CHROMIUM_PATH;
  // Playwright leaves a folder of its own behind when the executable is missing: refuse before it runs.
  const missing = chromiumMissingAt(chromiumPath);
  if (missing !== null) throw new Error(missing);
  // Loaded here rather than at the top, so that an unbuilt server package gets the message above, not an import error.
  const { startService } = await import('robotskit-server');
  const dir = mkdtempSync(join(place.tempRoot ?? tmpdir(), 'robotskit-browser-'));
  openFolders.add(dir);
  const removeFolder = () => {
    rmSync(dir, { recursive: true, force: true });
    openFolders.delete(dir);
  };
  let service: RunningService | null = null;
  let context: BrowserContext;
  try {
    service = await startService({
      database: { dialect: 'sqlite', file: join(dir, 'robotskit.sqlite') },
      host: '127.0.0.1',
      port: 0,
      workers: 0,
      log: () => {},
      ...options,
    });
    // A persistent context keeps the browser profile in our folder, where closing removes it.
    context = await chromium.launchPersistentContext(join(dir, 'chromium-profile'), {
      executablePath: chromiumPath,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORTS.desktop,
      locale: 'en-GB',
    });
  } catch (error) {
    const started = service;
    await allOf([() => started?.close(), removeFolder]).catch(() => {});
    throw error;
  }
  const running = service;
  // A missing element fails its test with Playwright's message instead of running into the test timeout.
  context.setDefaultTimeout(15_000);
  // The blank page a persistent context opens with; tests open their own.
  for (const page of context.pages()) await page.close();
  mkdirSync(SCREENSHOTS, { recursive: true });
  let pageErrors: string[] = [];
  return {
    service: running,
    context,
    async open(path, viewport = 'desktop') {
      const page = await context.newPage();
      await page.setViewportSize(VIEWPORTS[viewport]);
      page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`));
      await page.goto(new URL(path, running.url).href);
      return page;
    },
    takePageErrors() {
      const taken = pageErrors;
      pageErrors = [];
      return taken;
    },
    close: () => allOf([() => context.close(), () => running.close(), removeFolder]),
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

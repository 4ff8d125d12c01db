/**
 * The tester's AI usage column in Chromium, driven by the engine's published vector suite (robotskit's
 * vectors/aipref.json): every case's robots.txt pasted into the editor (UTF-8 cases) or loaded live from a real HTTP
 * server on 127.0.0.1 (cases whose bytes are not UTF-8), its URL and crawler asked, and the column as shown read back
 * into the suite's terms (crawlable, preferences, deciding lines, Content-Signal) and compared with the expectation;
 * and the "By purpose" view: every catalogue crawler of a purpose (or every AI crawler) against each URL, in sets that
 * get the same verdict and usage preferences.
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { AI_PURPOSES, CRAWLERS } from 'robotskit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type AiprefCase, caseBytes, AIPREF_SUITE as SUITE } from '../../../robotskit/test/aipref-vectors.js';
import {
  EVENTUALLY,
  type Harness,
  missingChromium,
  screenshots,
  seriousAxeViolations,
  startHarness,
  textOf,
} from './harness.js';

/** The row as shown: the verdict badge, and the usage column's parts as text (null: no usage column). */
interface ShownRow {
  readonly allowed: boolean;
  readonly usage: {
    readonly text: string;
    readonly ruleLines: string[];
    readonly preferences: string | null;
    readonly signalLines: string | null;
    readonly signals: string | null;
    readonly signalMapped: string | null;
  } | null;
}

function shownRows(page: Page): Promise<ShownRow[]> {
  return page.$$eval('table.results tbody tr', (rows) =>
    rows.map((row) => {
      const cell = row.querySelector('td.usage-cell');
      const text = (e: Element | null | undefined) => (e ? (e.textContent ?? '').trim() : null);
      return {
        allowed: (row.querySelector('td')?.textContent ?? '').includes('Allowed'),
        usage:
          cell === null
            ? null
            : {
                text: text(cell) ?? '',
                ruleLines: Array.from(cell.querySelectorAll('.usage-rule .line-ref'), (e) => text(e) ?? ''),
                preferences: text(cell.querySelector('.usage-preferences')),
                signalLines: text(cell.querySelector('.usage-signal > .line-ref')),
                signals: text(cell.querySelector('.usage-signals')),
                signalMapped: text(cell.querySelector('.usage-signal-mapped')),
              },
      };
    }),
  );
}

const PREFERENCE = { yes: 'allow', no: 'disallow' } as const;

/** `train-ai: no · search: yes` read back into `{ 'train-ai': 'disallow', search: 'allow' }`. */
function preferencesOf(words: string | null): Record<string, string> {
  if (words === null || words === 'every category unknown') return {};
  return Object.fromEntries(
    words.split(' · ').map((part) => {
      const [label, word] = part.split(': ') as [string, keyof typeof PREFERENCE];
      return [label, PREFERENCE[word]];
    }),
  );
}

/** `line 2` / `lines 2, 5` read back into line numbers. */
function linesOf(words: string | null): number[] {
  return words === null ? [] : (words.match(/\d+/g) ?? []).map(Number);
}

/** The row read back into the suite's terms (what the engine's runner compares). */
function asCase(c: AiprefCase, row: ShownRow): Record<string, unknown> {
  const u = row.usage;
  const actual: Record<string, unknown> = {
    crawlable: row.allowed,
    preferences: preferencesOf(u?.preferences ?? null),
    lines: (u?.ruleLines ?? []).flatMap(linesOf),
  };
  if ('content_signal' in c.expected) {
    actual.content_signal =
      u === null || u.signals === null
        ? null
        : {
            lines: linesOf(u.signalLines),
            signals: Object.fromEntries(
              u.signals
                .replace(/^Content-Signal:\s*/, '')
                .split(', ')
                .map((kv) => kv.split('=') as [string, string]),
            ),
            preferences: preferencesOf(u.signalMapped?.replace(/^as /, '') ?? null),
          };
  }
  return actual;
}

/**
 * The case's expectation as the column can show it: the signals with no category of the same use (`unmapped`) are
 * among the signals as stated, shown side by side with those carried over, not listed apart.
 */
function shownExpectation(c: AiprefCase): Record<string, unknown> {
  const signal = c.expected.content_signal;
  if (signal === undefined || signal === null) return { ...c.expected };
  return {
    ...c.expected,
    content_signal: { lines: signal.lines, signals: signal.signals, preferences: signal.preferences },
  };
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

async function paste(page: Page, text: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'robots.txt' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await editor.evaluate((element, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
  await expect.poll(async () => (await page.locator('.cm-line').allTextContents()).join('\n'), EVENTUALLY).toBe(text);
}

/** Asks the case's question of the file shown, and waits for the column to settle on the case's expectation. */
async function ask(page: Page, c: AiprefCase): Promise<void> {
  await page.getByRole('textbox', { name: 'URLs' }).fill(c.url);
  await page.getByRole('combobox', { name: 'Crawler' }).fill(c.user_agent);
  // The worker answers each edit in turn: the column is polled until it shows this file's answer (or the wait ends).
  await expect
    .poll(async () => (await shownRows(page)).map((row) => asCase(c, row)), { ...EVENTUALLY, timeout: 30_000 })
    .toEqual([shownExpectation(c)]);
}

/** axe's serious findings once the page has stopped changing (the worker's later answers, lint, the link). */
async function axeWhenQuiet(page: Page): Promise<string[]> {
  // Out of the crawler field, whose suggestions would open and close under axe.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  let last = '';
  await expect
    .poll(async () => {
      const now = await page.locator('body').innerHTML();
      const same = now === last && !/Checking…/.test(now);
      last = now;
      return same;
    }, EVENTUALLY)
    .toBe(true);
  return seriousAxeViolations(page);
}

describe.skipIf(missingChromium !== null)('the tester’s AI usage column in Chromium', () => {
  let h: Harness;
  const servers: { url: string; close: () => void }[] = [];

  /** A real HTTP server on 127.0.0.1 serving `body` as its robots.txt. */
  async function serve(body: Uint8Array): Promise<string> {
    const served = await new Promise<{ url: string; close: () => void }>((resolve) => {
      const server = createServer((request, response) => {
        if (request.url === '/robots.txt') response.writeHead(200, { 'content-type': 'text/plain' }).end(body);
        else response.writeHead(404).end();
      });
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
      });
    });
    servers.push(served);
    return served.url;
  }

  beforeAll(async () => {
    h = await startHarness({ allowPrivateAddresses: true });
  });
  afterEach(() => {
    expect(h.takePageErrors()).toEqual([]);
  });
  afterAll(async () => {
    for (const s of servers.splice(0)) s.close();
    await h?.close();
  });

  it('every vector of the suite gives its expected answer in the usage column', async () => {
    const page = await h.open('/');
    for (const c of SUITE.cases) {
      const bytes = caseBytes(c);
      if (isUtf8(bytes)) {
        await paste(page, new TextDecoder().decode(bytes));
      } else {
        // Bytes that are not UTF-8 cannot be typed: loaded live, the engine decides on them as served.
        const origin = await serve(bytes);
        await page.getByRole('textbox', { name: 'Live file' }).fill(origin);
        await page.getByRole('button', { name: 'Load', exact: true }).click();
        await expect
          .poll(() => textOf(page.locator('.notice')), EVENTUALLY)
          .toContain(`Loaded ${origin}/robots.txt (HTTP 200, `);
      }
      await ask(page, c);
      if (!isUtf8(bytes)) await page.getByRole('button', { name: 'Dismiss' }).click();
    }
    await page.close();
  }, 300_000);

  it('shows the column in words only when the file has usage lines, and stays accessible', async () => {
    const page = await h.open('/');
    const example = SUITE.cases.find((x) => x.id === 'attach-example-other-test')!;
    await paste(page, example.robots_txt!);
    await page
      .getByRole('textbox', { name: 'URLs' })
      .fill(
        ['https://example.com/test', 'https://example.com/never/test', 'https://example.com/ai-ok/test'].join('\n'),
      );
    await page.getByRole('combobox', { name: 'Crawler' }).fill('SomeBot');
    await expect
      .poll(() => page.locator('table.results tbody tr').allTextContents(), EVENTUALLY)
      .toEqual([
        expect.stringMatching(/^Allowed.*\/test.*line 4 \/ train-ai=n\s*train-ai: no$/),
        expect.stringMatching(/^Blocked.*\/never\/test.*None: preferences apply only to URLs the crawler may fetch$/),
        expect.stringMatching(/^Allowed.*\/ai-ok\/test.*line 5 \/ai-ok\/ train-ai=y\s*train-ai: yes$/),
      ]);
    expect(await page.getByRole('columnheader', { name: 'AI usage' }).count()).toBe(1);
    expect(await page.locator('.usage-preferences').first().getAttribute('title')).toBe('train-ai: AI Training');
    expect(await axeWhenQuiet(page)).toEqual([]);
    await screenshots(page, 'tester-usage');

    // Content-Signal, with what it carries over to the vocabulary's categories.
    await paste(page, 'User-Agent: *\nContent-Signal: search=yes, ai-input=no, ai-train=no, use=reference\nAllow: /\n');
    await page.getByRole('textbox', { name: 'URLs' }).fill('https://example.com/a');
    await page.getByRole('combobox', { name: 'Crawler' }).fill('Googlebot');
    await expect
      .poll(() => textOf(page.locator('td.usage-cell')), EVENTUALLY)
      .toBe(
        'No Content-Usage rule matchesline 2 Content-Signal: search=yes, ai-input=no, ai-train=no, use=referenceas search: yes · train-ai: no',
      );
    expect(await axeWhenQuiet(page)).toEqual([]);

    // A file without usage lines has no usage column.
    await paste(page, 'User-agent: *\nDisallow: /x\n');
    await expect.poll(() => page.getByRole('columnheader').allTextContents(), EVENTUALLY).not.toContain('AI usage');
    expect(await page.locator('td.usage-cell').count()).toBe(0);
    await page.close();
  });

  it('shows every crawler of a purpose against each URL, in sets with one verdict and one usage answer', async () => {
    const page = await h.open('/');
    const example = SUITE.cases.find((x) => x.id === 'attach-example-other-test')!;
    // The draft's example, with GPTBot and Google-Extended kept out by a group of their own.
    const text = `${example.robots_txt!.trimEnd()}\n\nUser-Agent: GPTBot\nUser-Agent: Google-Extended\nDisallow: /\n`;
    await paste(page, text);
    const lineOf = (line: string) => text.split('\n').lastIndexOf(line) + 1;
    await page
      .getByRole('textbox', { name: 'URLs' })
      .fill(['https://example.com/test', 'https://example.com/never/test'].join('\n'));
    await page.getByRole('tab', { name: 'By purpose' }).click();
    const purpose = page.getByRole('combobox', { name: 'Purpose' });
    expect(await purpose.inputValue()).toBe('ai');
    const aiCrawlers = CRAWLERS.filter((c) => AI_PURPOSES.includes(c.purpose)).map((c) => c.name);
    const own: string[] = aiCrawlers.filter((name) => name === 'GPTBot' || name === 'Google-Extended');
    const rest = aiCrawlers.length - own.length;
    const rows = page.locator('table.purpose-table tbody tr');
    const none = 'None: preferences apply only to URLs the crawler may fetch';
    const ownRow = (url: string) => [
      url,
      `2 crawlers: ${own.join(', ')}`,
      'Blocked',
      `line ${lineOf('Disallow: /')} disallow: /their own group`,
      none,
    ];
    const starRow = (url: string, verdict: string, rule: string, usage: string) => [
      url,
      expect.stringMatching(new RegExp(`^${rest} crawlers: .* and ${rest - 3} more`)),
      verdict,
      rule,
      usage,
    ];
    // Sets in the catalogue's order of their first crawler.
    const ownFirst = own.includes(aiCrawlers[0]!);
    const pair = (a: unknown[], b: unknown[]) => (ownFirst ? [b, a] : [a, b]);
    // /test: the * group's crawlers may fetch it (train-ai=n, line 4); GPTBot and Google-Extended may not.
    // /never/test: nobody may, by two different lines.
    await expect
      .poll(
        () =>
          rows.evaluateAll((trs: HTMLTableRowElement[]) =>
            trs.map((tr) => Array.from(tr.cells, (td) => (td.textContent ?? '').trim())),
          ),
        EVENTUALLY,
      )
      .toEqual([
        ...pair(
          starRow(
            'https://example.com/test',
            'Allowed',
            'line 2 allow: /the * group',
            'line 4 / train-ai=ntrain-ai: no',
          ),
          ownRow('https://example.com/test'),
        ),
        ...pair(
          starRow('https://example.com/never/test', 'Blocked', 'line 3 disallow: /never/the * group', none),
          ownRow('https://example.com/never/test'),
        ),
      ]);
    expect(await page.getByRole('columnheader', { name: 'AI usage' }).count()).toBe(1);
    // The long list of names unfolds.
    const long = rows.filter({ has: page.locator('details') }).first();
    await long.locator('summary').click();
    expect(await textOf(long.locator('details'))).toContain('ClaudeBot');
    expect(await axeWhenQuiet(page)).toEqual([]);
    await screenshots(page, 'tester-purpose');

    // One purpose: control tokens, each a crawler of the catalogue.
    const allAiLink = await page.evaluate(() => location.hash);
    await purpose.selectOption({ label: 'Control token' });
    // Each token is its own set at /test: Google-Extended kept out by its group, Applebot-Extended by nothing.
    const tokens = CRAWLERS.filter((c) => c.purpose === 'control-token').map((c) => c.name);
    const verdictAtTest = (name: string) => (name === 'Google-Extended' ? 'Blocked' : 'Allowed');
    await expect
      .poll(
        () =>
          rows.evaluateAll((trs: HTMLTableRowElement[]) =>
            trs.map((tr) => [(tr.cells[1]?.textContent ?? '').trim(), (tr.cells[2]?.textContent ?? '').trim()]),
          ),
        EVENTUALLY,
      )
      .toEqual([
        ...tokens.map((name) => [`1 crawler: ${name}`, verdictAtTest(name)]),
        ...tokens.map((name) => [`1 crawler: ${name}`, 'Blocked']),
      ]);
    expect(tokens).toEqual(expect.arrayContaining(['Google-Extended', 'Applebot-Extended']));

    // The link carries the view and its purpose: opened elsewhere, it shows the same table.
    await expect.poll(() => page.evaluate(() => location.hash), EVENTUALLY).not.toBe(allAiLink);
    const link = await page.evaluate(() => location.hash);
    expect(link).toMatch(/^#s=/);
    const table = () =>
      rows.evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => (tr.cells[1]?.textContent ?? '').trim()));
    const shown = await table();
    const opened = await h.open(`/${link}`);
    await expect.poll(() => opened.getByRole('tab', { name: 'By purpose' }).getAttribute('aria-selected')).toBe('true');
    expect(await opened.getByRole('combobox', { name: 'Purpose' }).inputValue()).toBe('control-token');
    await expect
      .poll(
        () =>
          opened
            .locator('table.purpose-table tbody tr')
            .evaluateAll((trs: HTMLTableRowElement[]) => trs.map((tr) => (tr.cells[1]?.textContent ?? '').trim())),
        EVENTUALLY,
      )
      .toEqual(shown);
    await opened.close();
    // Back to one crawler: the link no longer opens the purpose view.
    await page.getByRole('tab', { name: 'Results' }).click();
    await expect.poll(() => page.evaluate(() => location.hash), EVENTUALLY).not.toBe(link);
    const plain = await h.open(`/${await page.evaluate(() => location.hash)}`);
    await expect.poll(() => plain.getByRole('tab', { name: 'Results' }).getAttribute('aria-selected')).toBe('true');
    await plain.close();
    await page.close();
  });
});

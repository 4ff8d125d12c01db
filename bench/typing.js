/**
 * Typing in the web tester on a 500 KiB robots.txt, in Chromium (`npm run bench -- typing`; needs the UI built and
 * /usr/bin/chromium or CHROMIUM_PATH). A person types a rule at the end of the file, one key every 120 ms; each key
 * makes the rule longer, and the verdict of the URL tested is decided by it, so every key changes the deciding rule
 * shown. Two numbers per key, p50 and p90 over the keys:
 * - keystroke → paint: the browser's Event Timing duration of the key (from the key event to the next paint after
 *   its handlers): how long the page takes to show the character;
 * - keystroke → verdict painted: from the key event to the paint after the results table shows the rule as typed up
 *   to that key (the 60 ms pause in typing included): how long the verdict lags behind the text.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startService } from 'robotskit-server';
import { fmt, table } from './harness.js';

const KEY_GAP_MS = 120;
const TYPED = 'qrstuvwxyzabcdefghijklmnopqrstuv';

/** About 500 KiB: a few named groups, then a `*` group of many distinct rules, ending with the rule being typed. */
function bigFile() {
  let text = '# A large site\n';
  for (const bot of ['Bingbot', 'GPTBot', 'CCBot']) {
    text += `User-agent: ${bot}\n`;
    for (let i = 0; i < 200; i++) text += `Disallow: /${bot.toLowerCase()}-only/${i}/\n`;
    text += '\n';
  }
  text += 'User-agent: *\n';
  let i = 0;
  while (text.length < 500 * 1024 - 4096) {
    text += `Disallow: /catalogue/section-${i % 97}/item-${i}/*.json$\nAllow: /catalogue/section-${i % 97}/item-${i}/public/\n`;
    i++;
  }
  return `${text}Disallow: /p`;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function runTypingBench() {
  const dir = mkdtempSync(join(tmpdir(), 'robotskit-typing-'));
  const body = bigFile();
  const origin = createServer((request, response) => {
    response.writeHead(request.url === '/robots.txt' ? 200 : 404, { 'content-type': 'text/plain' });
    response.end(request.url === '/robots.txt' ? body : '');
  });
  await new Promise((resolve) => origin.listen(0, '127.0.0.1', resolve));
  const site = `http://127.0.0.1:${origin.address().port}`;
  const service = await startService({
    database: { dialect: 'sqlite', file: join(dir, 'db.sqlite') },
    host: '127.0.0.1',
    port: 0,
    workers: 0,
    allowPrivateAddresses: true,
    log: () => {},
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${service.url}/`);
    await page.getByRole('textbox', { name: 'URLs' }).fill(`${site}/pqrstuvwxyzabcdefghijklmnopqrstuvwxyz`);
    await page.getByRole('textbox', { name: 'Live file' }).fill(`${site}/robots.txt`);
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.locator('.results .rule', { hasText: 'disallow: /p' }).first().waitFor({ timeout: 60_000 });
    // Lint of the loaded file done: the measured keys start from a quiet page.
    await page.locator('.linting').waitFor({ state: 'detached', timeout: 60_000 });
    await page.evaluate(() => {
      const w = window;
      w.keyTimes = [];
      w.eventDurations = [];
      w.rulePaints = [];
      document.addEventListener('keydown', (event) => w.keyTimes.push(event.timeStamp), true);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) if (entry.name === 'keydown') w.eventDurations.push(entry.duration);
      }).observe({ type: 'event', durationThreshold: 16, buffered: false });
      let last = '';
      new MutationObserver(() => {
        const rule = document.querySelector('.results .rule')?.textContent ?? '';
        if (rule === last) return;
        last = rule;
        requestAnimationFrame(() => setTimeout(() => w.rulePaints.push([rule, performance.now()]), 0));
      }).observe(document.querySelector('.tester') ?? document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    const editor = page.getByRole('textbox', { name: 'robots.txt' });
    const cdp = process.env.PROFILE ? await page.context().newCDPSession(page) : null;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    await editor.click();
    await page.keyboard.press('ControlOrMeta+End');
    for (const key of TYPED) {
      await page.keyboard.press(key);
      await page.waitForTimeout(KEY_GAP_MS);
    }
    const final = `disallow: /p${TYPED}`;
    await page.locator('.results .rule', { hasText: final }).first().waitFor({ timeout: 60_000 });
    await page.waitForTimeout(500);
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      const self = new Map();
      const dt = profile.timeDeltas;
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      profile.samples.forEach((id, i) => {
        const n = byId.get(id);
        const key = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
        self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
      });
      console.log(
        [...self]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 25)
          .map(([k, v]) => `${v.toFixed(0)} ms ${k}`)
          .join('\n'),
      );
    }
    const { keyTimes, eventDurations, rulePaints } = await page.evaluate(() => ({
      keyTimes: window.keyTimes,
      eventDurations: window.eventDurations,
      rulePaints: window.rulePaints,
    }));
    const verdictLags = [];
    for (let k = 0; k < TYPED.length; k++) {
      const typed = `disallow: /p${TYPED.slice(0, k + 1)}`;
      // The first paint showing this key's rule or a later one (a later key's answer covers the earlier keys).
      const shown = rulePaints.find(([rule]) => rule.startsWith('disallow: /p') && rule.length >= typed.length);
      if (shown) verdictLags.push(shown[1] - keyTimes[k]);
    }
    // Keys under 16 ms are not reported by Event Timing: count them as 16 (an upper bound).
    const paints = [...eventDurations, ...Array(Math.max(0, TYPED.length - eventDurations.length)).fill(16)];
    table(
      `Typing in the tester (${fmt(body.length / 1024, 0)} KiB file, ${TYPED.length} keys ${KEY_GAP_MS} ms apart, Chromium)`,
      ['measure', 'p50 ms', 'p90 ms', 'max ms'],
      [
        [
          'keystroke → paint',
          fmt(percentile(paints, 50), 0),
          fmt(percentile(paints, 90), 0),
          fmt(Math.max(...paints), 0),
        ],
        [
          'keystroke → verdict painted',
          fmt(percentile(verdictLags, 50), 0),
          fmt(percentile(verdictLags, 90), 0),
          fmt(Math.max(...verdictLags), 0),
        ],
      ],
    );
  } finally {
    await browser.close();
    await service.close();
    origin.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The progress line `batch` draws on standard error when it is a terminal (a bar when the input's size is known, a
 * file, else counters), and the summary it ends with on standard error, terminal or not. Redrawn at most ten times a second, in place (`\r`, erase to end of line), never wider than
 * the terminal (a wrapped line could not be redrawn in place: each redraw would leave a line behind), and cleared at
 * the end so the terminal is left clean. A dozen lines; a library would add more than it saves.
 */

import type { BatchProgress } from './types.js';

const WIDTH = 24;

const n = (count: number): string => count.toLocaleString('en-US');
const plural = (count: number, one: string, many: string): string => `${n(count)} ${count === 1 ? one : many}`;

/**
 * Formats one progress line: the URLs checked (each allowed, blocked or not a URL: the three add up), the records
 * written and the rate of checking, the robots.txt fetches, and what the output waits for when it waits (in input
 * order one slow site holds back every later record: it is named, with how long it has been waited for).
 * `total` is the input's size in bytes when known, `read` what was read of it.
 */
export function progressLine(p: BatchProgress, read: number, total: number | null, elapsedMs: number): string {
  const checked = p.allowed + p.blocked + p.invalid;
  const rate = elapsedMs > 0 ? Math.round((checked * 1000) / elapsedMs) : 0;
  const parts = [
    `${plural(checked, 'URL', 'URLs')} checked (${n(p.allowed)} allowed, ${n(p.blocked)} blocked, ${n(p.invalid)} invalid), ${n(p.written)} written, ${n(rate)}/s`,
  ];
  // Before the fetch counts: on a narrow terminal, what holds the output back is what the line must still show.
  if (p.waitingFor !== null) {
    const { origin, line, ms } = p.waitingFor;
    parts.push(`waiting ${Math.floor(ms / 1000)} s for ${origin}/robots.txt (line ${n(line)})`);
  }
  parts.push(`${n(p.fetches)} robots.txt fetched, ${n(p.activeFetches)} fetching`);
  const counts = parts.join('; ');
  if (total === null || total === 0) return counts;
  const share = Math.min(1, read / total);
  const filled = Math.round(share * WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ${counts}`;
}

/** The summary a finished run ends with on standard error. */
export function summaryLine(p: BatchProgress): string {
  return `robotskit: ${p.written} record${p.written === 1 ? '' : 's'}: ${p.allowed} allowed, ${p.blocked} blocked, ${p.invalid} invalid; ${p.fetches} robots.txt fetched, ${p.unreachable} unreachable\n`;
}

/** A throttled progress display writing to `write`. */
export class ProgressDisplay {
  private last = 0;
  private readonly start = Date.now();
  read = 0;

  /**
   * @param columns The terminal's width now (it may change while the line is shown); undefined or 0 when unknown (80
   * is assumed).
   */
  constructor(
    private readonly write: (text: string) => unknown,
    private readonly total: number | null,
    private readonly columns: () => number | undefined = () => undefined,
  ) {}

  update(p: BatchProgress): void {
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    // One column short of the width: a line that fills the last column wraps on some terminals. A terminal that
    // reports no width (0, as a pseudo-terminal without a size does) counts as 80 columns.
    const columns = this.columns();
    const width = (columns !== undefined && columns > 1 ? columns : 80) - 1;
    this.write(`\r${progressLine(p, this.read, this.total, now - this.start).slice(0, width)}\u001b[K`);
  }

  /** Erases the line. */
  clear(): void {
    if (this.last !== 0) this.write('\r\u001b[K');
  }
}

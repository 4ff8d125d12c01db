/**
 * `robotskit lint` for people: each diagnostic like a compiler's, with the offending line and a caret underline.
 */

import type { Diagnostic, Severity } from 'robotskit/lint';
import type { Paint } from '../paint.js';
import { type BytePositions, spanOf } from './positions.js';

const COLOUR: Record<Severity, 'red' | 'yellow' | 'cyan'> = { error: 'red', warning: 'yellow', info: 'cyan' };

/** Longest stretch of a line shown; longer lines are shown around the problem. */
const WINDOW = 110;

/** How a code point is shown: control characters and a BOM as escapes, a tab as one space (so carets line up). */
function cell(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  if (ch === '\t') return ' ';
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
  if (code === 0xfeff) return '<BOM>';
  if (code === 0x200b) return '<ZWSP>';
  return ch;
}

/** The line as shown, and a map from UTF-16 index in the line to position in the shown string. */
function render(text: string): { shown: string; at: (index: number) => number } {
  let shown = '';
  const offsets: number[] = [];
  let units = 0;
  let total = 0;
  for (const ch of text) {
    for (let k = 0; k < ch.length; k++) offsets[units + k] = total;
    const c = cell(ch);
    shown += c;
    total += c === ch ? 1 : c.length;
    units += ch.length;
  }
  return { shown, at: (index) => (index >= units ? total + (index - units) : (offsets[index] ?? total)) };
}

/** The source line of a diagnostic with a caret underline of its range (its first line for multi-line ranges). */
function excerpt(positions: BytePositions, d: Diagnostic, paint: Paint, gutter: number): string[] {
  const { start, end } = spanOf(positions, d.range);
  const text = positions.lineText(start.line);
  const { shown, at } = render(text);
  const chars = [...shown];
  const from = at(start.column - 1);
  const to = end.line === start.line ? Math.max(at(end.column - 1), from + 1) : Math.max(chars.length, from + 1);
  let first = 0;
  let last = chars.length;
  if (chars.length > WINDOW) {
    first = Math.max(0, Math.min(from - 30, chars.length - WINDOW));
    last = Math.min(chars.length, first + WINDOW);
  }
  const head = first > 0 ? '…' : '';
  const tail = last < chars.length ? '…' : '';
  const caretFrom = from - first + head.length;
  const caretTo = Math.min(to, last) - first + head.length;
  const pad = ' '.repeat(gutter);
  const bar = paint('dim', '|');
  return [
    `${paint('dim', String(start.line).padStart(gutter))} ${bar} ${head}${chars.slice(first, last).join('')}${tail}`,
    `${pad} ${bar} ${' '.repeat(Math.max(0, caretFrom))}${paint(COLOUR[d.severity], '^'.repeat(Math.max(1, caretTo - caretFrom)))}`,
  ];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 || word === 'info' ? '' : 's'}`;
}

/** Counts by severity, as a phrase: `2 errors, 1 warning, 3 info`. */
export function summary(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return 'no problems found';
  const count = (s: Severity) => diagnostics.filter((d) => d.severity === s).length;
  return [plural(count('error'), 'error'), plural(count('warning'), 'warning'), plural(count('info'), 'info')].join(
    ', ',
  );
}

/** The whole report, as text. */
export function formatText(
  diagnostics: readonly Diagnostic[],
  positions: BytePositions,
  name: string,
  paint: Paint,
): string {
  const out: string[] = [];
  // The widest line number; the last diagnostic starts on the last line (diagnostics come sorted by offset).
  const lastLine =
    diagnostics.length === 0 ? 1 : positions.position(diagnostics[diagnostics.length - 1]!.range.start).line;
  const gutter = String(lastLine).length;
  for (const d of diagnostics) {
    const { start } = spanOf(positions, d.range);
    const where = paint('bold', `${name}:${start.line}:${start.column}:`);
    out.push(`${where} ${paint(COLOUR[d.severity], d.severity)}: ${d.message} ${paint('dim', `[${d.code}]`)}`);
    out.push(...excerpt(positions, d, paint, gutter));
    if (d.fix) out.push(`${' '.repeat(gutter)} ${paint('dim', '=')} fix: ${d.fix.description}`);
    out.push('');
  }
  out.push(`${paint('bold', name)}: ${summary(diagnostics)}`);
  return `${out.join('\n')}\n`;
}

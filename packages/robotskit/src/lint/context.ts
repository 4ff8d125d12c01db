/**
 * The file being linted, as rules see it (see {@link LintContext}): the parsed model and records, the input's text in
 * its own units, and analyses shared between rules, each computed on first use.
 */

import type { SourceText } from '../model/source-text.js';
import type { Range, RobotsRecord } from '../model/types.js';
import { utf8Decoder as utf8 } from '../parse/input.js';
import { type CharCodes, LineCounter } from '../parse/line-counter.js';
import { isAsciiSpace, MAX_LINE_BYTES } from '../parse/lines.js';
import { type RobotsTxt, sourceOf } from '../robots-txt/robots-txt.js';
import type { LintContext, Report, SharedAnalysis } from './rule.js';

/** The UTF-8 length of the UTF-16 unit at `i` of `text` (0 for the low half of a surrogate pair, counted with its high half). */
function utf8LengthAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = text.charCodeAt(i + 1);
    return d >= 0xdc00 && d <= 0xdfff ? 4 : 3;
  }
  if (c >= 0xdc00 && c <= 0xdfff) {
    const p = text.charCodeAt(i - 1);
    return p >= 0xd800 && p <= 0xdbff ? 0 : 3;
  }
  return 3;
}

/** A file being linted. Rules reach it through {@link LintContext}. */
export class LintFile implements LintContext {
  readonly robots: RobotsTxt;
  readonly units: string;
  readonly unit: 'utf-16' | 'byte';
  readonly size: number;
  readonly parsedEnd: number;
  readonly bytes: Uint8Array | null;
  readonly url: URL | null;
  private readonly source: SourceText;
  /** The whole input when it was bytes (to count lines past a truncation). */
  private readonly rawBytes: Uint8Array | null;
  private readonly analyses = new Map<SharedAnalysis<unknown>, unknown>();
  private cachedLineBreak: string | null = null;
  private counter: LineCounter | null = null;
  private readonly sink: (report: Report) => void;

  constructor(robots: RobotsTxt, rawBytes: Uint8Array | null, url: URL | null, sink: (report: Report) => void) {
    this.robots = robots;
    this.url = url;
    this.sink = sink;
    this.source = sourceOf(robots);
    const src = this.source.source;
    const isText = src.text !== null;
    this.units = src.text ?? src.bin;
    this.unit = isText ? 'utf-16' : 'byte';
    this.size = src.text !== null ? src.text.length : (src.totalBytes ?? src.bin.length);
    this.parsedEnd = this.source.offset(src.bin.length);
    this.bytes = isText ? null : src.bytes;
    this.rawBytes = isText ? null : rawBytes;
  }

  get records(): readonly RobotsRecord[] {
    return this.robots.records;
  }

  get lineBreak(): string {
    if (this.cachedLineBreak === null) {
      const u = this.units;
      const lf = u.indexOf('\n');
      const cr = u.indexOf('\r');
      if (cr >= 0 && (lf < 0 || cr < lf)) this.cachedLineBreak = lf === cr + 1 ? '\r\n' : '\r';
      else this.cachedLineBreak = '\n';
    }
    return this.cachedLineBreak;
  }

  record(line: number): RobotsRecord {
    const record = this.records[line - 1];
    if (record === undefined) throw new RangeError(`no line ${line}`);
    return record;
  }

  text(range: Range): string {
    if (this.unit === 'utf-16') return this.units.slice(range.start, range.end);
    const end = Math.min(range.end, this.units.length);
    if (this.bytes === null) return this.units.slice(range.start, end);
    return utf8.decode(this.bytes.subarray(range.start, end));
  }

  offsetOfByte(byteOffset: number): number {
    return this.source.offset(byteOffset);
  }

  capOffset(record: RobotsRecord): number {
    const start = record.range.start;
    if (this.unit === 'byte') return Math.min(start + MAX_LINE_BYTES, record.range.end);
    const u = this.units;
    let bytes = 0;
    let i = start;
    // Stop at the char that holds byte number MAX_LINE_BYTES: a char the cap splits is part of what is dropped.
    while (i < record.range.end) {
      const n = utf8LengthAt(u, i);
      if (bytes + n > MAX_LINE_BYTES) break;
      bytes += n;
      i++;
    }
    return i;
  }

  contentRange(record: RobotsRecord): Range {
    if (record.keyRange !== null && record.valueRange !== null) {
      return { start: record.keyRange.start, end: record.valueRange.end };
    }
    const u = this.units;
    let start = record.range.start;
    let end = record.commentRange?.start ?? record.range.end;
    if (record.flags.nul) {
      const nul = u.indexOf('\0', start);
      if (nul >= 0 && nul < end) end = nul;
    }
    if (record.flags.tooLong) end = Math.min(end, this.capOffset(record));
    while (start < end && isAsciiSpace(u.charCodeAt(start))) start++;
    while (end > start && isAsciiSpace(u.charCodeAt(end - 1))) end--;
    if (start === end) return { start: record.range.start, end: record.range.start };
    return { start, end };
  }

  deleteLine(record: RobotsRecord): { range: Range; text: string } {
    const next = this.records[record.line];
    return { range: { start: record.range.start, end: next?.range.start ?? record.range.end }, text: '' };
  }

  shared<T>(analysis: SharedAnalysis<T>): T {
    if (this.analyses.has(analysis)) return this.analyses.get(analysis) as T;
    const result = analysis(this);
    this.analyses.set(analysis, result);
    return result;
  }

  report(report: Report): void {
    this.sink(report);
  }

  /** Line and column of input offsets. */
  get lines(): LineCounter {
    if (this.counter === null) {
      const starts = this.records.map((r) => r.range.start);
      starts[0] = 0;
      let tail: { text: CharCodes; from: number } | null = null;
      if (this.size > this.parsedEnd) {
        const raw = this.rawBytes;
        if (this.unit === 'utf-16') tail = { text: this.units, from: this.parsedEnd };
        else if (raw !== null)
          tail = { text: { length: raw.length, charCodeAt: (i) => raw[i] ?? Number.NaN }, from: this.parsedEnd };
      }
      this.counter = new LineCounter(starts, tail);
    }
    return this.counter;
  }
}

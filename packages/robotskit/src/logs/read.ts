/**
 * A log's lines read and judged, block by block: a block is whole lines joined by line feeds (a line may end in CR,
 * dropped here), as a streaming reader cuts them from the bytes (the CLI's `logBlocks`, the service's upload). Each
 * line is read in place by positions (no string per line), a blank one skipped, an unreadable one counted with its
 * reason (the first few kept as examples), a request judged by a {@link LogAnalysis}; the violations of a block are
 * returned as records, for the caller to verify, write or keep.
 */

import type { LogAnalysis, Violation } from './analyze.js';
import { type HostField, type JsonFields, type LogFormat, parseLogLineAt } from './parse.js';

/** The longest line kept (1 MiB of text); a longer one is replaced by {@link OVERLONG}, so memory stays bounded. */
export const MAX_LINE = 1 << 20;

/** What a line over {@link MAX_LINE} becomes: no log line starts with NUL, so no format reads it as a request. */
export const OVERLONG = '\u0000line over 1 MiB';

/** A line that could not be read: where, and why. */
export interface Malformed {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}

/** Whether the line between `start` and `end` is empty or only white space. */
function blank(text: string, start: number, end: number): boolean {
  if (end === start) return true;
  const c = text.charCodeAt(start);
  // A log line starts with an address, a brace or a note (NUL): only a rare one pays for the slice.
  return (c === 0x20 || c === 0x09 || c > 0x7e || c < 0x20) && c !== 0 && text.slice(start, end).trim() === '';
}

const NONE: readonly Violation[] = Object.freeze([]);

export class LogReader {
  /** Lines read, blank ones included. */
  lines = 0;
  /** Lines that are not a request of the format. */
  malformed = 0;
  /** Requests to URLs the version in force disallowed. */
  violations = 0;
  /** The first five unreadable lines. */
  readonly examples: Malformed[] = [];
  private file = '-';
  private lineNumber = 0;

  constructor(
    private readonly analysis: LogAnalysis,
    private readonly format: LogFormat,
    private readonly fields: JsonFields,
    /** Whether {@link block} returns the violations' records (false: only counted, none built). */
    private readonly records = true,
    /** Where Common/Combined lines carry the request's host (a log of several sites). */
    private readonly hostField: HostField = 'none',
  ) {}

  /** The next blocks are of `file` (as violations and examples name it), from its first line. */
  startFile(file: string): void {
    this.file = file;
    this.lineNumber = 0;
  }

  /** Reads a block of whole lines; the violations found in it, in order (verification `unchecked`). */
  block(block: string): readonly Violation[] {
    let found: Violation[] | null = null;
    let start = 0;
    for (;;) {
      const at = block.indexOf('\n', start);
      const next = at < 0 ? block.length : at;
      const end = next > start && block.charCodeAt(next - 1) === 0x0d ? next - 1 : next;
      this.lineNumber++;
      this.lines++;
      const request =
        end - start > MAX_LINE
          ? OVERLONG.slice(1)
          : blank(block, start, end)
            ? null
            : parseLogLineAt(block, start, end, this.format, this.fields, this.hostField);
      start = next + 1;
      if (request === null) {
        if (at < 0) break;
        continue;
      }
      if (typeof request === 'string') {
        this.malformed++;
        if (this.examples.length < 5) this.examples.push({ file: this.file, line: this.lineNumber, reason: request });
      } else if (this.analysis.add(request)) {
        this.violations++;
        if (this.records) {
          found ??= [];
          found.push(this.analysis.violation(request, this.file, this.lineNumber));
        }
      }
      if (at < 0) break;
    }
    return found ?? NONE;
  }
}

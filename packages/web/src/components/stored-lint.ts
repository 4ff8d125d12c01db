/**
 * A fetched robots.txt as the report shows it: its bytes as text for the editor, and its stored lint diagnostics
 * placed on that text. The service stores positions as the engine reports them for bytes (1-based line, 1-based
 * column counted in bytes); the editor counts UTF-16 units from the start of its document, with `\n` between lines.
 * So the bytes are split into lines by the engine's own line counter (`TextLines`: LF, CRLF or a lone CR), each line
 * decoded as UTF-8 (invalid bytes become U+FFFD, as the service's own decoding does), and each column is measured by
 * decoding the bytes before it. A UTF-8 byte order mark is not shown; columns on the first line are counted past it.
 * Plain data in and out (tested in Node). {@link inListOrder} is the order the file page lists and walks them in.
 */

import { TextLines } from 'robotskit';
import type { LintCode, Severity } from 'robotskit/lint';
import type { StoredDiagnostic } from '../api-types.js';
import type { EditorDiagnostic } from './editor-diagnostic.js';

/** A stored file as the editor shows it. */
export interface ShownFile {
  /** The text, lines joined with `\n` (what the editor holds). */
  readonly text: string;
  /** The diagnostics with offsets into {@link text}, in file order. */
  readonly diagnostics: readonly EditorDiagnostic[];
  /** Whether the bytes began with a UTF-8 byte order mark (not shown in {@link text}). */
  readonly bom: boolean;
}

/** Places stored diagnostics on the text of `bytes`. `docsBase` + code is each code's documentation. */
export function showStoredLint(bytes: Uint8Array, stored: readonly StoredDiagnostic[], docsBase: string): ShownFile {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const skipped = bom ? 3 : 0;
  const lines = new TextLines(bytes.subarray(skipped));
  const texts = lines.lines();
  const text = texts.join('\n');
  /** Offset in the text where each line starts. */
  const lineOffsets: number[] = [];
  let at = 0;
  for (const line of texts) {
    lineOffsets.push(at);
    at += line.length + 1;
  }

  /** Offset in the text of a 1-based line and byte column, clamped to the line. */
  const offsetOf = (line: number, column: number): number => {
    if (line < 1) return 0;
    if (line > lines.count) return text.length;
    const range = lines.lineRange(line);
    const bytesIn = Math.max(0, column - 1 - (line === 1 ? skipped : 0));
    return lineOffsets[line - 1]! + lines.utf16Position(Math.min(range.start + bytesIn, range.end)).column - 1;
  };

  const diagnostics = stored
    .map((d): EditorDiagnostic => {
      const from = offsetOf(d.line, d.column);
      const to = Math.max(from, offsetOf(d.endLine, d.endColumn));
      return {
        from,
        to,
        line: d.line,
        severity: d.severity,
        code: d.code,
        message: d.message,
        docs: `${docsBase}${d.code}.md`,
      };
    })
    .sort((a, b) => a.from - b.from || a.to - b.to);
  return { text, diagnostics, bom };
}

/** The engine's code of a place where Google and 1994-convention crawlers read the file differently. */
const DIALECT_NOTE: LintCode = 'dialect-difference';

/** Where each severity is listed: errors first; the dialect notes (info too) come after every other finding. */
const LIST_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function listRank(d: EditorDiagnostic): number {
  return d.code === DIALECT_NOTE ? 3 : LIST_RANK[d.severity];
}

/**
 * The diagnostics as the file page lists them, and as its "Next issue" walks them: errors, then warnings, then info,
 * then the 1994-dialect notes (a large file has hundreds, which would bury the few findings that matter); in file
 * order within each. A new array; `diagnostics` is left as it is.
 */
export function inListOrder(diagnostics: readonly EditorDiagnostic[]): EditorDiagnostic[] {
  return [...diagnostics].sort((a, b) => listRank(a) - listRank(b) || a.from - b.from || a.to - b.to);
}

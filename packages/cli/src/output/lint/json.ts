/**
 * `robotskit lint --format json`: one shape whatever the number of files, an array with one entry per file linted,
 * `[ { file, diagnostics: [ { code, severity, line, column, endLine, endColumn, message, fix } ] } ]`. Lines are
 * 1-based, columns 1-based in UTF-16 code units (as editors count them), ends exclusive; `fix` is null or what text and
 * SARIF show: `{ description, edits: [ { line, column, endLine, endColumn, text } ] }`.
 */

import type { Diagnostic } from 'robotskit/lint';
import { type BytePositions, spanOf } from './positions.js';

/** A span as JSON: where it starts and ends. */
interface JsonSpan {
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** One diagnostic as `--format json` prints it. */
interface JsonDiagnostic extends JsonSpan {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly fix: {
    readonly description: string;
    readonly edits: readonly (JsonSpan & { readonly text: string })[];
  } | null;
}

/** One file linted, as JSON prints it. */
export interface JsonFile {
  /** The path, `<stdin>`, or the robots.txt URL that was fetched. */
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly positions: BytePositions;
}

function span(positions: BytePositions, range: { start: number; end: number }): JsonSpan {
  const { start, end } = spanOf(positions, range);
  return { line: start.line, column: start.column, endLine: end.line, endColumn: end.column };
}

/** The JSON document, as text. */
export function formatJson(files: readonly JsonFile[]): string {
  const doc = files.map(({ file, diagnostics, positions }) => ({
    file,
    diagnostics: diagnostics.map(
      (d): JsonDiagnostic => ({
        code: d.code,
        severity: d.severity,
        ...span(positions, d.range),
        message: d.message,
        fix:
          d.fix === undefined
            ? null
            : {
                description: d.fix.description,
                edits: d.fix.edits.map((e) => ({ ...span(positions, e.range), text: e.text })),
              },
      }),
    ),
  }));
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/**
 * `robotskit lint --format json`: `{ "diagnostics": [ { code, severity, line, column, endLine, endColumn, message } ] }`.
 */

import type { Diagnostic } from 'robotskit/lint';
import { type BytePositions, spanOf } from './positions.js';

/** One diagnostic as `--format json` prints it. */
interface JsonDiagnostic {
  readonly code: string;
  readonly severity: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly message: string;
}

/** The JSON document, as text. */
export function formatJson(diagnostics: readonly Diagnostic[], positions: BytePositions): string {
  const doc = {
    diagnostics: diagnostics.map((d): JsonDiagnostic => {
      const { start, end } = spanOf(positions, d.range);
      return {
        code: d.code,
        severity: d.severity,
        line: start.line,
        column: start.column,
        endLine: end.line,
        endColumn: end.column,
        message: d.message,
      };
    }),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

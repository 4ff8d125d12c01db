/**
 * What the robots.txt editor shows as a lint diagnostic, in its own units. The engine worker (a file being edited) and
 * `stored-lint.ts` (a stored version's diagnostics) both produce it; the editor only places and walks it.
 */

/** A lint diagnostic with offsets in the editor's units (UTF-16, the text as the editor holds it). */
export interface EditorDiagnostic {
  readonly from: number;
  readonly to: number;
  /** 1-based line, as the linter reported it. */
  readonly line: number;
  readonly severity: 'error' | 'warning' | 'info';
  readonly code: string;
  readonly message: string;
  /** The code's documentation. */
  readonly docs: string;
}

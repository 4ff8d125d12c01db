/**
 * The engine's linter as the service's body analyzer: each distinct body is linted once, the counts are the file's
 * errors and warnings, the diagnostics are stored as JSON (without fixes' edits, which only an editor needs).
 */

import { type Diagnostic, lint } from 'robotskit';
import type { BodyAnalysis, BodyAnalyzer } from '../monitor/retrieval.js';

/** A diagnostic as stored and served. */
export interface StoredDiagnostic {
  readonly code: string;
  readonly severity: Diagnostic['severity'];
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly fix: string | null;
}

/** Lints `body` (bytes, as fetched). */
export function analyzeBody(body: Uint8Array): BodyAnalysis & { readonly diagnostics: StoredDiagnostic[] } {
  return storedAnalysis(lint(body));
}

/** The counts and stored form of a body's diagnostics (also for diagnostics computed in the lint thread). */
export function storedAnalysis(
  diagnostics: readonly Diagnostic[],
): BodyAnalysis & { readonly diagnostics: StoredDiagnostic[] } {
  let errors = 0;
  let warnings = 0;
  const stored: StoredDiagnostic[] = diagnostics.map((d) => {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
    return {
      code: d.code,
      severity: d.severity,
      message: d.message,
      line: d.line,
      column: d.column,
      endLine: d.endLine,
      endColumn: d.endColumn,
      fix: d.fix?.description ?? null,
    };
  });
  return { errors, warnings, diagnostics: stored };
}

/** The analyzer plug-in. */
export const createEngineAnalyzer = (): BodyAnalyzer => analyzeBody;

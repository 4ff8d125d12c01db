/**
 * Line diffs between two versions, as JSON hunks, and what changed in their lint results. The line diff comes from
 * the `diff` package (jsdiff: Myers' algorithm, the de-facto standard in JavaScript); lint changes compare the
 * stored diagnostics by code and message, since line numbers shift with every edit above them.
 */

import { structuredPatch } from 'diff';
import type { StoredDiagnostic } from '../storage/rows.js';

/** One line of a hunk. */
interface DiffLine {
  readonly kind: 'context' | 'added' | 'removed';
  readonly text: string;
  /** 1-based line in the old text (null for added lines). */
  readonly oldLine: number | null;
  /** 1-based line in the new text (null for removed lines). */
  readonly newLine: number | null;
}

/** A run of changes with its context lines. */
interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly DiffLine[];
}

/** A line diff. */
interface LineDiff {
  readonly added: number;
  readonly removed: number;
  readonly hunks: readonly DiffHunk[];
}

/** Normalises line ends so a CRLF-only change shows as what it is: every line changes. */
function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/** The line diff from `oldText` to `newText`, with `context` unchanged lines around each change. */
export function lineDiff(oldText: string, newText: string, context = 3): LineDiff {
  const patch = structuredPatch(
    'old',
    'new',
    withFinalNewline(oldText),
    withFinalNewline(newText),
    undefined,
    undefined,
    {
      context,
    },
  );
  let added = 0;
  let removed = 0;
  const hunks = patch.hunks.map((hunk) => {
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    const lines: DiffLine[] = [];
    for (const raw of hunk.lines) {
      const mark = raw[0];
      const text = raw.slice(1);
      if (mark === '+') {
        added++;
        lines.push({ kind: 'added', text, oldLine: null, newLine: newLine++ });
      } else if (mark === '-') {
        removed++;
        lines.push({ kind: 'removed', text, oldLine: oldLine++, newLine: null });
      } else if (mark === ' ') {
        lines.push({ kind: 'context', text, oldLine: oldLine++, newLine: newLine++ });
      }
      // `\ No newline at end of file` cannot occur: both texts end with a newline.
    }
    return {
      oldStart: hunk.oldStart,
      oldLines: hunk.oldLines,
      newStart: hunk.newStart,
      newLines: hunk.newLines,
      lines,
    };
  });
  return { added, removed, hunks };
}

/** What changed in the lint results. */
interface LintChanges {
  readonly errors: { readonly before: number | null; readonly after: number | null };
  readonly warnings: { readonly before: number | null; readonly after: number | null };
  /** Diagnostics of the new version without a counterpart (same code and message) in the old one. */
  readonly added: readonly StoredDiagnostic[];
  /** Diagnostics of the old version that are gone. */
  readonly removed: readonly StoredDiagnostic[];
}

/** Lint results of one version: counts and stored diagnostics (null when never linted). */
export interface LintResults {
  readonly errors: number | null;
  readonly warnings: number | null;
  readonly diagnostics: readonly StoredDiagnostic[] | null;
}

const key = (d: StoredDiagnostic) => `${d.code}\u0000${d.message}`;

/** Diagnostics added and removed, as multisets keyed by code and message. */
export function lintChanges(before: LintResults, after: LintResults): LintChanges {
  const remaining = new Map<string, number>();
  for (const d of before.diagnostics ?? []) remaining.set(key(d), (remaining.get(key(d)) ?? 0) + 1);
  const added: StoredDiagnostic[] = [];
  for (const d of after.diagnostics ?? []) {
    const n = remaining.get(key(d)) ?? 0;
    if (n > 0) remaining.set(key(d), n - 1);
    else added.push(d);
  }
  const removed: StoredDiagnostic[] = [];
  const stillNew = new Map<string, number>();
  for (const d of after.diagnostics ?? []) stillNew.set(key(d), (stillNew.get(key(d)) ?? 0) + 1);
  for (const d of before.diagnostics ?? []) {
    const n = stillNew.get(key(d)) ?? 0;
    if (n > 0) stillNew.set(key(d), n - 1);
    else removed.push(d);
  }
  return {
    errors: { before: before.errors, after: after.errors },
    warnings: { before: before.warnings, after: after.warnings },
    added,
    removed,
  };
}

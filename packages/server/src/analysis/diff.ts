/**
 * Line diffs between two versions, as JSON hunks, and what changed in their lint results. The line diff comes from
 * the `diff` package (jsdiff: Myers' algorithm, the de-facto standard in JavaScript). Lint changes are matched through
 * the diff's line mapping: a finding of the old version is the same finding in the new one when its line is an
 * unchanged line that moved (or stayed) there, with the same code and the same message but for line numbers (a
 * message naming another line shifts with it). So inserting one line into a large file lists no finding as new or
 * fixed, and a finding on a changed line is a real change.
 *
 * Myers' diff costs about the product of the texts' length and the number of changed lines (11.7 s for 10,000 changed
 * lines; a CDN flapping between two builds of a large file does that at every fetch), so it is bounded: past
 * {@link DIFF_MAX_EDIT_LENGTH} changed lines, or {@link DIFF_TIMEOUT_MS}, the library gives up and the diff is a summary
 * ({@link summaryDiff}: lines added and removed, counted in linear time, no hunks), which the answer says
 * (`complete: false`). The service runs it in a thread ({@link AnalysisThreads}), never on the event loop.
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
export interface LineDiff {
  readonly added: number;
  readonly removed: number;
  readonly hunks: readonly DiffHunk[];
  /**
   * False when the diff was past its bound: `hunks` is empty, and `added` / `removed` count the lines of each text
   * the other lacks, ignoring order ({@link summaryDiff}).
   */
  readonly complete: boolean;
}

/** Changed lines (added plus removed) past which the line diff is a summary. */
export const DIFF_MAX_EDIT_LENGTH = 2000;
/** Time past which the line diff is a summary, whatever its size (the library's own clock). */
export const DIFF_TIMEOUT_MS = 2000;

/** Bounds of {@link lineDiff}. */
export interface DiffBounds {
  readonly maxEditLength?: number;
  readonly timeoutMs?: number;
}

/** Normalises line ends so a CRLF-only change shows as what it is: every line changes. */
function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/** The lines of a text ending with a newline, without their line ends. */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.slice(0, -1).split('\n');
}

/**
 * The cheap diff: the lines of `newText` that `oldText` lacks (added) and the reverse (removed), as multisets, so a
 * line that only moved counts as neither. Linear in the texts; equal to the full diff's counts when no line moved.
 */
export function summaryDiff(oldText: string, newText: string): LineDiff {
  const before = linesOf(withFinalNewline(oldText));
  const after = linesOf(withFinalNewline(newText));
  const left = new Map<string, number>();
  for (const line of before) left.set(line, (left.get(line) ?? 0) + 1);
  let added = 0;
  for (const line of after) {
    const n = left.get(line) ?? 0;
    if (n > 0) left.set(line, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of left.values()) removed += n;
  return { added, removed, hunks: [], complete: false };
}

/**
 * {@link summaryDiff} and the functions it calls, as source text: the analysis threads run the summary where they ran
 * the diff that gave up (it costs 200 ms for two 400 KB files), from this one implementation.
 */
export const SUMMARY_DIFF_SOURCE = [withFinalNewline, linesOf, summaryDiff].map((f) => f.toString()).join('\n');

/**
 * The line diff from `oldText` to `newText`, with `context` unchanged lines around each change; past `bounds`
 * (default {@link DIFF_MAX_EDIT_LENGTH} changed lines, {@link DIFF_TIMEOUT_MS}), the summary.
 */
export function lineDiff(oldText: string, newText: string, context = 3, bounds: DiffBounds = {}): LineDiff {
  const patch = structuredPatch(...patchArguments(oldText, newText, context, bounds));
  return patch === undefined ? summaryDiff(oldText, newText) : diffOfHunks(patch.hunks);
}

/** The arguments of the library's `structuredPatch` for {@link lineDiff} (a diff thread calls it with the same). */
export function patchArguments(oldText: string, newText: string, context: number, bounds: DiffBounds) {
  const options = {
    context,
    maxEditLength: bounds.maxEditLength ?? DIFF_MAX_EDIT_LENGTH,
    timeout: bounds.timeoutMs ?? DIFF_TIMEOUT_MS,
  };
  return ['old', 'new', withFinalNewline(oldText), withFinalNewline(newText), undefined, undefined, options] as const;
}

/** A hunk as the library gives it: its lines prefixed with ' ', '+' or '-'. */
export interface PatchHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/** The diff of the library's hunks, with each line's numbers. */
export function diffOfHunks(patchHunks: readonly PatchHunk[]): LineDiff {
  let added = 0;
  let removed = 0;
  const hunks = patchHunks.map((hunk) => {
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
  return { added, removed, hunks, complete: true };
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

/**
 * Where each line of the old text is in the new one: its new line when it is unchanged (context or outside every
 * hunk), null when it was removed or changed. Null for a summary (it places no line).
 */
export function lineMapping(diff: LineDiff): ((oldLine: number) => number | null) | null {
  if (!diff.complete) return null;
  const removed = new Set<number>();
  const moved = new Map<number, number>();
  const shifts: { from: number; offset: number }[] = [];
  for (const hunk of diff.hunks) {
    for (const line of hunk.lines) {
      if (line.kind === 'removed' && line.oldLine !== null) removed.add(line.oldLine);
      if (line.kind === 'context' && line.oldLine !== null && line.newLine !== null)
        moved.set(line.oldLine, line.newLine);
    }
    // Past this hunk's old lines, every line moves by what the hunk added minus what it removed.
    shifts.push({
      from: hunk.oldStart + hunk.oldLines,
      offset: hunk.newStart + hunk.newLines - (hunk.oldStart + hunk.oldLines),
    });
  }
  return (oldLine) => {
    if (removed.has(oldLine)) return null;
    const known = moved.get(oldLine);
    if (known !== undefined) return known;
    let offset = 0;
    for (const shift of shifts) if (oldLine >= shift.from) offset = shift.offset;
    return oldLine + offset;
  };
}

/** Lint results of one version: counts and stored diagnostics (null when never linted). */
export interface LintResults {
  readonly errors: number | null;
  readonly warnings: number | null;
  readonly diagnostics: readonly StoredDiagnostic[] | null;
}

/** A finding's identity at a line: its code and its message with line numbers left out. */
const key = (d: StoredDiagnostic, line: number) => `${line}\u0000${d.code}\u0000${d.message.replace(/\d+/g, '#')}`;

/**
 * Diagnostics added and removed: an old finding whose line maps (through `mapLine`, the diff's line mapping) to a new
 * finding of the same code and message is unchanged; every other one is fixed, and every new one left is new. Without
 * `mapLine` (no diff), lines are taken as they are; with null (a summary diff), findings are matched by code and
 * message wherever they are.
 */
export function lintChanges(
  before: LintResults,
  after: LintResults,
  mapLine: ((oldLine: number) => number | null) | null = (line) => line,
): LintChanges {
  const lineOf = mapLine === null ? () => 0 : mapLine;
  const newLineOf = (d: StoredDiagnostic) => (mapLine === null ? 0 : d.line);
  const remaining = new Map<string, number>();
  for (const d of after.diagnostics ?? []) {
    const k = key(d, newLineOf(d));
    remaining.set(k, (remaining.get(k) ?? 0) + 1);
  }
  const removed: StoredDiagnostic[] = [];
  const matched = new Map<string, number>();
  for (const d of before.diagnostics ?? []) {
    const line = lineOf(d.line);
    const k = line === null ? null : key(d, line);
    const n = k === null ? 0 : (remaining.get(k) ?? 0);
    if (k !== null && n > 0) {
      remaining.set(k, n - 1);
      matched.set(k, (matched.get(k) ?? 0) + 1);
    } else removed.push(d);
  }
  const added: StoredDiagnostic[] = [];
  for (const d of after.diagnostics ?? []) {
    const k = key(d, newLineOf(d));
    const n = matched.get(k) ?? 0;
    if (n > 0) matched.set(k, n - 1);
    else added.push(d);
  }
  return {
    errors: { before: before.errors, after: after.errors },
    warnings: { before: before.warnings, after: after.warnings },
    added,
    removed,
  };
}

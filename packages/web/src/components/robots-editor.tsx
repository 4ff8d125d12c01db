/**
 * The robots.txt editor: CodeMirror 6 with line numbers, robots.txt colouring, the engine's lint diagnostics (gutter
 * marks, underlines, hover text; F8 / Shift-F8 jump between them) and a highlighted "deciding line". The tester and
 * the impact page edit with it; the report's file page shows fetched content with it, read-only.
 */

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import { type Diagnostic, lintGutter, lintKeymap, setDiagnostics } from '@codemirror/lint';
import { EditorState, RangeSetBuilder, StateEffect, StateField } from '@codemirror/state';
import {
  Decoration,
  type DecorationSet,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { useEffect, useRef } from 'preact/hooks';
import type { EditorDiagnostic } from './editor-diagnostic.js';
import { robotsTxtLanguage } from './robots-language.js';

/** Marks one line (1-based) as the deciding line, or clears the mark with 0. */
const setDecidingLine = StateEffect.define<number>();

const decidingLine = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(value, tr) {
    value = value.map(tr.changes);
    for (const effect of tr.effects) {
      if (!effect.is(setDecidingLine)) continue;
      if (effect.value < 1 || effect.value > tr.state.doc.lines) return Decoration.none;
      const line = tr.state.doc.line(effect.value);
      const builder = new RangeSetBuilder<Decoration>();
      builder.add(
        line.from,
        line.from,
        Decoration.line({ class: 'cm-deciding-line', attributes: { 'data-deciding': 'true' } }),
      );
      value = builder.finish();
    }
    return value;
  },
  provide: (field) => EditorView.decorations.from(field),
});

const theme = EditorView.theme({
  '&': { fontSize: '13.5px', height: '100%' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.55' },
  '.cm-content': { padding: '6px 0' },
  // Line numbers at 4.9:1 on the gutter (WCAG AA asks 4.5:1).
  '.cm-gutters': { background: '#f6f7f9', borderRight: '1px solid #e3e6eb', color: '#5f6b7a' },
  '.cm-activeLine': { background: '#f3f6fb' },
  '.cm-activeLineGutter': { background: '#e9eef7' },
  '.cm-deciding-line': { background: '#fff4c2 !important', boxShadow: 'inset 3px 0 0 #e0a400' },
  '.cm-tooltip-lint': { maxWidth: '28rem' },
  // The editor is where typing goes: a visible ring says so (WCAG 2.4.7), inside its frame.
  '&.cm-focused': { outline: '2px solid var(--accent)', outlineOffset: '-2px' },
});

/** Selects `issue` in `view` (clamped to the text), scrolled into view. */
function selectRange(view: EditorView, issue: EditorDiagnostic): void {
  const length = view.state.doc.length;
  const from = Math.min(issue.from, length);
  view.dispatch({
    selection: { anchor: from, head: Math.min(Math.max(issue.to, from), length) },
    effects: EditorView.scrollIntoView(from, { y: 'center' }),
  });
}

/** Whether the selection of `view` is exactly the (clamped) range of `issue`. */
function selects(view: EditorView, issue: EditorDiagnostic): boolean {
  const length = view.state.doc.length;
  const { from, to } = view.state.selection.main;
  const start = Math.min(issue.from, length);
  return from === start && to === Math.min(Math.max(issue.to, start), length);
}

/**
 * The index of the diagnostic after (or before) the selection, in order of start then end, wrapping around.
 * CodeMirror's own next-diagnostic command continues after the end of the selection, so it skips a diagnostic that
 * starts inside another one (a typo inside a two-line dialect difference); this one visits each diagnostic in turn.
 */
function stepByPosition(view: EditorView, issues: readonly EditorDiagnostic[], direction: 1 | -1): number {
  const { from, to } = view.state.selection.main;
  const after = (d: EditorDiagnostic) => d.from > from || (d.from === from && d.to > to);
  const before = (d: EditorDiagnostic) => d.from < from || (d.from === from && d.to < to);
  if (direction === 1) {
    const index = issues.findIndex(after);
    return index < 0 ? 0 : index;
  }
  const index = issues.findLastIndex(before);
  return index < 0 ? issues.length - 1 : index;
}

/**
 * The index of the diagnostic after (or before) the one selected, in the order given, wrapping around; from a
 * selection that is no diagnostic's (a click in the text), the first (or last).
 */
function stepInList(
  view: EditorView,
  issues: readonly EditorDiagnostic[],
  direction: 1 | -1,
  at: number | null,
): number {
  if (at !== null && at < issues.length && selects(view, issues[at]!)) {
    return (at + direction + issues.length) % issues.length;
  }
  return direction === 1 ? 0 : issues.length - 1;
}

/** Sorted by start, then end: the order {@link stepByPosition} walks. */
function sortIssues(diagnostics: readonly EditorDiagnostic[]): EditorDiagnostic[] {
  return [...diagnostics].sort((a, b) => a.from - b.from || a.to - b.to);
}

/** What a page can do with a mounted editor. */
export interface EditorHandle {
  view: EditorView;
  /** Marks `line` (1-based), scrolling it into view when `scroll`; 0 clears. */
  showLine(line: number, scroll: boolean): void;
  /** Selects the next (previous) lint issue and reports it through `onIssue`. */
  nextIssue(): void;
  previousIssue(): void;
  /** Selects issue `index` (of the walking order, see `order`) and reports it through `onIssue`. */
  selectIssue(index: number): void;
  replace(text: string): void;
}

interface Props {
  initial: string;
  diagnostics: readonly EditorDiagnostic[];
  /**
   * The editor's accessible name.
   * @default 'robots.txt'
   */
  label?: string;
  /** Shows the text without letting it change (it can still be focused, selected and walked with F8). */
  readOnly?: boolean;
  /**
   * The order F8 and the handle walk the diagnostics in: by their place in the text, or as given (the order a list
   * beside the editor shows them in; "next" is the one after the issue selected).
   * @default 'position'
   */
  order?: 'position' | 'given';
  onChange?: (text: string) => void;
  onReady: (handle: EditorHandle) => void;
  /** Told which issue keyboard navigation moved to (index in the walking order, of `total`). */
  onIssue: (issue: EditorDiagnostic, index: number, total: number) => void;
  describedBy?: string;
}

function toCodeMirror(diagnostics: readonly EditorDiagnostic[], length: number): Diagnostic[] {
  return diagnostics.map((d) => {
    const from = Math.min(d.from, length);
    return {
      from,
      to: Math.min(Math.max(d.to, from), length),
      severity: d.severity,
      source: d.code,
      message: d.message,
    };
  });
}

/** The editor, created once with `initial`; later text arrives through {@link EditorHandle.replace}. */
export function RobotsEditor(props: Props) {
  const { initial, diagnostics, onChange, onReady, onIssue, describedBy } = props;
  const label = props.label ?? 'robots.txt';
  const readOnly = props.readOnly ?? false;
  const order = props.order ?? 'position';
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const issues = useRef<EditorDiagnostic[]>([]);
  const issueReport = useRef(onIssue);
  issueReport.current = onIssue;
  /** The issue last selected through {@link show}, by index in {@link issues}. */
  const at = useRef<number | null>(null);
  const show = (editor: EditorView, index: number) => {
    const issue = issues.current[index];
    if (!issue) return;
    selectRange(editor, issue);
    at.current = index;
    issueReport.current(issue, index, issues.current.length);
  };
  const step = (editor: EditorView, direction: 1 | -1): boolean => {
    const list = issues.current;
    if (list.length === 0) return false;
    show(
      editor,
      order === 'given' ? stepInList(editor, list, direction, at.current) : stepByPosition(editor, list, direction),
    );
    return true;
  };

  useEffect(() => {
    const state = EditorState.create({
      doc: initial,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        highlightActiveLine(),
        robotsTxtLanguage,
        lintGutter(),
        decidingLine,
        keymap.of([
          { key: 'F8', run: (editor) => step(editor, 1) },
          { key: 'Shift-F8', run: (editor) => step(editor, -1) },
          ...lintKeymap,
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        EditorView.lineWrapping,
        EditorState.readOnly.of(readOnly),
        EditorView.contentAttributes.of({
          'aria-label': label,
          'aria-multiline': 'true',
          ...(readOnly ? { 'aria-readonly': 'true' } : {}),
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        }),
        theme,
        EditorView.updateListener.of((update) => {
          if (update.docChanged) changed.current?.(update.state.doc.toString());
        }),
      ],
    });
    const editor = new EditorView({ state, parent: host.current! });
    view.current = editor;
    onReady({
      view: editor,
      showLine(line, scroll) {
        const effects: StateEffect<unknown>[] = [setDecidingLine.of(line)];
        if (scroll && line >= 1 && line <= editor.state.doc.lines) {
          effects.push(EditorView.scrollIntoView(editor.state.doc.line(line).from, { y: 'center' }));
        }
        editor.dispatch({ effects });
      },
      nextIssue() {
        editor.focus();
        step(editor, 1);
      },
      previousIssue() {
        editor.focus();
        step(editor, -1);
      },
      selectIssue(index) {
        editor.focus();
        show(editor, index);
      },
      replace(text) {
        editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text }, selection: { anchor: 0 } });
      },
    });
    return () => editor.destroy();
    // The editor is created once; later props reach it through the handle and the diagnostics effect.
  }, []);

  // What the editor shows now: a new list with the same findings (a page that renders again) changes nothing, so an
  // open hover tooltip and the place in the issue walk stay.
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const key = `${editor.state.doc.length}\n${diagnostics.map((d) => `${d.from}:${d.to}:${d.severity}:${d.code}:${d.message}`).join('\n')}`;
    if (key === shown.current) return;
    shown.current = key;
    issues.current = order === 'given' ? [...diagnostics] : sortIssues(diagnostics);
    at.current = null;
    editor.dispatch(setDiagnostics(editor.state, toCodeMirror(diagnostics, editor.state.doc.length)));
  }, [diagnostics]);

  return <div class="editor" ref={host} />;
}

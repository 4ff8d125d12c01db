/**
 * The robots.txt editor: CodeMirror 6 with line numbers, robots.txt colouring, the engine's lint diagnostics (gutter
 * marks, underlines, hover text; F8 / Shift-F8 jump between them) and a highlighted "deciding line".
 */

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, indentOnInput } from '@codemirror/language';
import {
  type Diagnostic,
  lintGutter,
  lintKeymap,
  nextDiagnostic,
  previousDiagnostic,
  setDiagnostics,
} from '@codemirror/lint';
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
import type { EditorDiagnostic } from '../../engine/protocol.js';
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
  '.cm-gutters': { background: '#f6f7f9', borderRight: '1px solid #e3e6eb', color: '#8a93a0' },
  '.cm-activeLine': { background: '#f3f6fb' },
  '.cm-activeLineGutter': { background: '#e9eef7' },
  '.cm-deciding-line': { background: '#fff4c2 !important', boxShadow: 'inset 3px 0 0 #e0a400' },
  '.cm-tooltip-lint': { maxWidth: '28rem' },
  '&.cm-focused': { outline: 'none' },
});

export interface EditorHandle {
  view: EditorView;
  /** Marks `line` (1-based), scrolling it into view when `scroll`; 0 clears. */
  showLine(line: number, scroll: boolean): void;
  nextIssue(): void;
  previousIssue(): void;
  replace(text: string): void;
}

interface Props {
  initial: string;
  diagnostics: readonly EditorDiagnostic[];
  onChange: (text: string) => void;
  onReady: (handle: EditorHandle) => void;
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

export function RobotsEditor({ initial, diagnostics, onChange, onReady, describedBy }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

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
          { key: 'F8', run: nextDiagnostic },
          { key: 'Shift-F8', run: previousDiagnostic },
          ...lintKeymap,
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({
          'aria-label': 'robots.txt',
          'aria-multiline': 'true',
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        }),
        theme,
        EditorView.updateListener.of((update) => {
          if (update.docChanged) changed.current(update.state.doc.toString());
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
        nextDiagnostic(editor);
      },
      previousIssue() {
        editor.focus();
        previousDiagnostic(editor);
      },
      replace(text) {
        editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text }, selection: { anchor: 0 } });
      },
    });
    return () => editor.destroy();
    // The editor is created once; later props reach it through the handle and the diagnostics effect.
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    editor.dispatch(setDiagnostics(editor.state, toCodeMirror(diagnostics, editor.state.doc.length)));
  }, [diagnostics]);

  return <div class="editor" ref={host} />;
}

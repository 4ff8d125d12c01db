/**
 * The tester's results: the engine's failure if any, then three tabs: the verdicts for the chosen crawlers, every
 * crawler against the URLs, and where the 1994 reading differs.
 */

import type { ComponentChildren } from 'preact';
import type { DialectName } from 'robotskit';
import type { FileAnswer, VerdictsAnswer } from '../../engine/protocol.js';
import { CrawlerMatrix, DifferenceList, VerdictTable } from './results.js';

/** The result tabs. */
export type Tab = 'results' | 'matrix' | 'differences';

function TabButton(props: { id: Tab; current: Tab; onSelect: (tab: Tab) => void; children: ComponentChildren }) {
  const selected = props.id === props.current;
  return (
    <button
      type="button"
      role="tab"
      id={`tab-${props.id}`}
      aria-selected={selected}
      aria-controls={`panel-${props.id}`}
      class={selected ? 'tab tab-current' : 'tab'}
      onClick={() => props.onSelect(props.id)}
    >
      {props.children}
    </button>
  );
}

/** The results column; `current` is the lint and differences of the text the verdicts are about, once known. */
export function ResultTabs(props: {
  tab: Tab;
  onTab: (tab: Tab) => void;
  verdicts: VerdictsAnswer | null;
  current: FileAnswer | null;
  engineError: string | null;
  urls: readonly string[];
  dialect: DialectName;
  /** The row shown with its deciding line (the chosen one, else the first). */
  shownRow: number | null;
  fileOrigin: string | null;
  onSelect: (row: number, line: number) => void;
  onShowLine: (line: number) => void;
}) {
  const { tab, onTab, verdicts, current, onShowLine } = props;
  return (
    <div class="results-column">
      {props.engineError && (
        <div class="notice notice-error" role="alert">
          The engine failed on this input: {props.engineError}
        </div>
      )}

      <div class="tabs" role="tablist" aria-label="Results">
        <TabButton id="results" current={tab} onSelect={onTab}>
          Results
        </TabButton>
        <TabButton id="matrix" current={tab} onSelect={onTab}>
          All crawlers
        </TabButton>
        <TabButton id="differences" current={tab} onSelect={onTab}>
          1994 reading{current ? ` (${current.differences.length})` : ''}
        </TabButton>
      </div>
      <div class="panel tab-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {!verdicts ? (
          <p class="empty">Checking…</p>
        ) : tab === 'results' ? (
          <VerdictTable
            rows={verdicts.rows}
            dialect={props.dialect}
            selected={props.shownRow}
            fileOrigin={props.fileOrigin}
            onSelect={props.onSelect}
          />
        ) : tab === 'matrix' ? (
          <CrawlerMatrix urls={props.urls} matrix={verdicts.matrix} onShowLine={onShowLine} />
        ) : current ? (
          <DifferenceList differences={current.differences} onShowLine={onShowLine} />
        ) : (
          <p class="empty">Checking…</p>
        )}
      </div>
    </div>
  );
}

/**
 * The tester's results: the engine's failure if any, then four tabs: the verdicts for the chosen crawlers, every
 * crawler against the URLs, the crawlers of one purpose (AI training, all AI crawlers…) against the URLs, and where
 * the 1994 reading differs.
 */

import type { ComponentChildren } from 'preact';
import type { DialectName } from 'robotskit';
import type { FileAnswer, PurposeChoice, VerdictsAnswer } from '../../engine/protocol.js';
import { PurposeView } from './purpose-view.js';
import { CrawlerMatrix, DifferenceList, VerdictTable } from './results.js';

/** The result tabs. */
export type Tab = 'results' | 'matrix' | 'purpose' | 'differences';

const TABS: readonly Tab[] = ['results', 'matrix', 'purpose', 'differences'];

/**
 * The ARIA tab pattern's keys on the tab list: Left/Right move to the previous/next tab (wrapping), Home/End to the
 * first/last; the tab moved to is selected and focused (only the selected tab is in the Tab order).
 */
function onTabKey(event: KeyboardEvent, current: Tab, onSelect: (tab: Tab) => void): void {
  const at = TABS.indexOf(current);
  const to =
    event.key === 'ArrowRight'
      ? (at + 1) % TABS.length
      : event.key === 'ArrowLeft'
        ? (at + TABS.length - 1) % TABS.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? TABS.length - 1
            : null;
  if (to === null) return;
  event.preventDefault();
  const tab = TABS[to]!;
  onSelect(tab);
  document.getElementById(`tab-${tab}`)?.focus();
}

function TabButton(props: { id: Tab; current: Tab; onSelect: (tab: Tab) => void; children: ComponentChildren }) {
  const selected = props.id === props.current;
  return (
    <button
      type="button"
      role="tab"
      id={`tab-${props.id}`}
      aria-selected={selected}
      aria-controls={selected ? `panel-${props.id}` : undefined}
      tabIndex={selected ? 0 : -1}
      class={selected ? 'tab tab-current' : 'tab'}
      onClick={() => props.onSelect(props.id)}
      onKeyDown={(event) => onTabKey(event, props.current, props.onSelect)}
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
  /** A live load brought no file (why, in words): there is nothing to give verdicts on. */
  noFile: string | null;
  onSelect: (row: number, line: number) => void;
  onShowLine: (line: number) => void;
  purpose: PurposeChoice;
  onPurpose: (purpose: PurposeChoice) => void;
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
        <TabButton id="purpose" current={tab} onSelect={onTab}>
          By purpose
        </TabButton>
        <TabButton id="differences" current={tab} onSelect={onTab}>
          1994 reading{current ? ` (${current.differences.length})` : ''}
        </TabButton>
      </div>
      <div class="panel tab-panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {props.noFile !== null ? (
          <p class="empty">No verdicts: the live load brought no file. {props.noFile}</p>
        ) : !verdicts ? (
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
        ) : tab === 'purpose' ? (
          <PurposeView
            purpose={props.purpose}
            onPurpose={props.onPurpose}
            urls={props.urls}
            rows={verdicts.purposeRows}
            onShowLine={onShowLine}
          />
        ) : current ? (
          <DifferenceList differences={current.differences} onShowLine={onShowLine} />
        ) : (
          <p class="empty">Checking…</p>
        )}
      </div>
    </div>
  );
}

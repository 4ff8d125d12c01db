/**
 * A version's "AI use" section: per purpose of crawler (AI training, AI search, user-triggered AI assistants, control
 * tokens, search engines), what the file gives the catalogue's crawlers of that purpose (blocked, allowed, some paths)
 * and the AI usage preferences that apply, each with its deciding line. Every sentence is the engine's (`aiUse`, sent
 * by `GET /api/versions/:id/ai-use`); this only lays them out.
 */

import type { VersionAiUse } from '../../api-types.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { useApi } from '../../components/use-api.js';

type Purpose = NonNullable<VersionAiUse['aiUse']>['purposes'][number];
type UseSet = Purpose['sets'][number];

/** Names listed before the rest are folded away. */
const NAMES_SHOWN = 4;

const ACCESS = {
  nothing: { label: 'Blocked', tone: 'blocked' },
  everything: { label: 'Allowed', tone: 'allowed' },
  some: { label: 'Some paths', tone: 'warn' },
} as const;

function groupsWords(set: UseSet): string {
  if (set.match === 'none') return 'no group applies';
  const lines = set.groupLines.join(', ');
  return set.match === 'global' ? `the * group (line ${lines})` : `their own group (line ${lines})`;
}

function Crawlers({ set }: { set: UseSet }) {
  const names = set.crawlers;
  if (names.length <= NAMES_SHOWN) return <>{names.join(', ')}</>;
  return (
    <details class="ai-use-names">
      <summary>
        {names.slice(0, NAMES_SHOWN - 1).join(', ')} and {names.length - NAMES_SHOWN + 1} more
      </summary>
      {names.join(', ')}
    </details>
  );
}

function SetRow({ set }: { set: UseSet }) {
  const access = ACCESS[set.access];
  return (
    <tr>
      <td>
        <Crawlers set={set} />
        <div class="muted">{groupsWords(set)}</div>
      </td>
      <td>
        <span class={`badge badge-${access.tone} badge-small`}>{access.label}</span>{' '}
        <span class="ai-use-access">{set.text}</span>
      </td>
      <td>
        {set.statements.length === 0 && set.notes.length === 0 ? (
          <span class="muted">{set.access === 'nothing' ? 'None: nothing may be fetched' : 'None stated'}</span>
        ) : (
          <ul class="ai-use-statements">
            {set.statements.map((s) => (
              <li key={s.text} data-value={s.value}>
                {s.text}
              </li>
            ))}
            {set.notes.map((note) => (
              <li key={note} class="muted">
                {note}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

function PurposeTable({ purpose }: { purpose: Purpose }) {
  const id = `ai-use-${purpose.purpose}`;
  return (
    <div class="ai-use-purpose">
      <h3 id={id} class="ai-use-heading">
        {purpose.text}
      </h3>
      {purpose.sets.length > 0 && (
        <div class="table-wrap">
          <table class="data-table ai-use-table" aria-labelledby={id}>
            <thead>
              <tr>
                <th scope="col">Crawlers</th>
                <th scope="col">What the rules leave them</th>
                <th scope="col">Usage preferences that apply</th>
              </tr>
            </thead>
            <tbody>
              {purpose.sets.map((set) => (
                <SetRow key={set.crawlers.join(',')} set={set} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** The section for one stored version. */
export function AiUseSection({ versionId }: { versionId: number }) {
  const answer = useApi<VersionAiUse>(`/api/versions/${versionId}/ai-use`);
  const use = answer.data?.versionId === versionId ? answer.data.aiUse : undefined;
  return (
    <section class="section panel ai-use" aria-labelledby="ai-use-title">
      <div class="panel-head">
        <h2 class="panel-title" id="ai-use-title">
          AI use
        </h2>
        <span class="muted">version #{versionId}</span>
      </div>
      {answer.error ? (
        <ApiErrorNotice error={answer.error} onRetry={answer.reload} context="The AI use" />
      ) : use === undefined ? (
        <p class="empty">Loading…</p>
      ) : use === null ? (
        <p class="empty">This version has no rules: nothing to say about AI crawlers.</p>
      ) : (
        <>
          <p class="hint">
            {use.statesPreferences
              ? 'This file states AI usage preferences (Content-Usage or Content-Signal). They apply only to URLs a crawler may fetch.'
              : 'No group of this file has a Content-Usage or Content-Signal line: no AI usage preferences are stated.'}
            {use.complete ? '' : ' A comparison was cut short: "some paths" may be more.'}
          </p>
          {use.purposes.map((p) => (
            <PurposeTable key={p.purpose} purpose={p} />
          ))}
        </>
      )}
    </section>
  );
}

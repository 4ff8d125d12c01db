/** The usage column of the verdict table: the AI usage preferences the engine found for a URL and crawler. */

import { USAGE_VOCABULARY, type UsageAnswer, type UsagePreferences } from 'robotskit';

/** A preference in the vocabulary's words: `y` is yes, `n` is no. */
const WORD = { allow: 'yes', disallow: 'no' } as const;

/** `train-ai: no · search: yes`, each label titled with its category's name; empty when nothing is stated. */
function preferenceWords(preferences: UsagePreferences): string {
  return Object.entries(preferences)
    .map(([label, preference]) => `${label}: ${WORD[preference]}`)
    .join(' · ');
}

function categoryTitles(preferences: UsagePreferences): string {
  return Object.keys(preferences)
    .map((label) => `${label}: ${USAGE_VOCABULARY.find((l) => l.label === label)?.category ?? label}`)
    .join(', ');
}

/** What the usage lines of the file say for one row: the deciding Content-Usage rule(s), then Content-Signal. */
export function UsageCell({ usage }: { usage: UsageAnswer }) {
  if (!usage.crawlable) return <span class="muted">None: preferences apply only to URLs the crawler may fetch</span>;
  const stated = preferenceWords(usage.preferences);
  const signal = usage.contentSignal;
  return (
    <>
      {usage.rules.length === 0 ? (
        <span class="muted">No Content-Usage rule matches</span>
      ) : (
        <>
          {usage.rules.map((rule) => (
            <div key={rule.line} class="usage-rule">
              <span class="line-ref">line {rule.line} </span>
              <code class="rule">
                {rule.pattern} {rule.expression}
              </code>
            </div>
          ))}
          <div class="usage-preferences" title={categoryTitles(usage.preferences)}>
            {stated === '' ? 'every category unknown' : stated}
          </div>
        </>
      )}
      {signal !== null && (
        <div class="usage-signal">
          <span class="line-ref">
            {signal.lines.length > 1 ? 'lines' : 'line'} {signal.lines.join(', ')}{' '}
          </span>
          <span class="usage-signals">
            Content-Signal:{' '}
            {Object.entries(signal.signals)
              .map(([key, value]) => `${key}=${value}`)
              .join(', ')}
          </span>
          {Object.keys(signal.preferences).length > 0 && (
            <div class="usage-signal-mapped" title={categoryTitles(signal.preferences)}>
              as {preferenceWords(signal.preferences)}
            </div>
          )}
        </div>
      )}
    </>
  );
}

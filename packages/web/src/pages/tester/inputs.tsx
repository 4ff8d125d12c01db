/** The tester's questions beside the editor: the URLs to test, the crawlers (with suggestions) and the reading. */

import type { DialectName } from 'robotskit';
import type { VerdictsAnswer } from '../../engine/protocol.js';
import { READING } from './results.js';

/** The URL list, one per line. */
export function UrlsPanel({ urls, onInput }: { urls: string; onInput: (urls: string) => void }) {
  return (
    <div class="panel">
      <label class="panel-title" for="urls">
        URLs <span class="hint-inline">one per line: full URLs or paths</span>
      </label>
      <textarea
        id="urls"
        rows={5}
        wrap="off"
        spellcheck={false}
        value={urls}
        placeholder={'https://example.com/page\n/just/a/path'}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </div>
  );
}

/** The crawler chooser (names from the catalogue suggested), what the engine made of the names, and the reading. */
export function CrawlerPanel(props: {
  crawler: string;
  onCrawler: (crawler: string) => void;
  crawlerNames: readonly string[];
  verdicts: VerdictsAnswer | null;
  dialect: DialectName;
  onDialect: (dialect: DialectName) => void;
}) {
  const { crawler, verdicts, dialect } = props;
  return (
    <div class="panel">
      <label class="panel-title" for="crawler">
        Crawler
      </label>
      <input
        id="crawler"
        list="crawler-names"
        value={crawler}
        autocomplete="off"
        spellcheck={false}
        placeholder="Googlebot, GPTBot, or any product token"
        onInput={(e) => props.onCrawler(e.currentTarget.value)}
      />
      <datalist id="crawler-names">
        {props.crawlerNames.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <p class="hint">
        {verdicts?.crawlerSummary ?? '\u00a0'} Several: separate them with commas; a full User-Agent string counts as
        the crawler it names.
      </p>
      {verdicts?.crawlerNotes.map((note) => (
        <p class="hint hint-warning" key={note}>
          {note}
        </p>
      ))}
      <fieldset class="dialect">
        <legend>Reading</legend>
        {(['google', 'legacy'] as const).map((name) => (
          <label class="check" key={name}>
            <input type="radio" name="dialect" checked={dialect === name} onChange={() => props.onDialect(name)} />
            {READING[name]}
          </label>
        ))}
      </fieldset>
    </div>
  );
}

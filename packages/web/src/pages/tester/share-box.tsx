/** The tester's "Share" panel: copies the page address, which holds the whole state (or says the file is too large). */

import { useState } from 'preact/hooks';
import { MAX_HASH_LENGTH } from './share.js';

/** The share panel; `tooLong` when the state does not fit in a link. */
export function ShareBox({ tooLong }: { tooLong: boolean }) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div class="panel share">
      <span class="panel-title">Share</span>
      {tooLong ? (
        <p class="hint">
          This file is too large to carry in a link (over {Math.round(MAX_HASH_LENGTH / 1024)} KiB compressed); share
          the file itself.
        </p>
      ) : (
        <>
          <p class="hint">The page address holds the file, URLs, crawler and reading.</p>
          <button
            type="button"
            class="small"
            onClick={() => {
              // Pages served over plain HTTP to another host have no clipboard API.
              if (!navigator.clipboard) {
                setCopied('Copy the address from the address bar.');
                return;
              }
              navigator.clipboard.writeText(location.href).then(
                () => setCopied('Link copied.'),
                () => setCopied('Copy the address from the address bar.'),
              );
            }}
          >
            Copy link
          </button>
          {copied && (
            <span class="hint" role="status">
              {' '}
              {copied}
            </span>
          )}
        </>
      )}
    </div>
  );
}

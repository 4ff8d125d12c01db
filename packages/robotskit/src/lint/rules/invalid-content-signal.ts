/**
 * The lint rule `invalid-content-signal`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/invalid-content-signal.md.
 */

import { CONTENT_SIGNAL_KEYS, contentSignalKey } from '../../usage/vocabulary.js';
import { usageLines } from '../analysis/usage-lines.js';
import { defineRule } from '../rule.js';
import { nearestName, quote } from '../words.js';

const KEYS = CONTENT_SIGNAL_KEYS.map((k) => k.key);

/** `invalid-content-signal`: a Content-Signal line with a syntax, key or value Cloudflare's policy does not define. */
export const invalidContentSignal = defineRule({
  code: 'invalid-content-signal',
  name: 'Invalid Content-Signal',
  severity: 'warning',
  description:
    'A Content-Signal line that is not comma-separated key=value pairs, or names a signal or value the Content Signals Policy does not define.',
  check(context) {
    for (const line of context.shared(usageLines)) {
      if (line.kind !== 'signal') continue;
      const { record, signal } = line;
      const range = record.valueRange ?? context.contentRange(record);
      if (signal.pairs === null) {
        context.report({
          range: record.value === '' ? context.contentRange(record) : range,
          message: `Content-Signal takes signals as key=value pairs separated by commas (search=yes, ai-train=no), not ${quote(signal.value)}`,
        });
        continue;
      }
      for (const [key, value] of signal.pairs) {
        const known = contentSignalKey(key);
        if (known === undefined) {
          const lower = contentSignalKey(key.toLowerCase());
          const near = lower === undefined ? nearestName(key.toLowerCase(), KEYS) : lower.key;
          context.report({
            range,
            message:
              lower !== undefined
                ? `Signal names are lower-case: readers may not read ${quote(key)} as "${lower.key}"`
                : `${quote(key)} is not a content signal (${KEYS.join(', ')})${near ? `; did you mean "${near}"?` : ''}`,
          });
        } else if (!known.values.includes(value)) {
          context.report({
            range,
            message: `${key}=${value}: ${key} takes ${known.values.join(' or ')}, so readers ignore this signal`,
          });
        }
      }
    }
  },
});

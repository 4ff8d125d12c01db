/**
 * The lint rule `invalid-crawl-delay`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/invalid-crawl-delay.md.
 */

import { crawlDelaySeconds } from '../../model/crawl-delay.js';
import { defineRule } from '../rule.js';
import { quote } from '../words.js';

/** `invalid-crawl-delay`: a crawl-delay value that crawlers honouring it cannot read. */
export const invalidCrawlDelay = defineRule({
  code: 'invalid-crawl-delay',
  name: 'Invalid crawl-delay',
  severity: 'warning',
  description: 'Crawl-delay takes a number of seconds (e.g. 10, 0.5 or .5); Bing and Yandex ignore any other value.',
  check(context) {
    for (const record of context.records) {
      if (record.field !== 'unknown' || record.key.toLowerCase() !== 'crawl-delay' || record.valueRange === null)
        continue;
      const value = record.value;
      if (crawlDelaySeconds(value) !== null) continue;
      const seconds = /^(\d+(?:\.\d+)?)\s*(?:s|secs?|seconds?)$/i.exec(value)?.[1];
      const range = value === '' ? context.contentRange(record) : record.valueRange;
      context.report({
        range,
        message:
          value === ''
            ? 'Crawl-delay without a value: crawlers that honour it need a number of seconds'
            : `Crawl-delay takes a number of seconds; crawlers that honour it cannot read ${quote(value)}`,
        ...(seconds !== undefined
          ? { fix: { description: `Replace with ${seconds}`, edits: [{ range: record.valueRange, text: seconds }] } }
          : {}),
      });
    }
  },
});

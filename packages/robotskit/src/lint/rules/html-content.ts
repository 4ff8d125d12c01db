/**
 * The lint rule `html-content`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/html-content.md.
 */

import { findHtmlTag } from '../../parse/html.js';
import { defineRule } from '../rule.js';

/** Lines looked at: an HTML page shows itself at once, and a real robots.txt with a stray "<html" is not one. */
const LOOK_AT = 20;

/** `html-content`: an HTML page served as robots.txt (an error page, a login wall, a single-page app). */
export const htmlContent = defineRule({
  code: 'html-content',
  name: 'HTML instead of robots.txt',
  severity: 'warning',
  description:
    'The file is an HTML page: Google reads only the lines that happen to parse as rules, usually none. The server probably answers /robots.txt with a page.',
  check(context) {
    let looked = 0;
    for (const record of context.records) {
      if (record.kind === 'blank' || record.kind === 'comment') continue;
      if (++looked > LOOK_AT) return;
      const range = context.contentRange(record);
      const text = context.units.slice(range.start, range.end);
      const tag = findHtmlTag(text);
      if (tag === null) continue;
      const start = range.start + tag.index;
      context.report({
        range: { start, end: start + tag.length },
        message:
          'This looks like an HTML page, not a robots.txt: Google reads only lines that happen to parse as rules (is the server answering /robots.txt with a page?)',
      });
      return;
    }
  },
});

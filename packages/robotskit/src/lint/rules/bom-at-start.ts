/**
 * The lint rule `bom-at-start`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/bom-at-start.md.
 */

import { defineRule } from '../rule.js';

/** `bom-at-start`: a byte order mark at the start of the file, which Google skips and some tools do not. */
export const bomAtStart = defineRule({
  code: 'bom-at-start',
  name: 'Byte order mark at the start',
  severity: 'info',
  description:
    'The file starts with a UTF-8 byte order mark. Google skips it (even a partial one); some older crawlers read it as part of the first field name.',
  check(context) {
    const bom = context.robots.bomLength;
    if (bom === 0) return;
    const range = { start: 0, end: context.offsetOfByte(bom) };
    context.report({
      range,
      message:
        bom === 3
          ? 'The file starts with a byte order mark: Google skips it, some older crawlers read it as part of the first line'
          : `The file starts with an incomplete byte order mark (${bom} of its 3 bytes): Google skips it, other crawlers may not`,
      fix: { description: 'Delete the byte order mark', edits: [{ range, text: '' }] },
    });
  },
});

/**
 * The lint rule `bom-in-middle`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/bom-in-middle.md.
 */

import { defineRule } from '../rule.js';

/** How a BOM (U+FEFF, bytes EF BB BF) looks in the units string: one char for text, three for bytes. */
function bomIn(unit: 'utf-16' | 'byte'): string {
  return unit === 'utf-16' ? '\uFEFF' : '\u00EF\u00BB\u00BF';
}

/** `bom-in-middle`: a byte order mark after the start of the file is content, not skipped. */
export const bomInMiddle = defineRule({
  code: 'bom-in-middle',
  name: 'Byte order mark inside the file',
  severity: 'warning',
  description:
    'A byte order mark is skipped only at the very start; elsewhere (files glued together) it is content, and the field after it becomes unknown.',
  check(context) {
    const bom = bomIn(context.unit);
    const units = context.units;
    const end = Math.min(units.length, context.parsedEnd);
    let at = units.indexOf(bom, 1);
    for (let count = 0; at >= 0 && at < end && count < 100; count++) {
      const range = { start: at, end: at + bom.length };
      const before = context.records.find((r) => r.range.start <= at && at <= r.range.end);
      const atLineStart = before !== undefined && units.slice(before.range.start, at).trim() === '';
      context.report({
        range,
        message: atLineStart
          ? 'A byte order mark at the start of a line is content for Google: the field name after it is not recognised and the line is ignored'
          : 'A byte order mark inside the file is content for Google, not skipped',
        fix: { description: 'Delete the byte order mark', edits: [{ range, text: '' }] },
      });
      at = units.indexOf(bom, at + bom.length);
    }
  },
});

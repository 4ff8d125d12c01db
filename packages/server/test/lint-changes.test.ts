/**
 * Lint changes between two versions, matched through the diff's line mapping: only real changes are listed. The
 * engine lints both texts; the diff is the one the API serves.
 */

import { describe, expect, it } from 'vitest';
import { lineDiff, lineMapping, lintChanges } from '../src/analysis/diff.js';
import { analyzeBody } from '../src/storage/rows.js';

const encoder = new TextEncoder();
const lintOf = (text: string) => analyzeBody(encoder.encode(text));
const changes = (before: string, after: string) =>
  lintChanges(lintOf(before), lintOf(after), lineMapping(lineDiff(before, after)));

/** A large file with findings spread through it: typos, duplicate rules (whose messages name other lines). */
function bigFile(): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < 400; i++) {
    lines.push(`Disallow: /section-${i}/`);
    if (i % 20 === 0) lines.push(`Disalow: /typo-${i}/`, `Disallow: /section-${i}/`);
  }
  return `${lines.join('\n')}\n`;
}

describe('lint changes through the line mapping', () => {
  it('maps unchanged lines across insertions and removals, and changed lines to nothing', () => {
    const map = lineMapping(lineDiff('a\nb\nc\nd\n', 'a\nx\nb\nd\ne\n'));
    expect([1, 2, 3, 4].map(map!)).toEqual([1, 3, null, 4]);
  });

  it('lists no finding as new or fixed when one line is inserted above them all', () => {
    const before = bigFile();
    const found = lintOf(before).diagnostics.length;
    // Findings whose messages name lines, and findings on many lines: all of them move by one.
    expect(found).toBeGreaterThan(19);
    const after = before.replace('User-agent: *\n', 'User-agent: *\nAllow: /new-page\n');
    expect(changes(before, after)).toMatchObject({ added: [], removed: [] });
  });

  it('lists a finding on a changed line as fixed, and one on a new line as new', () => {
    const before = 'User-agent: *\nDisalow: /a\nDisallow: /b\n';
    const after = 'User-agent: *\nDisallow: /a\nDisallow: /b\nDisalow: /c\n';
    const result = changes(before, after);
    // The typo's findings (its spelling, and how the 1994 convention reads it) go with its line and come with the new one.
    expect(result.removed.map((d) => [d.line, d.code])).toEqual([
      [2, 'field-name-typo'],
      [2, 'dialect-difference'],
    ]);
    expect(result.added.map((d) => [d.line, d.code])).toEqual([
      [4, 'field-name-typo'],
      [4, 'dialect-difference'],
    ]);
  });
});

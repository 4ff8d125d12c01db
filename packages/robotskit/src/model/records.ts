/**
 * The per-line view of a file (`RobotsTxt.records`): built on demand by scanning the text again, since most callers
 * never ask for it.
 */

import { Field, LineFlag } from '../parse/fields.js';
import { type LineFacts, scanLines } from '../parse/lines.js';
import type { SourceText } from './source-text.js';
import type { InvalidReason, Range, RecordField, RobotsRecord } from './types.js';

const FIELD_NAMES: Record<number, RecordField> = {
  [Field.UserAgent]: 'user-agent',
  [Field.Allow]: 'allow',
  [Field.Disallow]: 'disallow',
  [Field.Sitemap]: 'sitemap',
  [Field.Unknown]: 'unknown',
};

function kindOf(facts: LineFacts): { kind: RobotsRecord['kind']; invalid: InvalidReason | null } {
  const flags = facts.flags;
  if (facts.field !== Field.None) return { kind: 'directive', invalid: null };
  if (flags & LineFlag.Blank) return { kind: 'blank', invalid: null };
  if (flags & LineFlag.CommentOnly) return { kind: 'comment', invalid: null };
  if (flags & LineFlag.TooManyTokens) return { kind: 'invalid', invalid: 'too-many-tokens' };
  if (flags & LineFlag.EmptyKey) return { kind: 'invalid', invalid: 'empty-key' };
  return { kind: 'invalid', invalid: 'no-separator' };
}

/** One record per line of `text`. */
export function buildRecords(text: SourceText): RobotsRecord[] {
  const records: RobotsRecord[] = [];
  const range = (start: number, end: number): Range => ({ start: text.offset(start), end: text.offset(end) });
  scanLines(text.source.bin, (facts) => {
    const { kind, invalid } = kindOf(facts);
    const flags = facts.flags;
    const directive = kind === 'directive';
    records.push({
      line: facts.line,
      kind,
      field: directive ? (FIELD_NAMES[facts.field] ?? null) : null,
      key: directive ? text.slice(facts.keyStart, facts.keyEnd) : '',
      value: directive ? text.slice(facts.valueStart, facts.valueEnd) : '',
      invalid,
      text: text.slice(facts.start, facts.end),
      flags: {
        missingColon: (flags & LineFlag.MissingColon) !== 0,
        typo: (flags & LineFlag.Typo) !== 0,
        prefixKey: (flags & LineFlag.PrefixKey) !== 0,
        tooLong: (flags & LineFlag.TooLong) !== 0,
        nul: (flags & LineFlag.Nul) !== 0,
        comment: (flags & LineFlag.HasComment) !== 0,
      },
      range: range(facts.start, facts.end),
      keyRange: directive ? range(facts.keyStart, facts.keyEnd) : null,
      valueRange: directive ? range(facts.valueStart, facts.valueEnd) : null,
      commentRange: facts.comment >= 0 ? range(facts.comment, facts.end) : null,
    });
  });
  return records;
}

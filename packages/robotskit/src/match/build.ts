/**
 * Building the model from the scanner's lines: groups (through the dialect's group builder), rules with normalised
 * patterns, sitemap values, and rules that belong to no group.
 */

import type { Dialect } from '../model/dialect.js';
import type { SourceText } from '../model/source-text.js';
import type { RobotsGroup } from '../model/types.js';
import {
  type DirectiveRows,
  ROW_FLAGS_SHIFT,
  ROW_INTS,
  ROW_KEY_END,
  ROW_KEY_START,
  ROW_LINE,
  ROW_VALUE_END,
  ROW_VALUE_START,
  scanDirectives,
} from '../parse/directives.js';
import { Field, LineFlag } from '../parse/fields.js';
import { isAsciiSpace } from '../parse/lines.js';
import { isTokenByte } from '../url/user-agent.js';
import { RuleTable } from './group.js';

/** What the parse of one file yields. */
interface Model {
  readonly groups: RobotsGroup[];
  /** Values of sitemap lines, in file order. */
  readonly sitemapValues: string[];
  /** Rules before any user-agent line: rows of this table, turned into objects on demand. */
  readonly orphans: RuleTable;
  readonly lineCount: number;
}

const F_USER_AGENT = Field.UserAgent;
const F_ALLOW = Field.Allow;
const F_DISALLOW = Field.Disallow;
const F_SITEMAP = Field.Sitemap;
const F_NONE = Field.None;
const FIELD_BITS = (1 << ROW_FLAGS_SHIFT) - 1;
const L_BLANK = LineFlag.Blank;
const L_MISSING_COLON = LineFlag.MissingColon;
/** What a dialect with strict field names does not accept: Google's typos and prefix-matched names. */
const L_LENIENT_KEY = LineFlag.Typo | LineFlag.PrefixKey;

/** The rows table of {@link scanDirectives}, reused from parse to parse (a parse is synchronous). */
let spareRows: DirectiveRows | null = null;
/** At most this many ints of it are kept between parses (64 KiB: 2,730 lines). */
const MAX_SPARE_INTS = 1 << 14;

/**
 * Reads the lines of `text` into groups as `dialect` forms them. `bytes` holds the parsed bytes (see `parsedBytes` in
 * `parse/input.ts`).
 */
export function buildModel(text: SourceText, dialect: Dialect, bytes: Uint8Array): Model {
  const bin = text.source.bin;
  const builder = dialect.groupBuilder(text);
  const strict = dialect.strictFieldNames;
  const sitemapValues: string[] = [];
  const orphans = new RuleTable();
  const rows = spareRows ?? { data: new Int32Array(256 * ROW_INTS), count: 0 };
  spareRows = null;
  const lineCount = scanDirectives(bin, bytes, rows);
  const d = rows.data;
  const size = rows.count * ROW_INTS;
  for (let r = 0; r < size; r += ROW_INTS) {
    const code = d[r]!;
    const field = code & FIELD_BITS;
    const flags = code >> ROW_FLAGS_SHIFT;
    const line = d[r + ROW_LINE]!;
    if (field === F_NONE) {
      if ((flags & L_BLANK) !== 0) builder.blank(line);
      continue;
    }
    const vs = d[r + ROW_VALUE_START]!;
    const ve = d[r + ROW_VALUE_END]!;
    if (strict && (flags & (L_MISSING_COLON | L_LENIENT_KEY)) !== 0) {
      // Without its colon the line is no field at all; a misspelt or prefixed name is a field nobody knows.
      if ((flags & L_MISSING_COLON) !== 0) continue;
      const key = text.slice(d[r + ROW_KEY_START]!, d[r + ROW_KEY_END]!);
      builder.extension({ line, key, name: key.toLowerCase(), value: text.slice(vs, ve) });
      continue;
    }
    if (field === F_ALLOW || field === F_DISALLOW) {
      if (!builder.rule(field === F_ALLOW, line, vs, ve)) orphans.add(field === F_ALLOW, line, vs, ve);
    } else if (field === F_USER_AGENT) {
      const global = ve > vs && bin.charCodeAt(vs) === 0x2a && (ve === vs + 1 || isAsciiSpace(bin.charCodeAt(vs + 1)));
      let te = vs;
      if (!global) while (te < ve && isTokenByte(bin.charCodeAt(te))) te++;
      const value = text.slice(vs, ve);
      // A value that is all token (`Googlebot`) is its own token: token bytes are ASCII, so the texts are equal.
      builder.userAgent({ line, value, token: te === ve ? value : bin.slice(vs, te), global });
    } else if (field === F_SITEMAP) {
      sitemapValues.push(text.slice(vs, ve));
    } else {
      const key = text.slice(d[r + ROW_KEY_START]!, d[r + ROW_KEY_END]!);
      builder.extension({ line, key, name: key.toLowerCase(), value: text.slice(vs, ve) });
    }
  }
  // A table grown for a huge file is not kept: the next parse gets one of the size kept.
  if (rows.data.length > MAX_SPARE_INTS) rows.data = new Int32Array(MAX_SPARE_INTS);
  spareRows = rows;
  orphans.trim();
  return { groups: builder.finish(), sitemapValues, orphans, lineCount };
}

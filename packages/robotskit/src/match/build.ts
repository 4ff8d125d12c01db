/**
 * Building the model from the scanner's lines: groups (through the dialect's group builder), rules with normalised
 * patterns, sitemap values, and rules that belong to no group.
 */

import type { Dialect } from '../model/dialect.js';
import type { SourceText } from '../model/source-text.js';
import type { RobotsGroup } from '../model/types.js';
import { Field, LineFlag } from '../parse/fields.js';
import { isAsciiSpace, type LineFacts, scanLines } from '../parse/lines.js';
import { isTokenByte } from '../url/user-agent.js';
import { RuleTable } from './group.js';

/** What the parse of one file yields. */
export interface Model {
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
const L_BLANK = LineFlag.Blank;
const L_MISSING_COLON = LineFlag.MissingColon;
/** What a dialect with strict field names does not accept: Google's typos and prefix-matched names. */
const L_LENIENT_KEY = LineFlag.Typo | LineFlag.PrefixKey;

/** Reads the lines of `text` into groups as `dialect` forms them. */
export function buildModel(text: SourceText, dialect: Dialect): Model {
  const bin = text.source.bin;
  const builder = dialect.groupBuilder(text);
  const strict = dialect.strictFieldNames;
  const sitemapValues: string[] = [];
  const orphans = new RuleTable();
  const lineCount = scanLines(bin, (facts: LineFacts) => {
    const field = facts.field;
    const line = facts.line;
    if (field === F_NONE) {
      if ((facts.flags & L_BLANK) !== 0) builder.blank(line);
      return;
    }
    const vs = facts.valueStart;
    const ve = facts.valueEnd;
    if (strict && (facts.flags & (L_MISSING_COLON | L_LENIENT_KEY)) !== 0) {
      // Without its colon the line is no field at all; a misspelt or prefixed name is a field nobody knows.
      if ((facts.flags & L_MISSING_COLON) !== 0) return;
      const key = text.slice(facts.keyStart, facts.keyEnd);
      builder.extension({ line, key, name: key.toLowerCase(), value: text.slice(vs, ve) });
      return;
    }
    if (field === F_ALLOW || field === F_DISALLOW) {
      if (!builder.rule(field === F_ALLOW, line, vs, ve)) orphans.add(field === F_ALLOW, line, vs, ve);
    } else if (field === F_USER_AGENT) {
      const global = ve > vs && bin.charCodeAt(vs) === 0x2a && (ve === vs + 1 || isAsciiSpace(bin.charCodeAt(vs + 1)));
      let te = vs;
      if (!global) while (te < ve && isTokenByte(bin.charCodeAt(te))) te++;
      builder.userAgent({ line, value: text.slice(vs, ve), token: bin.slice(vs, te), global });
    } else if (field === F_SITEMAP) {
      sitemapValues.push(text.slice(vs, ve));
    } else {
      const key = text.slice(facts.keyStart, facts.keyEnd);
      builder.extension({ line, key, name: key.toLowerCase(), value: text.slice(vs, ve) });
    }
  });
  orphans.trim();
  return { groups: builder.finish(), sitemapValues, orphans, lineCount };
}

/**
 * A group as the model stores it: agents and extensions as objects, rules as offsets into the parsed text until
 * someone asks for them. Most groups of most files are never consulted (a crawler reads one or two), so rule objects
 * and their normalised patterns are built on first access of `rules`.
 */

import type { SourceText } from '../model/source-text.js';
import type { RobotsAgent, RobotsExtension, RobotsGroup, RobotsRule } from '../model/types.js';
import { normalizePatternBin, patternNeedsNormalizing } from './pattern.js';

/** Builds the rule object for the value `[start, end)` of the parsed text. */
export function makeRule(text: SourceText, allow: boolean, line: number, start: number, end: number): RobotsRule {
  const bin = text.source.bin;
  const exact = !patternNeedsNormalizing(bin, start, end);
  const pattern = exact ? bin.slice(start, end) : normalizePatternBin(bin, start, end);
  return { kind: allow ? 'allow' : 'disallow', pattern, value: exact ? pattern : text.slice(start, end), line };
}

/**
 * The allow/disallow lines of a file, four ints each (1 for allow or 0 for disallow, line, value start, value end), in
 * file order. A group's rules are always consecutive lines of this table.
 */
export class RuleTable {
  readonly data: number[] = [];
  count = 0;

  add(allow: boolean, line: number, start: number, end: number): void {
    this.data.push(allow ? 1 : 0, line, start, end);
    this.count++;
  }

  /** Builds the rule objects of rows `[from, to)`. */
  rules(text: SourceText, from: number, to: number): RobotsRule[] {
    const d = this.data;
    const rules: RobotsRule[] = [];
    for (let i = from << 2; i < to << 2; i += 4)
      rules.push(makeRule(text, d[i] === 1, d[i + 1]!, d[i + 2]!, d[i + 3]!));
    return rules;
  }
}

/** A group of the model. See {@link RobotsGroup}. */
export class Group implements RobotsGroup {
  readonly index: number;
  readonly agents: RobotsAgent[] = [];
  readonly extensions: RobotsExtension[] = [];
  readonly startLine: number;
  endLine: number;
  private readonly text: SourceText;
  private readonly table: RuleTable;
  /** This group's rules are rows `[firstRule, endRule)` of the table. */
  private readonly firstRule: number;
  private endRule: number;
  private cachedRules: RobotsRule[] | null = null;

  constructor(text: SourceText, table: RuleTable, index: number, startLine: number) {
    this.text = text;
    this.table = table;
    this.index = index;
    this.startLine = startLine;
    this.endLine = startLine;
    this.firstRule = table.count;
    this.endRule = table.count;
  }

  /** Records a rule whose value is `[start, end)` of the parsed text. Rules of other groups may not come between. */
  addRule(allow: boolean, line: number, start: number, end: number): void {
    this.table.add(allow, line, start, end);
    this.endRule = this.table.count;
    this.endLine = line;
  }

  /** Number of rules, without building them. */
  get ruleCount(): number {
    return this.endRule - this.firstRule;
  }

  get rules(): readonly RobotsRule[] {
    if (this.cachedRules === null || this.cachedRules.length !== this.ruleCount) {
      this.cachedRules = this.table.rules(this.text, this.firstRule, this.endRule);
    }
    return this.cachedRules;
  }

  /** A plain-data copy, for JSON. */
  toJSON(): RobotsGroup {
    const { index, agents, rules, extensions, startLine, endLine } = this;
    return { index, agents, rules, extensions, startLine, endLine };
  }
}

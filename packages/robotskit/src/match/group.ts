/**
 * A group as the model stores it: agents and extensions as objects, rules as offsets into the parsed text until
 * someone asks for them. Most groups of most files are never consulted (a crawler reads one or two), so rule objects
 * and their normalised patterns are built on first access of `rules`.
 */

import type { SourceText } from '../model/source-text.js';
import type { RobotsAgent, RobotsExtension, RobotsGroup, RobotsRule } from '../model/types.js';
import { normalizePatternBin, patternNeedsNormalizing } from './pattern.js';
import { addMatchRules, type MatchRule } from './rule-matcher.js';

const NO_ROWS: number[] = [];
/** Tables of at most this many ints (12 rules) are kept as plain arrays. */
const SMALL_TABLE = 48;
/** Scratch buffers of tables being filled, reused from parse to parse (a parse is synchronous and fills two). */
const SCRATCH: Int32Array[] = [];
/** Larger scratch buffers (of huge files) are not kept. */
const MAX_SCRATCH = 1 << 16;

/** Builds the rule object for the value `[start, end)` of the parsed text. */
function makeRule(text: SourceText, allow: boolean, line: number, start: number, end: number): RobotsRule {
  const bin = text.source.bin;
  const exact = !patternNeedsNormalizing(bin, start, end);
  const pattern = exact ? bin.slice(start, end) : normalizePatternBin(bin, start, end);
  return { kind: allow ? 'allow' : 'disallow', pattern, value: exact ? pattern : text.slice(start, end), line };
}

/**
 * The allow/disallow lines of a file, four ints each (1 for allow or 0 for disallow, line, value start, value end), in
 * file order. A group's rules are always consecutive lines of this table. While the file is read, rows go into a
 * reused scratch buffer; {@link RuleTable.trim} then copies them into a typed array of their size (4 bytes an int),
 * so a parse allocates the table once.
 */
export class RuleTable {
  data: Int32Array | number[] = NO_ROWS;
  count = 0;
  private scratch = true;
  /**
   * The last search for a `%` (ASCII text only): from `percentFrom` the next one is at `percentAt` (-1: none; -2: not
   * searched yet). A crawler named in many groups has each group's rules added in turn; without the memo each group
   * searched again from its own rows to the next `%`, which in a file without one is its end (quadratic).
   */
  private percentFrom = 0;
  private percentAt = -2;

  constructor() {
    this.data = SCRATCH.pop() ?? new Int32Array(256);
  }

  add(allow: boolean, line: number, start: number, end: number): void {
    const i = this.count << 2;
    if (i + 4 > this.data.length) this.grow();
    const d = this.data as Int32Array;
    d[i] = allow ? 1 : 0;
    d[i + 1] = line;
    d[i + 2] = start;
    d[i + 3] = end;
    this.count++;
  }

  private grow(): void {
    const next = new Int32Array(Math.max(256, this.data.length * 2));
    next.set(this.data);
    this.data = next;
  }

  /** Moves the rows out of the scratch buffer into an array of their size; call once no more rows come. */
  trim(): void {
    if (!this.scratch) return;
    const buffer = this.data as Int32Array;
    const size = this.count << 2;
    if (size === 0) this.data = NO_ROWS;
    else if (size <= SMALL_TABLE) {
      // A typed array costs more to create than a short plain array of small integers, and takes more room.
      const rows = new Array<number>(size);
      for (let i = 0; i < size; i++) rows[i] = buffer[i]!;
      this.data = rows;
    } else this.data = buffer.slice(0, size);
    this.scratch = false;
    if (SCRATCH.length < 4 && buffer.length <= MAX_SCRATCH) SCRATCH.push(buffer);
  }

  /** The offset of the next `%` at or after `from` in `bin`, or -1, searching again only past the last answer. */
  private nextPercent(bin: string, from: number): number {
    if (this.percentAt !== -2 && from >= this.percentFrom && (this.percentAt < 0 || from <= this.percentAt))
      return this.percentAt;
    this.percentFrom = from;
    this.percentAt = bin.indexOf('%', from);
    return this.percentAt;
  }

  /** Appends the match rules of rows `[from, to)` to `out`, building no rule objects on the way. */
  matchRules(text: SourceText, from: number, to: number, out: MatchRule[]): void {
    const d = this.data;
    const { bin, ascii } = text.source;
    // In ASCII text only a `%` can need normalising: the next one is looked for once for all the values before it.
    let percent = 0;
    for (let i = from << 2; i < to << 2; i += 4) {
      const start = d[i + 2]!;
      const end = d[i + 3]!;
      if (percent >= 0 && percent < start) percent = ascii ? this.nextPercent(bin, start) : start;
      const exact = percent < 0 || percent >= end;
      addMatchRules(out, d[i] === 1, exact ? bin.slice(start, end) : normalizePatternBin(bin, start, end), d[i + 1]!);
    }
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
  agents: RobotsAgent[] = [];
  extensions: RobotsExtension[] = [];
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

  /**
   * Adds an agent (and {@link Group.addExtension} an extension). The first goes into an array of its own size: `push`
   * onto an empty array makes room for 17, and most groups have one agent and no extension.
   */
  addAgent(agent: RobotsAgent): void {
    if (this.agents.length === 0) this.agents = [agent];
    else this.agents.push(agent);
  }

  addExtension(extension: RobotsExtension): void {
    if (this.extensions.length === 0) this.extensions = [extension];
    else this.extensions.push(extension);
  }

  /** Drops the room arrays grown by `push` keep for growing (a one-item array is exactly its size). */
  compact(): void {
    if (this.agents.length > 1) this.agents = this.agents.slice();
    if (this.extensions.length > 1) this.extensions = this.extensions.slice();
  }

  /** Number of rules, without building them. */
  get ruleCount(): number {
    return this.endRule - this.firstRule;
  }

  get rules(): readonly RobotsRule[] {
    if (this.cachedRules === null || this.cachedRules.length !== this.ruleCount) {
      this.cachedRules = this.rulesUncached();
    }
    return this.cachedRules;
  }

  /** Appends the match rules of this group's rules to `out`. */
  matchRules(out: MatchRule[]): void {
    this.table.matchRules(this.text, this.firstRule, this.endRule, out);
  }

  /** The rules, built without keeping them (for a matcher, which keeps its own form of them). */
  rulesUncached(): RobotsRule[] {
    return this.table.rules(this.text, this.firstRule, this.endRule);
  }

  /** A plain-data copy, for JSON. */
  toJSON(): RobotsGroup {
    const { index, agents, rules, extensions, startLine, endLine } = this;
    return { index, agents, rules, extensions, startLine, endLine };
  }
}

/** Appends the match rules of `group` to `out`; model groups build no rule objects for it. */
export function addGroupMatchRules(group: RobotsGroup, out: MatchRule[]): void {
  if (group instanceof Group) group.matchRules(out);
  else for (const r of group.rules) addMatchRules(out, r.kind === 'allow', r.pattern, r.line);
}

/** The rules of `groups` in line order, built without keeping them (a matcher keeps its own form of them). */
export function pooledRules(groups: readonly RobotsGroup[]): RobotsRule[] {
  const rules: RobotsRule[] = [];
  for (const group of groups)
    for (const r of group instanceof Group ? group.rulesUncached() : group.rules) rules.push(r);
  return rules.sort((a, b) => a.line - b.line);
}

/** Called once a file is read: trims the rule table and the groups' arrays to their contents. */
export function finishGroups(groups: readonly Group[], table: RuleTable): void {
  table.trim();
  for (const group of groups) group.compact();
}

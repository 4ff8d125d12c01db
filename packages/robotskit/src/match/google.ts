/**
 * The `google` dialect: RFC 9309 exactly as Google's reference parser (google/robotstxt) applies it.
 *
 * - Groups: consecutive user-agent lines share a group; the first user-agent line after a rule starts a new one.
 *   Blank lines, sitemaps and unknown lines end nothing. Rules before any user-agent line are ignored.
 * - Selection: every group whose product token equals one of the crawler's names (ASCII case-insensitively) applies,
 *   merged, even when it holds no rules; only if there is none do the `*` groups apply. A group naming both the crawler
 *   and `*` counts as the crawler's. For crawler profiles whose names are not product tokens, the whole user-agent value
 *   is compared instead (`wholeValue`); strings are always compared as the reference compares them.
 * - Matching: the longest matching pattern wins, equal lengths go to allow, an empty pattern matches with priority 0
 *   (it never beats a real match, but can be the reported line), and `allow: <dir>/index.htm[l]` also allows `<dir>/`.
 */

import type {
  Dialect,
  GroupBuilder,
  GroupSelector,
  PoolMatcher,
  Selection,
  SelectOptions,
  Verdict,
} from '../model/dialect.js';
import type { SourceText } from '../model/source-text.js';
import type { RobotsAgent, RobotsExtension, RobotsGroup } from '../model/types.js';
import { asciiLower } from '../url/user-agent.js';
import { addGroupMatchRules, finishGroups, Group, RuleTable } from './group.js';
import { type BestMatches, RuleMatcher, ruleList } from './rule-matcher.js';

class GoogleGroupBuilder implements GroupBuilder {
  private readonly text: SourceText;
  private readonly table = new RuleTable();
  private readonly groups: Group[] = [];
  private current: Group | null = null;
  private sawRule = false;

  constructor(text: SourceText) {
    this.text = text;
  }

  userAgent(agent: RobotsAgent): void {
    if (this.current === null || this.sawRule) {
      this.current = new Group(this.text, this.table, this.groups.length, agent.line);
      this.groups.push(this.current);
      this.sawRule = false;
    }
    this.current.addAgent(agent);
    this.current.endLine = agent.line;
  }

  rule(allow: boolean, line: number, start: number, end: number): boolean {
    if (this.current === null) return false;
    this.current.addRule(allow, line, start, end);
    this.sawRule = true;
    return true;
  }

  extension(extension: RobotsExtension): void {
    if (this.current === null) return;
    this.current.addExtension(extension);
    this.current.endLine = extension.line;
  }

  blank(): void {}

  finish(): RobotsGroup[] {
    finishGroups(this.groups, this.table);
    return this.groups;
  }
}

function selectGoogle(groups: readonly RobotsGroup[], agents: readonly string[], options?: SelectOptions): Selection {
  const wholeValue = options?.wholeValue === true;
  const specific: number[] = [];
  const specificLines: number[] = [];
  const global: number[] = [];
  const globalLines: number[] = [];
  for (const group of groups) {
    let named = false;
    let globalLine = 0;
    for (const agent of group.agents) {
      if (agent.global) {
        if (globalLine === 0) globalLine = agent.line;
        continue;
      }
      const name = wholeValue ? asciiLower(agent.value) : agent.token.toLowerCase();
      if (agents.includes(name)) {
        named = true;
        specificLines.push(agent.line);
      }
    }
    if (named) specific.push(group.index);
    else if (globalLine > 0) {
      global.push(group.index);
      for (const agent of group.agents) if (agent.global) globalLines.push(agent.line);
    }
  }
  // Copies: the lists are kept with the plan, and a list grown by `push` keeps room for 17 items.
  if (specific.length > 0) return { match: 'specific', groups: [...specific], agentLines: [...specificLines] };
  if (global.length > 0) return { match: 'global', groups: [...global], agentLines: [...globalLines] };
  return { match: 'none', groups: [], agentLines: [] };
}

/** Groups and user-agent lines naming one name. */
interface Named {
  readonly groups: number[];
  readonly lines: number[];
}

function note(named: Named, group: number, line: number): void {
  if (named.groups[named.groups.length - 1] !== group) named.groups.push(group);
  named.lines.push(line);
}

function addNamed(index: Map<string, Named>, name: string, group: number, line: number): void {
  let named = index.get(name);
  if (named === undefined) {
    named = { groups: [], lines: [] };
    index.set(name, named);
  }
  note(named, group, line);
}

/** Sorted union of ascending lists. */
function union(lists: readonly (readonly number[])[]): number[] {
  if (lists.length === 1) return [...lists[0]!];
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}

/**
 * {@link selectGoogle} over an index of the groups by product token (and, on first use, by whole value), built once:
 * each question is then a few map lookups instead of a pass over every group.
 */
function googleSelector(groups: readonly RobotsGroup[]): GroupSelector {
  const byToken = new Map<string, Named>();
  let byValue: Map<string, Named> | null = null;
  const global: Named = { groups: [], lines: [] };
  for (const group of groups) {
    for (const agent of group.agents) {
      if (agent.global) note(global, group.index, agent.line);
      else addNamed(byToken, agent.token.toLowerCase(), group.index, agent.line);
    }
  }
  return (agents, options) => {
    let index = byToken;
    if (options?.wholeValue === true) {
      if (byValue === null) {
        byValue = new Map();
        for (const group of groups) {
          for (const agent of group.agents) {
            if (!agent.global) addNamed(byValue, asciiLower(agent.value), group.index, agent.line);
          }
        }
      }
      index = byValue;
    }
    const found: Named[] = [];
    for (const agent of agents) {
      const named = index.get(agent);
      if (named !== undefined && !found.includes(named)) found.push(named);
    }
    if (found.length > 0) {
      return {
        match: 'specific',
        groups: union(found.map((n) => n.groups)),
        agentLines: union(found.map((n) => n.lines)),
      };
    }
    if (global.groups.length > 0) return { match: 'global', groups: global.groups, agentLines: global.lines };
    return { match: 'none', groups: [], agentLines: [] };
  };
}

/**
 * What {@link LongestMatch.allows} has `best` fill, shared by every matcher: `best` runs to its end without calling any
 * other code, and the result is read at once (an object per matcher would be one more to reach on each check).
 */
const scratch: BestMatches = { allow: null, disallow: null };

class LongestMatch implements PoolMatcher {
  private readonly rules: RuleMatcher;

  constructor(groups: readonly RobotsGroup[]) {
    const matchRules = ruleList();
    for (const group of groups) addGroupMatchRules(group, matchRules);
    this.rules = new RuleMatcher(matchRules);
  }

  allows(path: string): boolean {
    const best = scratch;
    this.rules.best(path, best);
    const a = best.allow === null ? -1 : best.allow.priority;
    const d = best.disallow === null ? -1 : best.disallow.priority;
    // The reference: a disallow decides only when it is strictly longer and a real (non-empty) match.
    return !(d > a && d > 0);
  }

  decide(path: string): Verdict {
    const best: BestMatches = { allow: null, disallow: null };
    this.rules.best(path, best);
    const { allow, disallow } = best;
    const a = allow === null ? -1 : allow.priority;
    const d = disallow === null ? -1 : disallow.priority;
    // The reported line is the disallow's when it is longer, else the allow's (0 when nothing matched).
    const winner = d > a ? disallow : allow;
    return {
      allowed: !(d > a && d > 0),
      rule:
        winner === null
          ? null
          : {
              kind: winner.allow ? 'allow' : 'disallow',
              pattern: winner.source,
              line: winner.line,
              indexHtml: winner.indexHtml,
            },
    };
  }
}

/** RFC 9309 as Google's reference parser reads it. */
export const googleDialect: Dialect = {
  name: 'google',
  strictFieldNames: false,
  groupBuilder: (text) => new GoogleGroupBuilder(text),
  select: selectGoogle,
  selector: googleSelector,
  matcher: (groups) => new LongestMatch(groups),
};

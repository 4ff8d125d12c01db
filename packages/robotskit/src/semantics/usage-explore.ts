/**
 * Where two files' AI usage preferences differ for one crawler, exactly: the paths `usageChanges` shows them at.
 *
 * What a file states for a path (`RobotsTxt.usage`: the longest matching `Content-Usage` rules, and the groups'
 * `Content-Signal` lines, the same everywhere) depends only on which of the crawler's `Content-Usage` patterns match
 * the path; whether the crawler may fetch it, only on which of its Allow/Disallow patterns do. As for the verdicts
 * (`compare.ts`), each pattern is a small automaton (`automaton.ts`), and the tuple of their states is a state of a
 * product automaton: every path that reaches one state gets the same answers. Characters no pattern tells apart all
 * lead alike, so one stand-in is tried for all of them. Two explorations, breadth-first from `/`:
 *
 * 1. Over the `Content-Usage` patterns alone (few): every combination of them that a path reaches, and at its first
 *    (shortest) path what each file states there, whether or not the crawler may fetch it. A combination where the two
 *    differ is a class of paths where they differ. A branch ends when every pattern is settled (it matches every longer
 *    path, or none: nothing changes below), or when every pattern still alive is used alike by both files (the same
 *    preferences) and the two state the same signals (nothing can differ below).
 * 2. Where the crawler may not fetch a class' first path in one of the files, and the changes the class would show
 *    (categories, values and lines) are not all shown by another class already: over every pattern, the first path of
 *    the class that both files let it fetch, if any. A branch ends once its `Content-Usage` patterns are all settled
 *    in another class, or every pattern is, or a file disallows every longer path (a Disallow that matches whatever
 *    follows is longer than every Allow that still could). A class with no such path has no difference a crawler could
 *    see: where only one file lets it fetch, its access changed, which is `compareRobots`' regions.
 *
 * Every answer is the engine's own (`statedUsage`, `RobotsTxt.usage` for a path); the product only says which paths
 * stand for all the others. Both explorations are bounded (`maxStates`, the deadline): `complete: false` when one was
 * cut short.
 */

import { compilePattern } from '../match/pattern.js';
import type { RobotsRule, UsageAnswer } from '../model/types.js';
import { type CrawlerInput, type RobotsTxt, sourceOf, statedUsage } from '../robots-txt/robots-txt.js';
import { readUsageLines } from '../usage/lines.js';
import { preferencesOf } from '../usage/preferences.js';
import { ACCEPT, DEAD, PatternAutomaton } from './automaton.js';
import { productOf, type Rule, standInFor } from './product.js';

/** The paths found (each class' first path both files let the crawler fetch), and whether the search ran to its end. */
export interface UsageExploration {
  readonly paths: readonly string[];
  readonly complete: boolean;
  readonly states: number;
}

/** `/`: every path starts with it. */
const SLASH = 0x2f;

/** The `Content-Usage` rules of the groups `file` selects for `crawler`: normalised pattern → what each states. */
function usageRules(file: RobotsTxt, crawler: CrawlerInput): Map<string, string[]> {
  const rules = new Map<string, string[]>();
  const { groups } = file.selectGroups(crawler);
  if (!groups.some((g) => g.extensions.some((e) => e.name === 'content-usage'))) return rules;
  const lines = readUsageLines(sourceOf(file)).usage;
  for (const group of groups) {
    for (const extension of group.extensions) {
      const rule = lines.get(extension.line);
      if (rule === undefined || rule.pattern === null) continue;
      const source = compilePattern(rule.pattern).source;
      const stated = rules.get(source) ?? [];
      stated.push(JSON.stringify(entries(preferencesOf(rule.parsed))));
      rules.set(source, stated);
    }
  }
  return rules;
}

/** An object's entries by key: the same for objects with the same members, in whatever order they were set. */
function entries(values: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** What the groups' `Content-Signal` lines state (the same for every path), as one string. */
function signalKey(answer: UsageAnswer): string {
  const signal = answer.contentSignal;
  return JSON.stringify(signal === null ? null : [entries(signal.preferences), entries(signal.unmapped)]);
}

/** What a file states for a category: the value, and the lines that state it. */
export interface Stated {
  readonly value: string;
  readonly lines: readonly number[];
}

/**
 * What an answer states, by category (a vocabulary label, or `content-signal:<key>` for a signal key with no category of
 * the same use): the deciding `Content-Usage` rules' preferences, and the signal's where no rule states the category.
 */
export function statementsOf(answer: UsageAnswer): Map<string, Stated> {
  const stated = new Map<string, Stated>();
  const ruleLines = answer.rules.map((r) => r.line);
  for (const [category, preference] of Object.entries(answer.preferences)) {
    stated.set(category, { value: preference, lines: ruleLines });
  }
  const signal = answer.contentSignal;
  if (signal !== null) {
    for (const [category, preference] of Object.entries(signal.preferences)) {
      // A Content-Usage rule's own statement is the one that decides the category; the signal fills the gaps.
      if (!stated.has(category)) stated.set(category, { value: preference, lines: signal.lines });
    }
    for (const [key, value] of Object.entries(signal.unmapped)) {
      stated.set(`content-signal:${key}`, { value, lines: signal.lines });
    }
  }
  return stated;
}

/** One category stated differently: its values and lines before and after (null, []: not stated). */
export interface StatementChange {
  readonly category: string;
  readonly before: string | null;
  readonly after: string | null;
  readonly linesBefore: readonly number[];
  readonly linesAfter: readonly number[];
}

/** The categories `was` and `now` state differently, in the order `was` then `now` names them. */
export function changesBetween(was: Map<string, Stated>, now: Map<string, Stated>): StatementChange[] {
  const changes: StatementChange[] = [];
  for (const category of new Set([...was.keys(), ...now.keys()])) {
    const a = was.get(category) ?? null;
    const b = now.get(category) ?? null;
    if (a?.value === b?.value) continue;
    changes.push({
      category,
      before: a?.value ?? null,
      after: b?.value ?? null,
      linesBefore: a?.lines ?? [],
      linesAfter: b?.lines ?? [],
    });
  }
  return changes;
}

/** A change as one string: the same category changing the same way under the same lines is the same change. */
export function changeKey(c: StatementChange): string {
  return JSON.stringify([c.category, c.before, c.after, c.linesBefore, c.linesAfter]);
}

const settled = (state: number): boolean => state === DEAD || state === ACCEPT;

/**
 * The paths where the crawler may fetch in both files and `RobotsTxt.usage` answers differently, one for each
 * combination of `Content-Usage` patterns where the two state different things, but for one whose changes another
 * already shows (see the header), within `maxStates` states (both explorations together) and the `deadline` (ms since
 * the epoch). `beforeRules`, `afterRules`: the Allow/Disallow rules of the groups each file selects for the crawler.
 */
export function exploreUsage(
  before: RobotsTxt,
  after: RobotsTxt,
  crawler: CrawlerInput,
  beforeRules: readonly RobotsRule[],
  afterRules: readonly RobotsRule[],
  maxStates: number,
  deadline: number,
): UsageExploration {
  const rulesBefore = usageRules(before, crawler);
  const rulesAfter = usageRules(after, crawler);
  const usage = [...new Set([...rulesBefore.keys(), ...rulesAfter.keys()])].map(
    (source) => new PatternAutomaton(source),
  );
  /** Per usage pattern: whether both files state the same with it (whatever its rules' lines). */
  const alike = usage.map((a) => {
    const key = (rules: Map<string, string[]>) => JSON.stringify([...(rules.get(a.source) ?? [])].sort());
    return key(rulesBefore) === key(rulesAfter);
  });
  const product = productOf(beforeRules, afterRules);
  const access = product.automata;
  const standIn = standInFor([...usage, ...access].map((a) => a.source));
  const stated = (file: RobotsTxt, path: string) => statedUsage(file, path, crawler);
  const sameSignals = signalKey(stated(before, '/')) === signalKey(stated(after, '/'));
  const budget = { states: 0, maxStates, deadline };

  // 1. The classes: combinations of the usage patterns' states where the two files state different things.
  const classes = new Map<string, { path: string; keys: string[]; fetched: boolean }>();
  let complete = breadthFirst(usage, standIn, budget, (node) => {
    const was = stated(before, node.path);
    const now = stated(after, node.path);
    const changes = changesBetween(statementsOf(was), statementsOf(now));
    if (changes.length > 0) {
      const fetched = was.crawlable && now.crawlable;
      classes.set(node.states.join(','), { path: node.path, keys: changes.map(changeKey), fetched });
    }
    if (node.states.every(settled)) return LEAF;
    return sameSignals && node.states.every((s, k) => s === DEAD || alike[k]) ? LEAF : EXPAND;
  });

  // Each class' first path, when both files let the crawler fetch it; else the class is looked for further (2), unless
  // every change it would show is shown already (by another class: the same categories, values and lines).
  const paths: string[] = [];
  const shown = new Set<string>();
  const pending = new Map<string, string[]>();
  for (const [key, { path, keys, fetched }] of classes) {
    if (fetched) {
      paths.push(path);
      for (const k of keys) shown.add(k);
    } else pending.set(key, keys);
  }
  const open = new Set<string>();
  const settle = () => {
    for (const [key, keys] of pending) {
      if (keys.every((k) => shown.has(k))) {
        pending.delete(key);
        open.delete(key);
      } else open.add(key);
    }
  };
  settle();
  if (open.size === 0 || !complete) return { paths, complete, states: budget.states };

  // 2. The first path of each open class that both files let the crawler fetch, over every pattern.
  const u = usage.length;
  complete = breadthFirst([...usage, ...access], standIn, budget, (node) => {
    const key = node.states.subarray(0, u).join(',');
    if (open.has(key) && stated(before, node.path).crawlable && stated(after, node.path).crawlable) {
      paths.push(node.path);
      for (const k of pending.get(key)!) shown.add(k);
      settle();
      if (open.size === 0) return STOP;
    }
    if (node.states.every(settled)) return LEAF;
    // Its usage patterns all settled: every longer path stays in its class.
    if (!open.has(key) && node.states.subarray(0, u).every(settled)) return LEAF;
    // A file that keeps the crawler from every longer path: no path below can show a difference.
    return blockedBelow(node.states, u, product.before) || blockedBelow(node.states, u, product.after) ? LEAF : EXPAND;
  });
  return { paths, complete, states: budget.states };
}

/**
 * Whether one file's Allow/Disallow `rules` (their patterns at `offset` among the node's states) disallow every path
 * longer than the node's: a Disallow whose pattern matches whatever follows is longer than every Allow that could still
 * match (as the verdicts read rules: the longest wins, an Allow when as long). A pattern that matches this path and no
 * longer one (`$`) no longer counts.
 */
function blockedBelow(states: Int32Array, offset: number, rules: readonly Rule[]): boolean {
  let disallow = 0;
  let allow = 0;
  for (const rule of rules) {
    const state = states[offset + rule.pid]!;
    if (rule.allow) {
      if ((state >= 0 || state === ACCEPT) && rule.priority > allow) allow = rule.priority;
    } else if (state === ACCEPT && rule.priority > disallow) disallow = rule.priority;
  }
  return disallow > 0 && disallow > allow;
}

/** A node of an exploration: each automaton's state after a path, and the path (the first found to get there). */
interface Node {
  readonly states: Int32Array;
  readonly path: string;
}

/** What a visit says of a node: look below it, not below it, or end the exploration. */
const EXPAND = 0;
const LEAF = 1;
const STOP = 2;

/**
 * Visits every state of the product of `automata` that a path reaches, breadth-first from `/` (each at its first path,
 * in character order), below the nodes `visit` expands; false when the budget (states visited, shared by the
 * explorations of one comparison, and the deadline) ran out first.
 */
function breadthFirst(
  automata: readonly PatternAutomaton[],
  standIn: number,
  budget: { states: number; readonly maxStates: number; readonly deadline: number },
  visit: (node: Node) => typeof EXPAND | typeof LEAF | typeof STOP,
): boolean {
  const start = Int32Array.from(automata, (a) => a.step(a.start, SLASH));
  const seen = new Set<string>([start.join(',')]);
  let queue: Node[] = [{ states: start, path: '/' }];
  while (queue.length > 0) {
    const next: Node[] = [];
    for (const node of queue) {
      if (budget.states >= budget.maxStates || (budget.states % 16 === 0 && Date.now() > budget.deadline)) return false;
      budget.states++;
      const what = visit(node);
      if (what === STOP) return true;
      if (what === LEAF) continue;
      for (const child of children(automata, node, standIn)) {
        const key = child.states.join(',');
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(child);
      }
    }
    queue = next;
  }
  return true;
}

/** A node's children: one per character a live pattern tells apart, and the stand-in for all others; in code order. */
function children(automata: readonly PatternAutomaton[], node: Node, standIn: number): Node[] {
  const codes = new Set<number>([standIn]);
  for (let k = 0; k < automata.length; k++)
    for (const code of automata[k]!.significant(node.states[k]!)) codes.add(code);
  return [...codes]
    .sort((x, y) => x - y)
    .map((code) => ({
      states: node.states.map((state, k) => automata[k]!.step(state, code)),
      path: node.path + String.fromCharCode(code),
    }));
}

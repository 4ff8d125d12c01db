/**
 * `compareRobots`: where two robots.txt files decide differently, exactly, for each crawler.
 *
 * For one crawler each file contributes the rules of the groups it selects. Every rule's pattern is a small automaton
 * over path characters (`automaton.ts`); the verdict for a path depends only on which patterns match it, so the tuple
 * of all pattern states (shared by both files) is a state of a product automaton that knows both verdicts. Characters
 * that appear in no pattern all behave alike, so the alphabet is the characters written in the patterns plus one
 * stand-in for every other character. Exploring the product breadth-first from `/` visits every reachable
 * combination of pattern states, and reaches each one first by a shortest path: a shortest witness.
 *
 * A region is the set of paths whose deciding rules are the same pair (before, after) and whose verdict differs; the
 * exploration finds every such pair that any path reaches, so together the regions cover every path that changed.
 * A branch is cut as soon as no pattern still alive (not yet certain to fail) is used differently by the two files:
 * from there on both decide alike. Google's dialect only (the 1994 convention matches differently).
 *
 * Cost: linear matching stays the rule for checks; this comparison is bounded by `maxStates` product states per rule
 * set and by `timeoutMs` overall, and says `complete: false` when a bound cut it short.
 */

import {
  CRAWLERS,
  type CrawlerInput,
  type CrawlerProfile,
  parseRobotsTxt,
  type RobotsInput,
  type RobotsRule,
  RobotsTxt,
} from '../index.js';
import { type MatchRule, matchRulesFor } from '../match/rule-matcher.js';
import { ACCEPT, DEAD, PatternAutomaton } from './automaton.js';

/** A rule that decided a region, in one of the two files. */
export interface RegionRule {
  readonly kind: 'allow' | 'disallow';
  /** The normalised pattern (for Google's `index.htm` rule: the derived `<dir>/$`). */
  readonly pattern: string;
  /** 1-based line in its file. */
  readonly line: number;
  /** True when the rule is the `<dir>/$` Google derives from `allow: <dir>/index.htm[l]`. */
  readonly indexHtml: boolean;
}

/** A set of paths whose verdict changed, all decided by the same rules before and after. */
export interface ChangedRegion {
  /** `blocked`: allowed before, disallowed after; `allowed`: the reverse. */
  readonly change: 'blocked' | 'allowed';
  /**
   * A pattern (robots.txt syntax) containing the region: the more specific of the two deciding patterns. Every path
   * of the region matches it; not every path matching it need be in the region (longer rules may decide those).
   */
  readonly pattern: string;
  /** A shortest path (with query) of the region; the first such path in character order. */
  readonly witness: string;
  /** The deciding rule before (null: no rule matched) and after. */
  readonly before: RegionRule | null;
  readonly after: RegionRule | null;
}

/** The comparison for one crawler. */
export interface CrawlerComparison {
  /** The crawler's name (catalogue name, the token as given, or `*` for crawlers without a group of their own). */
  readonly crawler: string;
  /** True when the comparison finished and found no path that either file decides differently. */
  readonly equivalent: boolean;
  /** False when a bound (`maxStates`, `timeoutMs`) stopped the exploration: there may be more regions. */
  readonly complete: boolean;
  /** Regions in the order found (shortest witnesses first). */
  readonly regions: readonly ChangedRegion[];
  /** Product states explored. */
  readonly states: number;
}

/** The whole comparison. */
export interface RobotsComparison {
  /** True when every crawler's comparison finished and found no difference. */
  readonly equivalent: boolean;
  /** False when any crawler's comparison was cut short. */
  readonly complete: boolean;
  readonly crawlers: readonly CrawlerComparison[];
}

/** Options of {@link compareRobots}. */
export interface CompareOptions {
  /**
   * The crawlers to compare for: product tokens, full user-agent strings, catalogue profiles, and `*` for any crawler
   * without a group of its own. Default: every crawler of the catalogue, then every other product token either file
   * names, then `*`.
   */
  readonly crawlers?: readonly (string | CrawlerProfile)[];
  /**
   * Product states to explore per distinct pair of rule sets before giving up with `complete: false`.
   * @default 200000
   */
  readonly maxStates?: number;
  /**
   * Time budget for the whole comparison in milliseconds; crawlers not finished by then are `complete: false`.
   * @default 10000
   */
  readonly timeoutMs?: number;
}

const DEFAULT_MAX_STATES = 200_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/** Characters tried, in order, as the stand-in for every character no pattern contains. */
const STAND_INS = 'xzqjkvwyabcdefghilmnoprstu0123456789-_~.';

interface Rule {
  readonly pid: number;
  readonly allow: boolean;
  readonly priority: number;
  readonly line: number;
  readonly indexHtml: boolean;
}

/**
 * The normalised pattern of a match rule (for Google's `index.htm` rule, the derived `<dir>/$`). Read without relying on
 * whether the rule holds its compiled pattern or is one, so this module does not depend on that layout.
 */
function sourceOf(m: MatchRule): string {
  const r = m as unknown as { source?: string; pattern?: { source: string } };
  return r.source ?? r.pattern!.source;
}

function rulesOf(rules: readonly RobotsRule[], ids: Map<string, number>, automata: PatternAutomaton[]): Rule[] {
  const out: Rule[] = [];
  for (const r of rules) {
    for (const m of matchRulesFor(r.kind === 'allow', r.pattern, r.line)) {
      // An empty pattern matches with priority 0, which never decides a verdict.
      if (m.priority === 0) continue;
      const source = sourceOf(m);
      let pid = ids.get(source);
      if (pid === undefined) {
        pid = automata.length;
        ids.set(source, pid);
        automata.push(new PatternAutomaton(source));
      }
      out.push({ pid, allow: m.allow, priority: m.priority, line: m.line, indexHtml: m.indexHtml });
    }
  }
  return out;
}

/** Whether `r` would beat `best`, the best matching rule of its kind so far (longer, or as long and earlier). */
function improves(r: Rule, best: Rule | null): boolean {
  return best === null || r.priority > best.priority || (r.priority === best.priority && r.line < best.line);
}

function regionRule(rule: Rule | null, automata: readonly PatternAutomaton[]): RegionRule | null {
  if (rule === null) return null;
  return {
    kind: rule.allow ? 'allow' : 'disallow',
    pattern: automata[rule.pid]!.source,
    line: rule.line,
    indexHtml: rule.indexHtml,
  };
}

interface Outcome {
  readonly regions: ChangedRegion[];
  readonly complete: boolean;
  readonly states: number;
}

/** Explores the product of both rule sets breadth-first from `/`. */
function explore(
  beforeRules: readonly RobotsRule[],
  afterRules: readonly RobotsRule[],
  maxStates: number,
  deadline: number,
): Outcome {
  const ids = new Map<string, number>();
  const automata: PatternAutomaton[] = [];
  const before = rulesOf(beforeRules, ids, automata);
  const after = rulesOf(afterRules, ids, automata);
  const n = automata.length;

  // How each file uses each pattern: bit 0 allow, bit 1 disallow (before); bits 2, 3 the same after.
  const use = new Uint8Array(n);
  for (const r of before) use[r.pid]! |= r.allow ? 1 : 2;
  for (const r of after) use[r.pid]! |= r.allow ? 4 : 8;
  const differs = (pid: number): boolean => (use[pid]! & 3) !== use[pid]! >> 2;

  // The alphabet: every character written in a pattern (but `$` only where it is literal, `*` never), and a stand-in.
  const codes = new Set<number>();
  for (const a of automata) {
    const body = a.source.endsWith('$') ? a.source.slice(0, -1) : a.source;
    for (let i = 0; i < body.length; i++) if (body[i] !== '*') codes.add(body.charCodeAt(i));
  }
  const standIn = [...STAND_INS].map((c) => c.charCodeAt(0)).find((c) => !codes.has(c));
  const alphabet = [...codes].sort((x, y) => x - y);
  if (standIn !== undefined) alphabet.push(standIn);

  // Which rules use each pattern, per file.
  const usersBefore: Rule[][] = automata.map(() => []);
  const usersAfter: Rule[][] = automata.map(() => []);
  for (const r of before) usersBefore[r.pid]!.push(r);
  for (const r of after) usersAfter[r.pid]!.push(r);

  /**
   * A product state. Patterns that already match whatever follows are folded into `best` (the best allow and
   * disallow rule among them, before and after), and patterns none of whose rules could beat those are dropped:
   * neither changes any later verdict or deciding line. What remains are the live patterns and their states, as
   * parallel arrays sorted by pattern id.
   */
  interface Node {
    readonly pids: Int32Array;
    readonly states: Int32Array;
    /** Best allow before, best disallow before, best allow after, best disallow after (null: none). */
    readonly best: readonly (Rule | null)[];
    readonly path: string;
  }
  const fold = (best: (Rule | null)[], users: readonly Rule[], side: 0 | 2): void => {
    for (const r of users) {
      const k = side + (r.allow ? 0 : 1);
      if (improves(r, best[k]!)) best[k] = r;
    }
  };
  const relevant = (pid: number, best: readonly (Rule | null)[]): boolean =>
    usersBefore[pid]!.some((r) => improves(r, best[r.allow ? 0 : 1]!)) ||
    usersAfter[pid]!.some((r) => improves(r, best[r.allow ? 2 : 3]!));
  const make = (
    pids: readonly number[],
    states: readonly number[],
    inherited: readonly (Rule | null)[],
    path: string,
  ) => {
    let best = inherited as (Rule | null)[];
    for (let k = 0; k < pids.length; k++) {
      if (states[k] !== ACCEPT) continue;
      if (best === inherited) best = [...inherited];
      fold(best, usersBefore[pids[k]!]!, 0);
      fold(best, usersAfter[pids[k]!]!, 2);
    }
    // Relevance only changes when `best` does (the inherited patterns were all relevant to the inherited best).
    const recheck = best !== inherited || path === '';
    const keepPids: number[] = [];
    const keepStates: number[] = [];
    for (let k = 0; k < pids.length; k++) {
      const state = states[k]!;
      if (state === DEAD || state === ACCEPT || (recheck && !relevant(pids[k]!, best))) continue;
      keepPids.push(pids[k]!);
      keepStates.push(state);
    }
    return { pids: Int32Array.from(keepPids), states: Int32Array.from(keepStates), best, path };
  };
  const advance = (node: Node, code: number): Node => {
    const states: number[] = [];
    for (let k = 0; k < node.pids.length; k++) states.push(automata[node.pids[k]!]!.step(node.states[k]!, code));
    return make(Array.from(node.pids), states, node.best, node.path + String.fromCharCode(code));
  };
  /** The verdict and deciding rule of one file for the node's own path. */
  const decideAt = (node: Node, side: 0 | 2): { allowed: boolean; rule: Rule | null } => {
    const best = [node.best[side]!, node.best[side + 1]!];
    for (let k = 0; k < node.pids.length; k++) {
      const pid = node.pids[k]!;
      if (!automata[pid]!.matches(node.states[k]!)) continue;
      for (const r of side === 0 ? usersBefore[pid]! : usersAfter[pid]!) {
        const i = r.allow ? 0 : 1;
        if (improves(r, best[i]!)) best[i] = r;
      }
    }
    const [allow, disallow] = best as [Rule | null, Rule | null];
    const a = allow === null ? -1 : allow.priority;
    const d = disallow === null ? -1 : disallow.priority;
    return { allowed: !(d > a && d > 0), rule: d > a ? disallow : allow };
  };
  const priority = (r: Rule | null): number => (r === null ? -1 : r.priority);
  /**
   * The verdict of one file for every path that extends the node's (true: allowed), or null when a longer path may
   * still be decided otherwise: a disallow folded in beats every allow that could still match; or an allow folded in
   * (or none at all) is at least as long as every disallow that could still match.
   */
  const settled = (node: Node, side: 0 | 2): boolean | null => {
    let liveAllow = -1;
    let liveDisallow = -1;
    for (let k = 0; k < node.pids.length; k++) {
      for (const r of side === 0 ? usersBefore[node.pids[k]!]! : usersAfter[node.pids[k]!]!) {
        if (r.allow) liveAllow = Math.max(liveAllow, r.priority);
        else liveDisallow = Math.max(liveDisallow, r.priority);
      }
    }
    const a = priority(node.best[side]!);
    const d = priority(node.best[side + 1]!);
    if (d > 0 && d > a && d > liveAllow) return false;
    const worst = Math.max(d, liveDisallow);
    if (worst <= 0 || a >= worst) return true;
    return null;
  };
  const regions = new Map<string, ChangedRegion>();
  const seen = new Set<string>();
  const ruleKey = (r: Rule | null): string => (r === null ? '-' : `${r.pid}.${r.line}`);

  const startPids: number[] = [];
  const startStates: number[] = [];
  for (let pid = 0; pid < n; pid++) {
    startPids.push(pid);
    startStates.push(automata[pid]!.start);
  }
  const root = make(startPids, startStates, [null, null, null, null], '');
  // Every path starts with `/`.
  let queue: Node[] = [advance(root, 0x2f)];
  const keyOf = (node: Node): string => {
    let key = node.best.map(ruleKey).join(' ');
    for (let k = 0; k < node.pids.length; k++) key += ` ${node.pids[k]}:${node.states[k]}`;
    return key;
  };
  seen.add(keyOf(queue[0]!));
  let explored = 0;
  let complete = true;
  outer: while (queue.length > 0) {
    const next: Node[] = [];
    for (const node of queue) {
      if (explored >= maxStates || (explored % 16 === 0 && Date.now() > deadline)) {
        complete = false;
        break outer;
      }
      explored++;
      // The verdicts for the path itself.
      const b = decideAt(node, 0);
      const a = decideAt(node, 2);
      if (b.allowed !== a.allowed) {
        const id = `${ruleKey(b.rule)}/${ruleKey(a.rule)}`;
        if (!regions.has(id)) {
          const beforeRule = regionRule(b.rule, automata);
          const afterRule = regionRule(a.rule, automata);
          const specific =
            beforeRule === null || (afterRule !== null && afterRule.pattern.length >= beforeRule.pattern.length)
              ? afterRule
              : beforeRule;
          regions.set(id, {
            change: a.allowed ? 'allowed' : 'blocked',
            pattern: specific?.pattern ?? '/',
            witness: node.path,
            before: beforeRule,
            after: afterRule,
          });
        }
      }
      // Stop when both files hold the same candidates (by kind and length) for every longer path: the patterns
      // folded into `best` agree in length, and every live pattern is used alike by both.
      const open =
        priority(node.best[0]!) !== priority(node.best[2]!) ||
        priority(node.best[1]!) !== priority(node.best[3]!) ||
        node.pids.some(differs);
      if (!open) continue;
      // Stop, too, when each file's verdict is settled for every longer path, and the same: no region lies below.
      const settledBefore = settled(node, 0);
      if (settledBefore !== null && settledBefore === settled(node, 2)) continue;
      // Only the characters some live pattern tells apart, and one stand-in for all the others.
      let codes: readonly number[] = alphabet;
      if (standIn !== undefined) {
        const significant = new Set<number>([standIn]);
        for (let k = 0; k < node.pids.length; k++) {
          for (const c of automata[node.pids[k]!]!.significant(node.states[k]!)) significant.add(c);
        }
        codes = [...significant].sort((x, y) => x - y);
      }
      for (const code of codes) {
        const child = advance(node, code);
        const key = keyOf(child);
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(child);
      }
    }
    queue = next;
  }
  return { regions: [...regions.values()], complete, states: explored };
}

/** A token that names no group of either file, for "any crawler without a group of its own". */
function unnamedToken(files: readonly RobotsTxt[]): string {
  const named = new Set<string>();
  for (const f of files) for (const g of f.groups) for (const a of g.agents) named.add(a.token.toLowerCase());
  let token = 'robotskit-any-crawler';
  while (named.has(token)) token += '-x';
  return token;
}

/** The catalogue, the tokens either file names that no catalogue crawler carries, and `*`. */
function defaultCrawlers(files: readonly RobotsTxt[]): (string | CrawlerProfile)[] {
  const known = new Set(CRAWLERS.flatMap((c) => c.tokens.map((t) => t.toLowerCase())));
  const extra = new Map<string, string>();
  for (const f of files) {
    for (const g of f.groups) {
      for (const a of g.agents) {
        const lower = a.token.toLowerCase();
        if (a.token !== '' && !known.has(lower) && !extra.has(lower)) extra.set(lower, a.token);
      }
    }
  }
  return [...CRAWLERS, ...extra.values(), '*'];
}

function crawlerName(c: string | CrawlerProfile): string {
  return typeof c === 'string' ? c : c.name;
}

/**
 * Compares two robots.txt files (text, bytes, or parsed) for each crawler: the regions of path+query space whose
 * verdict differs, each with a containing pattern, a shortest witness path and the deciding rules before and after.
 *
 * @example
 * const diff = compareRobots('User-agent: *\nDisallow: /a', 'User-agent: *\nDisallow: /a\nDisallow: /shop/*.php', {
 *   crawlers: ['*'],
 * });
 * diff.crawlers[0].regions[0]; // { change: 'blocked', pattern: '/shop/*.php', witness: '/shop/.php', … }
 */
export function compareRobots(
  before: RobotsInput | RobotsTxt,
  after: RobotsInput | RobotsTxt,
  options?: CompareOptions,
): RobotsComparison {
  const files = [before, after].map((f) => (f instanceof RobotsTxt ? f.inDialect('google') : parseRobotsTxt(f)));
  const [b, a] = files as [RobotsTxt, RobotsTxt];
  const crawlers = options?.crawlers ?? defaultCrawlers(files);
  const maxStates = options?.maxStates ?? DEFAULT_MAX_STATES;
  const deadline = Date.now() + (options?.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const anyCrawler = unnamedToken(files);
  // Crawlers whose groups are the same in both files share one exploration.
  const done = new Map<string, Outcome>();
  const results: CrawlerComparison[] = [];
  for (const crawler of crawlers) {
    const input: CrawlerInput = crawler === '*' ? anyCrawler : crawler;
    const bg = b.selectGroups(input).groups;
    const ag = a.selectGroups(input).groups;
    const key = `${bg.map((g) => g.index).join(',')}|${ag.map((g) => g.index).join(',')}`;
    let outcome = done.get(key);
    if (outcome === undefined) {
      const rules = (groups: typeof bg): RobotsRule[] => groups.flatMap((g) => g.rules).sort((x, y) => x.line - y.line);
      outcome =
        Date.now() > deadline
          ? { regions: [], complete: false, states: 0 }
          : explore(rules(bg), rules(ag), maxStates, deadline);
      done.set(key, outcome);
    }
    results.push({
      crawler: crawlerName(crawler),
      equivalent: outcome.complete && outcome.regions.length === 0,
      complete: outcome.complete,
      regions: outcome.regions,
      states: outcome.states,
    });
  }
  return {
    equivalent: results.every((r) => r.equivalent),
    complete: results.every((r) => r.complete),
    crawlers: results,
  };
}

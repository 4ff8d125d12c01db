/**
 * Rule pools: the rules each crawler actually reads. Google merges every group naming a crawler, wherever it is in the
 * file, and a crawler without a group of its own reads every `*` group merged. Problems between rules (conflicts,
 * shadowing, duplicates) only exist within such a pool.
 */

import type { RobotsGroup, RobotsRule } from '../../model/types.js';
import { asciiLower } from '../../url/user-agent.js';
import type { LintContext } from '../rule.js';

/** The merged rules of the groups one set of crawlers reads. */
export interface RulePool {
  /** `*` for the crawlers without a group of their own, else the product tokens (as first written) of the crawlers. */
  readonly agents: readonly string[];
  /** Whether this is the pool of the `*` groups. */
  readonly global: boolean;
  /** Whether a crawler reading this pool is Google's main crawler (`*` or a `Googlebot` group). */
  readonly googlebot: boolean;
  /** The groups, in file order. */
  readonly groups: readonly RobotsGroup[];
  /** Their rules, in file order. */
  readonly rules: readonly RobotsRule[];
}

interface Draft {
  agents: string[];
  global: boolean;
  googlebot: boolean;
  groups: RobotsGroup[];
}

/** Every distinct pool of the file: one per set of groups some crawler reads. */
export function rulePools(context: LintContext): readonly RulePool[] {
  const groups = context.robots.groups;
  const byToken = new Map<string, { name: string; groups: RobotsGroup[] }>();
  const globalGroups: RobotsGroup[] = [];
  for (const group of groups) {
    let global = false;
    for (const agent of group.agents) {
      if (agent.global) {
        global = true;
        continue;
      }
      if (agent.token === '') continue;
      const key = asciiLower(agent.token);
      let entry = byToken.get(key);
      if (entry === undefined) {
        entry = { name: agent.token, groups: [] };
        byToken.set(key, entry);
      }
      if (entry.groups[entry.groups.length - 1] !== group) entry.groups.push(group);
    }
    if (global) globalGroups.push(group);
  }
  const drafts = new Map<string, Draft>();
  const add = (name: string, global: boolean, pooled: RobotsGroup[]): void => {
    const key = `${global ? '*' : ''}${pooled.map((g) => g.index).join(',')}`;
    let draft = drafts.get(key);
    if (draft === undefined) {
      draft = { agents: [], global, googlebot: global, groups: pooled };
      drafts.set(key, draft);
    }
    draft.agents.push(name);
    if (asciiLower(name) === 'googlebot') draft.googlebot = true;
  };
  if (globalGroups.length > 0) add('*', true, globalGroups);
  for (const entry of byToken.values()) add(entry.name, false, entry.groups);
  return [...drafts.values()].map((d) => ({
    agents: d.agents,
    global: d.global,
    googlebot: d.googlebot,
    groups: d.groups,
    rules:
      d.groups.length === 1 ? d.groups[0]!.rules : d.groups.flatMap((g) => g.rules).sort((a, b) => a.line - b.line),
  }));
}

/** How to name a pool's crawlers in a message: `every crawler without a group of its own`, `Googlebot`… */
export function poolName(pool: RulePool): string {
  if (pool.global) return 'crawlers without a group of their own';
  const names = pool.agents.slice(0, 3).join(', ');
  return pool.agents.length > 3 ? `${names} and ${pool.agents.length - 3} more` : names;
}

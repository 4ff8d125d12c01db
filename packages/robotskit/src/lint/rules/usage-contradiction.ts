/**
 * The lint rule `usage-contradiction`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/usage-contradiction.md.
 */

import type { RobotsGroup } from '../../model/types.js';
import type { RobotsTxt } from '../../robots-txt/robots-txt.js';
import { asciiLower } from '../../url/user-agent.js';
import { preferencesOf } from '../../usage/preferences.js';
import { contentSignalKey } from '../../usage/vocabulary.js';
import { type RulePool, rulePools } from '../analysis/pools.js';
import { usageLines } from '../analysis/usage-lines.js';
import { defineRule } from '../rule.js';

/**
 * Rule pools checked: at most this many per group, and this many in the whole file, first in file order. Asking the
 * file about a new set of groups costs a pass over its groups, so a hostile file (thousands of crawlers with groups of
 * their own, thousands of usage lines) would otherwise cost their product.
 */
const POOLS_PER_GROUP = 8;
const POOLS_PER_FILE = 64;

/** A name no group of the file names, so that it reads the `*` groups. */
function unnamedCrawler(robots: RobotsTxt): string {
  const tokens = new Set(robots.groups.flatMap((g) => g.agents.map((a) => a.token.toLowerCase())));
  let name = 'robotskit-unnamed-crawler';
  while (tokens.has(name)) name += 'x';
  return name;
}

/** Up to three names and how many more. */
function names(list: readonly string[]): string {
  return list.length <= 3 ? list.join(', ') : `${list.slice(0, 3).join(', ')} and ${list.length - 3} more`;
}

/** The usage a line allows (`train-ai=y`, `ai-train=yes`) and the path it is about; null when it allows none. */
function allowedUse(line: ReturnType<typeof usageLines>[number]): { uses: string[]; path: string } | null {
  if (line.kind === 'usage') {
    if (line.usage.pattern === null) return null;
    const uses = Object.entries(preferencesOf(line.usage.parsed))
      .filter(([, p]) => p === 'allow')
      .map(([label]) => `${label}=y`);
    // The literal start of the pattern: the path every URL it matches begins with.
    return uses.length === 0 ? null : { uses, path: line.usage.pattern.replace(/[*$].*$/, '') };
  }
  const uses = (line.signal.pairs ?? [])
    .filter(([k, v]) => v === 'yes' && contentSignalKey(k) !== undefined)
    .map(([k, v]) => `${k}=${v}`);
  return uses.length === 0 ? null : { uses, path: '/' };
}

/** `usage-contradiction`: a usage allowed for crawlers that may not fetch the content it is about. */
export const usageContradiction = defineRule({
  code: 'usage-contradiction',
  name: 'Usage allowed where crawling is not',
  severity: 'warning',
  description:
    'A Content-Usage rule or Content-Signal that allows a use for crawlers disallowed from fetching the same path: preferences apply only to what a crawler may fetch.',
  check(context) {
    const lines = context.shared(usageLines);
    if (lines.length === 0) return;
    const pools = context.shared(rulePools);
    const byToken = new Map<string, RulePool>();
    let globalPool: RulePool | null = null;
    for (const pool of pools) {
      if (pool.global) globalPool = pool;
      else for (const agent of pool.agents) byToken.set(asciiLower(agent), pool);
    }
    const admitted = new Set<RulePool>();
    const poolsOfGroup = new Map<RobotsGroup, RulePool[]>();
    const poolsOf = (group: RobotsGroup): RulePool[] => {
      let found = poolsOfGroup.get(group);
      if (found !== undefined) return found;
      found = [];
      for (const agent of group.agents) {
        const pool = agent.global ? globalPool : agent.token === '' ? null : byToken.get(asciiLower(agent.token));
        if (pool == null || found.includes(pool)) continue;
        if (!admitted.has(pool) && admitted.size >= POOLS_PER_FILE) continue;
        admitted.add(pool);
        found.push(pool);
        if (found.length >= POOLS_PER_GROUP) break;
      }
      poolsOfGroup.set(group, found);
      return found;
    };
    let unnamed: string | null = null;
    const representative = (pool: RulePool): string => {
      if (!pool.global) return pool.agents[0]!;
      unnamed ??= unnamedCrawler(context.robots);
      return unnamed;
    };
    for (const line of lines) {
      if (line.group === undefined) continue;
      const allowed = allowedUse(line);
      if (allowed === null) continue;
      const blocked: string[] = [];
      for (const pool of poolsOf(line.group)) {
        if (!context.robots.isAllowed(allowed.path, representative(pool)))
          blocked.push(...(pool.global ? ['*'] : pool.agents));
        if (blocked.length > 3) break;
      }
      if (blocked.length === 0) continue;
      context.report({
        range: line.record.valueRange ?? context.contentRange(line.record),
        message: `${allowed.uses.join(', ')} for ${names(blocked)}, which may not fetch "${allowed.path}": preferences apply only to URLs a crawler may fetch, so this states nothing there`,
      });
    }
  },
});

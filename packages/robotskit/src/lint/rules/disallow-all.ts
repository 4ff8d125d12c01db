/**
 * The lint rule `disallow-all`, one file of the registry (`index.ts`); what it finds and why:
 * docs/lint/disallow-all.md.
 */

import { deadRules } from '../analysis/dead-rules.js';
import { rulePools } from '../analysis/pools.js';
import { defineRule } from '../rule.js';

/** Whether a pattern matches every path (`/`, `/*`, `*`, `/*$`…). */
function matchesEverything(pattern: string): boolean {
  let p = pattern;
  for (;;) {
    if (p.endsWith('*')) p = p.slice(0, -1);
    else if (p.endsWith('*$')) p = p.slice(0, -2);
    else break;
  }
  return pattern !== '' && (p === '/' || p === '');
}

/** `disallow-all`: a rule that blocks the whole site for every crawler, or for Googlebot. */
export const disallowAll = defineRule({
  code: 'disallow-all',
  name: 'Whole site disallowed',
  severity: 'warning',
  description:
    '"Disallow: /" for * or Googlebot keeps Google (and every crawler without its own group) away from the whole site; fine for a staging site, a disaster in production.',
  check(context) {
    const dead = context.shared(deadRules);
    const pools = context.shared(rulePools).filter((p) => p.googlebot);
    const googlebotPools = pools.filter((p) => !p.global);
    // Googlebot reads the * groups only when no group names it.
    const googlebotReads = (line: number) =>
      googlebotPools.length === 0 || googlebotPools.some((p) => p.rules.some((r) => r.line === line));
    const reported = new Set<number>();
    for (const pool of pools) {
      for (const rule of pool.rules) {
        if (rule.kind !== 'disallow' || !matchesEverything(rule.pattern) || dead.has(rule.line)) continue;
        if (reported.has(rule.line)) continue;
        reported.add(rule.line);
        const range = context.record(rule.line).valueRange;
        if (range === null) continue;
        let who = 'Googlebot';
        if (pool.global) {
          who = `every crawler without a group of its own${googlebotReads(rule.line) ? ', Googlebot included' : ''}`;
        }
        context.report({ range, message: `This blocks the whole site for ${who}` });
      }
    }
  },
});

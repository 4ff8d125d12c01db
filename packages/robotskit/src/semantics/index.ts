/**
 * `robotskit/semantics`: exact questions about what files mean: `compareRobots` (every URL and crawler on which two
 * files decide differently, proven complete), `crawlerAccess` (whether a file leaves a crawler nothing, everything or
 * some of a site), `aiUse` (what a file gives the catalogue's crawlers of each AI purpose: access and usage
 * preferences, in words), `usageChanges` (the AI usage preferences an edit changes), `formatRobots` (a canonical file that
 * means the same) and
 * `generateRobots` (a file from a policy, verified against the engine).
 *
 * @example
 * import { compareRobots } from 'robotskit/semantics';
 * compareRobots(before, after).equivalent;
 * @packageDocumentation
 */

export { type CrawlerAccess, crawlerAccess } from './access.js';
export {
  AI_USE_PURPOSES,
  type AiUse,
  type AiUseOptions,
  type AiUsePurpose,
  type AiUseSet,
  aiUse,
  type BlockedPath,
  type UsageStatement,
} from './ai-use.js';
export {
  type ChangedRegion,
  type CompareOptions,
  type CrawlerComparison,
  compareRobots,
  type RegionRule,
  type RobotsComparison,
  type UsageChangesOptions,
  type UsageWitness,
  usageChanges,
} from './compare.js';
export { type FormatResult, formatRobots } from './format.js';
export {
  crawlersInCategory,
  type GenerateResult,
  generateRobots,
  POLICY_CATEGORIES,
  PolicyError,
  type PolicyGroup,
  type PolicyUsage,
  type RobotsPolicy,
  type UsageMismatch,
} from './generate.js';
export type { UsageChange } from './usage-change.js';

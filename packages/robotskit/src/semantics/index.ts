/**
 * `robotskit/semantics`: exact questions about what files mean: `compareRobots` (every URL and crawler on which two
 * files decide differently, proven complete), `formatRobots` (a canonical file that means the same) and
 * `generateRobots` (a file from a policy, verified against the engine).
 *
 * @example
 * import { compareRobots } from 'robotskit/semantics';
 * compareRobots(before, after).equivalent;
 * @packageDocumentation
 */

export {
  type ChangedRegion,
  type CompareOptions,
  type CrawlerComparison,
  compareRobots,
  type RegionRule,
  type RobotsComparison,
} from './compare.js';
export { type FormatResult, formatRobots } from './format.js';
export {
  crawlersInCategory,
  type GenerateResult,
  generateRobots,
  POLICY_CATEGORIES,
  PolicyError,
  type PolicyGroup,
  type RobotsPolicy,
} from './generate.js';

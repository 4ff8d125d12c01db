/**
 * robotskit: robots.txt parsing, matching and explanation, bit-for-bit like Google's reference parser (RFC 9309); the
 * 1994 convention as a second dialect; crawler profiles; robots meta tags and X-Robots-Tag.
 *
 * @example
 * import { parseRobotsTxt } from 'robotskit';
 * const robots = parseRobotsTxt(body);
 * robots.isAllowed('https://example.com/shop?id=1', 'Googlebot');
 * robots.explain('https://example.com/shop?id=1', 'Googlebot').line;
 * @packageDocumentation
 */

export { CRAWLERS, crawlerByName } from './crawlers/catalogue.js';
export {
  type AiRobotsTxtEntry,
  type CrawlerDefinition,
  type CrawlerKind,
  type CrawlerProfile,
  defineCrawler,
} from './crawlers/profile.js';
export { compareDialects, type DialectComparison } from './dialects/compare.js';
export type { DialectName } from './dialects/dialect.js';
export { type DialectDifference, type DialectDifferenceKind, dialectDifferences } from './dialects/differences.js';
export { type CompiledPattern, compilePattern, matchPattern, normalizePattern } from './match/pattern.js';
export { parseUnavailableAfter } from './meta/date.js';
export { type ImagePreview, mergeDirectives, NO_DIRECTIVES, type PageDirectives } from './meta/directives.js';
export { type ExtractOptions, extractRobotsMeta, type RobotsMetaTag } from './meta/html.js';
export {
  type PageDiagnostic,
  type PageDiagnosticSource,
  type PageInput,
  type PageRobotsDirectives,
  pageDirectives,
} from './meta/page.js';
export {
  combineRobotsDirectives,
  directivesFor,
  type MetaDiagnostic,
  type MetaDiagnosticCode,
  parseRobotsMeta,
  parseXRobotsTag,
  type RobotsDirectives,
} from './meta/parse.js';
export type { CrawlerInput, ParseOptions, UserAgentInput } from './model/robots-txt.js';
export { parseRobotsTxt, RobotsTxt } from './model/robots-txt.js';
export type {
  CrawlDelay,
  CrawlerVerdict,
  DecidingRule,
  Explanation,
  GroupMatch,
  InvalidReason,
  Range,
  RecordField,
  RecordFlags,
  RobotsAgent,
  RobotsExtension,
  RobotsGroup,
  RobotsRecord,
  RobotsRule,
  RuleKind,
} from './model/types.js';
export { DEFAULT_MAX_BYTES, type RobotsInput } from './parse/input.js';
export { MAX_LINE_BYTES } from './parse/lines.js';
export { pathOfUrl, pathToMatch } from './url/path.js';
export { isValidProductToken, productToken } from './url/user-agent.js';

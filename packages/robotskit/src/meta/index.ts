/**
 * `robotskit/meta`: page-level controls: robots `meta` tags and `X-Robots-Tag` headers, read per crawler and combined
 * as Google combines them.
 *
 * @example
 * import { pageDirectives } from 'robotskit/meta';
 * pageDirectives({ html, headers: ['noindex'] }).noindex;
 * @packageDocumentation
 */

export { parseUnavailableAfter } from './date.js';
export { type ImagePreview, mergeDirectives, type PageDirectives } from './directives.js';
export { type ExtractOptions, extractRobotsMeta, type RobotsMetaTag } from './html.js';
export {
  type PageDiagnostic,
  type PageDiagnosticSource,
  type PageInput,
  type PageRobotsDirectives,
  pageDirectives,
} from './page.js';
export {
  combineRobotsDirectives,
  directivesFor,
  type MetaDiagnostic,
  type MetaDiagnosticCode,
  parseRobotsMeta,
  parseXRobotsTag,
  type RobotsDirectives,
} from './parse.js';

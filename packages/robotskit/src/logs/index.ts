/**
 * `robotskit/logs`: what crawlers did, judged by the engine. Access-log lines read (Common and Combined Log Format,
 * JSON lines), each request's crawler identified from its User-Agent and judged against the robots.txt version in force
 * at its time (dated versions, or a stored fetch history's policy periods), and the requesting address verified by
 * each operator's documented way: published ranges (Google's and the JAFAR format) or forward-confirmed reverse DNS,
 * with the DNS questions injected. No Node API: files, gzip, a `node:dns` resolver and caches are the caller's.
 */

export {
  type AnalyzeOptions,
  type CrawlerRow,
  LogAnalysis,
  type VersionActivity,
  type Violation,
} from './analyze.js';
export { logBlocksOf } from './blocks.js';
export { LogInputError } from './errors.js';
export {
  type HistoryFetch,
  type HistoryVersion,
  type PolicyPeriod,
  periodVersions,
  policyPeriods,
  type StoredFetch,
  storedHistory,
} from './history.js';
export {
  clfTime,
  DEFAULT_JSON_FIELDS,
  FIELD_KEYS,
  type HostField,
  type JsonFields,
  type LogFormat,
  type LogRequest,
  logHost,
  parseClf,
  parseJsonLine,
  parseLogLineAt,
} from './parse.js';
export {
  type ParsedRanges,
  parseRangeFile,
  parseRanges,
  publishedRangeFiles,
  type RangeFile,
  type RangesByCrawler,
  rangesFor,
} from './ranges.js';
export { LogReader, MAX_LINE, type Malformed, OVERLONG } from './read.js';
export {
  arpaName,
  type Dns,
  type Verification,
  type VerificationStatus,
  Verifier,
  type VerifierOptions,
} from './verify.js';
export { type RobotsVersion, versionTime } from './versions.js';

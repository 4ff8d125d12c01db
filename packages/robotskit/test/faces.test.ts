/**
 * The engine's faces: what the main entry and the `robotskit/lint`, `/logs`, `/meta` and `/semantics` entries export at
 * runtime, name by name, so that an internal cannot slip onto a face unnoticed; and each of those names is in the
 * README's table of entries, on its entry's row. (`robotskit/fetch` and `robotskit/testing` are held by their own
 * tests.)
 */

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as main from '../src/index.js';
import * as lint from '../src/lint/index.js';
import * as logs from '../src/logs/index.js';
import * as meta from '../src/meta/index.js';
import * as semantics from '../src/semantics/index.js';

const README = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'README.md'), 'utf8');

const FACES: readonly (readonly [string, object, readonly string[]])[] = [
  [
    'robotskit',
    main,
    [
      'AI_PURPOSES',
      'AI_ROBOTS_TXT_SNAPSHOT_DATE',
      'ANY_CRAWLER',
      'AiRobotsTxtError',
      'CONTENT_SIGNAL_KEYS',
      'CONTROL_TOKENS',
      'CRAWLERS',
      'CRAWLER_PURPOSES',
      'CRAWLER_VERIFICATION',
      'PURPOSE_WORDS',
      'SHIPPED_AI_LIST',
      'aiRobotsTxtChanges',
      'attachedUsage',
      'catalogueWith',
      'controlToken',
      'readAiRobotsTxt',
      'CrawlerInputError',
      'DEFAULT_MAX_BYTES',
      'DIALECT_DIFFERENCE_TITLES',
      'EXTENSION_FIELDS',
      'FIELD_SPELLING',
      'OTHER_FIELDS',
      'RobotsTxt',
      'RobotsUrlError',
      'TextLines',
      'USAGE_VOCABULARY',
      'combineUsagePreferences',
      'compareDialects',
      'crawlDelaySeconds',
      'crawlerByName',
      'crawlerInputOf',
      'crawlerUserAgent',
      'crawlerVerification',
      'defineCrawler',
      'dialectDifferences',
      'identifyCrawler',
      'headerUsage',
      'isHtmlContentType',
      'isOperatorHostname',
      'isValidProductToken',
      'looksLikeHtml',
      'originOf',
      'parseRobotsTxt',
      'parseUsagePreferences',
      'pathOfUrl',
      'productToken',
      'readKey',
      'readLine',
      'resolveCrawler',
      'resolveCrawlers',
      'splitCrawlerNames',
      'robotsTxtUrl',
    ],
  ],
  ['robotskit/lint', lint, ['LINT_DOCS_BASE', 'LINT_RULES', 'applyFixes', 'atLeast', 'lint']],
  [
    'robotskit/logs',
    logs,
    [
      'DEFAULT_JSON_FIELDS',
      'FIELD_KEYS',
      'LogAnalysis',
      'LogInputError',
      'LogReader',
      'MAX_LINE',
      'OVERLONG',
      'Verifier',
      'arpaName',
      'clfTime',
      'logBlocksOf',
      'logHost',
      'parseClf',
      'parseJsonLine',
      'parseLogLineAt',
      'parseRangeFile',
      'parseRanges',
      'periodVersions',
      'policyPeriods',
      'publishedRangeFiles',
      'rangesFor',
      'storedHistory',
      'versionTime',
    ],
  ],
  [
    'robotskit/meta',
    meta,
    [
      'combineRobotsDirectives',
      'directivesFor',
      'extractRobotsMeta',
      'mergeDirectives',
      'pageDirectives',
      'parseRobotsMeta',
      'parseUnavailableAfter',
      'parseXRobotsTag',
    ],
  ],
  [
    'robotskit/semantics',
    semantics,
    [
      'AI_USE_PURPOSES',
      'POLICY_CATEGORIES',
      'PolicyError',
      'aiUse',
      'compareRobots',
      'crawlerAccess',
      'crawlersInCategory',
      'formatRobots',
      'generateRobots',
      'usageChanges',
    ],
  ],
];

/** The README's row for an entry in its table of entries. */
function readmeRow(entry: string): string {
  const row = README.split('\n').find((line) => line.startsWith(`| \`${entry}\` `));
  if (row === undefined) throw new Error(`the README has no row for ${entry}`);
  return row;
}

describe('engine faces', () => {
  it.each(FACES)('%s exports exactly what a user needs at runtime', (_entry, module, names) => {
    expect(Object.keys(module).sort()).toEqual([...names].sort());
  });

  it.each(FACES)('%s: the README’s table of entries names every runtime export on its row', (entry, _module, names) => {
    const row = readmeRow(entry);
    expect(names.filter((name) => !row.includes(`\`${name}\``))).toEqual([]);
  });
});

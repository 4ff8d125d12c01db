/**
 * Crawler profiles: what a real crawler reads from a robots.txt besides its name. Google's reference parser knows one
 * name (or a union of several); real crawlers fall back from one name to another (`Googlebot-Image` to `Googlebot`),
 * some ignore the `*` group, some honour `crawl-delay`.
 */

import { isValidProductToken } from '../url/user-agent.js';
import type { CrawlerPurpose } from './purposes.js';

/** What a crawler is for. */
export type CrawlerKind =
  /** Builds a web search index. */
  | 'search'
  /** Checks ad landing pages or picks ads for pages. */
  | 'ads'
  /** Collects content for AI models or answers (on the ai.robots.txt list, or a control token for AI use). */
  | 'ai'
  /** Fetches on behalf of a tool or a person (testing tools, API callbacks). */
  | 'tool'
  /** Anything else (research crawls, shopping, generic fetchers). */
  | 'other';

/** An entry of the ai.robots.txt catalogue (`data/ai-robots-txt/robots.json`), fields as written there. */
export interface AiRobotsTxtEntry {
  /** The user-agent name as the catalogue writes it (not always a valid product token). */
  readonly name: string;
  /** Who runs it; often a Markdown link. */
  readonly operator: string;
  /** Whether it respects robots.txt, in the catalogue's words (`Yes`, `No`, `Unclear at this time.`). */
  readonly respect: string;
  /** What it does. */
  readonly function: string;
  /** How often it visits. */
  readonly frequency: string;
  readonly description: string;
  /** The catalogue's `has_name_and_version` flag, where it is set. */
  readonly hasNameAndVersion?: boolean;
}

/** A real crawler: the names it answers to in robots.txt, in fallback order, and how it treats the file. */
export interface CrawlerProfile {
  /** The crawler's name, unique in a catalogue (ASCII case-insensitively). */
  readonly name: string;
  /**
   * The user-agent names it obeys, in fallback order: the groups of the first name the file has a group for apply
   * (`['Googlebot-Image', 'Googlebot']`: Googlebot-Image's own groups, else Googlebot's). Names that are not product
   * tokens (`AI2Bot`, `Brightbot 1.0`) are compared with the whole user-agent value instead (see
   * {@link CrawlerProfile.validTokens}).
   */
  readonly tokens: readonly string[];
  /** When no group names it, the crawler ignores the `*` group too (Google's AdsBot and Mediapartners-Google). */
  readonly ignoresGlobalGroup: boolean;
  /** Whether it honours `crawl-delay`: true, false, or null when its operator does not say. */
  readonly honoursCrawlDelay: boolean | null;
  /** Who runs it. */
  readonly operator: string;
  /** What its fetches are for, curated crawler by crawler (see {@link CrawlerPurpose}). */
  readonly purpose: CrawlerPurpose;
  /** Where {@link CrawlerProfile.purpose} comes from: the operator's documentation, or the ai.robots.txt list. */
  readonly purposeSource: string;
  /** When the purpose was recorded from its source (`YYYY-MM-DD`; `''` for a profile defined without one). */
  readonly purposeDate: string;
  /** What blocking the crawler does, in its operator's terms (null where the operator does not say). */
  readonly blocking: string | null;
  /** What it does, in words (the operator's, or the ai.robots.txt list's `function`). */
  readonly description: string;
  readonly kind: CrawlerKind;
  /**
   * Every token is a product token (`[a-zA-Z_-]+`). When false, Google's parser can never match the names that are
   * not: it reads `User-agent: AI2Bot` as the token `AI`. Those names are then matched against the whole
   * `user-agent` value, ASCII case-insensitively (`User-agent: AI2Bot` applies to the AI2Bot profile, and so does
   * `user-agent: ai2bot`, but not `User-agent: AI` nor `User-agent: AI2Bot-Dolma`), since that is how the crawler's
   * operator wrote its name and how a site owner writes it.
   */
  readonly validTokens: boolean;
  /** Where the facts come from (documentation URL). */
  readonly source: string;
  /** Other spellings of the same name in the source catalogues (ASCII case-insensitive duplicates). */
  readonly aliases: readonly string[];
  /** The crawler's ai.robots.txt entry, when it is on that list. */
  readonly aiRobotsTxt: AiRobotsTxtEntry | null;
}

/** What {@link defineCrawler} needs: a name and tokens; everything else has a default. */
export type CrawlerDefinition = Pick<CrawlerProfile, 'name' | 'tokens'> &
  Partial<Omit<CrawlerProfile, 'name' | 'tokens' | 'validTokens'>>;

/**
 * A profile for a crawler the catalogue does not know.
 * @example
 * const bot = defineCrawler({ name: 'ExampleBot', tokens: ['ExampleBot', 'Googlebot'] });
 * robots.isAllowed('https://example.com/', bot);
 * @throws TypeError when the name or a token is not a non-empty string (a programmer error).
 */
export function defineCrawler(definition: CrawlerDefinition): CrawlerProfile {
  const { name, tokens } = definition;
  if (typeof name !== 'string' || name === '') throw new TypeError('a crawler needs a non-empty name');
  if (!Array.isArray(tokens) || tokens.some((t) => typeof t !== 'string' || t === '')) {
    throw new TypeError('crawler tokens must be non-empty strings');
  }
  return {
    name,
    tokens: [...tokens],
    ignoresGlobalGroup: definition.ignoresGlobalGroup ?? false,
    honoursCrawlDelay: definition.honoursCrawlDelay ?? null,
    operator: definition.operator ?? '',
    purpose: definition.purpose ?? 'other',
    purposeSource: definition.purposeSource ?? definition.source ?? '',
    purposeDate: definition.purposeDate ?? '',
    blocking: definition.blocking ?? null,
    description: definition.description ?? '',
    kind: definition.kind ?? 'other',
    validTokens: tokens.every(isValidProductToken),
    source: definition.source ?? '',
    aliases: definition.aliases ?? [],
    aiRobotsTxt: definition.aiRobotsTxt ?? null,
  };
}

/** Whether a value is a crawler profile (as opposed to a user-agent string or a list of them). */
export function isCrawlerProfile(value: unknown): value is CrawlerProfile {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as CrawlerProfile).tokens) &&
    typeof (value as CrawlerProfile).name === 'string'
  );
}

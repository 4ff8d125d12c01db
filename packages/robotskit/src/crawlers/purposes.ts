/**
 * What each crawler of the catalogue is for: one curated purpose per crawler, with where the fact comes from, when it
 * was recorded, and what blocking the crawler does where its operator documents that. The purposes are written here
 * by hand, crawler by crawler, from the operators' pages where they publish one (OpenAI, Anthropic, Google, Apple,
 * Perplexity, Meta, Amazon, Common Crawl, …) and otherwise from the category the ai.robots.txt list gives the crawler
 * (its `function` field), read entry by entry: never matched from description prose. A crawler of a newer
 * ai.robots.txt list that this table does not know gets a provisional purpose from the list's category label alone
 * ({@link purposeFromAiRobotsTxt}), marked by its source.
 */

/** What a crawler's fetches are for. */
export type CrawlerPurpose =
  /** Builds a web search index (Googlebot, bingbot). */
  | 'search-engine'
  /** Collects content to train AI models (GPTBot, ClaudeBot, CCBot). */
  | 'ai-training'
  /** Indexes content for an AI product's search answers (OAI-SearchBot, PerplexityBot, Claude-SearchBot). */
  | 'ai-search'
  /** Fetches a page when a person asks an AI assistant or agent to (ChatGPT-User, Claude-User, coding agents). */
  | 'ai-assistant'
  /** Never fetches: a robots.txt token that governs what another crawler's fetches may be used for (Google-Extended). */
  | 'control-token'
  /** An SEO or site-testing tool (Semrush's bots, Google-InspectionTool). */
  | 'seo-tool'
  /** Keeps copies of pages for an archive. */
  | 'archiver'
  /** Fetches a shared link to show its preview (facebookexternalhit). */
  | 'preview'
  /** Generic scraping software or service run by anyone for any use (Scrapy, Lightpanda, Firecrawl). */
  | 'scraping-tool'
  /** Anything else: ads checks, shopping, research crawls, or no documented purpose. */
  | 'other';

/** Every purpose, in the order lists show them. */
export const CRAWLER_PURPOSES: readonly CrawlerPurpose[] = Object.freeze([
  'search-engine',
  'ai-training',
  'ai-search',
  'ai-assistant',
  'control-token',
  'seo-tool',
  'archiver',
  'preview',
  'scraping-tool',
  'other',
]);

/** Each purpose in words, for lists and reports (`AI training`, `user-triggered AI assistant`). */
export const PURPOSE_WORDS: Readonly<Record<CrawlerPurpose, string>> = Object.freeze({
  'search-engine': 'search engine',
  'ai-training': 'AI training',
  'ai-search': 'AI search',
  'ai-assistant': 'user-triggered AI assistant',
  'control-token': 'control token',
  'seo-tool': 'SEO tool',
  archiver: 'archiver',
  preview: 'link preview',
  'scraping-tool': 'generic scraping tool',
  other: 'other',
});

/** The purposes an AI policy is about: AI training, AI search, AI assistants, and control tokens (Google-Extended). */
export const AI_PURPOSES: readonly CrawlerPurpose[] = Object.freeze([
  'ai-training',
  'ai-search',
  'ai-assistant',
  'control-token',
]);

/** A curated purpose: the purpose, its source (a URL), the date it was recorded, and what blocking does. */
export interface PurposeFact {
  readonly purpose: CrawlerPurpose;
  /** The operator's documentation, or the ai.robots.txt list. */
  readonly source: string;
  /** When the fact was recorded from the source (`YYYY-MM-DD`); for the ai.robots.txt list, its snapshot's date. */
  readonly date: string;
  /** What blocking the crawler does, in the operator's terms; null where the operator does not say. */
  readonly blocking: string | null;
}

/** The ai.robots.txt list, as a source. */
export const AI_ROBOTS_TXT_SOURCE = 'https://github.com/ai-robots-txt/ai.robots.txt';
/** The date of the ai.robots.txt snapshot the package ships (`data/ai-robots-txt/robots.json`). */
export const AI_ROBOTS_TXT_SNAPSHOT_DATE = '2026-08-22';
/** When the operators' pages below were read. */
const OPERATOR_DATE = '2026-11-28';

const OPENAI = 'https://platform.openai.com/docs/bots';
const ANTHROPIC =
  'https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler';
const PERPLEXITY = 'https://docs.perplexity.ai/guides/bots';
const APPLE = 'https://support.apple.com/en-us/119829';
const GOOGLE_COMMON = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers';
const GOOGLE_SPECIAL = 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers';
const META = 'https://developers.facebook.com/docs/sharing/webmasters/web-crawlers';
const AMAZON = 'https://developer.amazon.com/amazonbot';
const COMMON_CRAWL = 'https://commoncrawl.org/ccbot';
const AI2 = 'https://allenai.org/crawler';
const BING = 'https://www.bing.com/webmaster/help/which-crawlers-does-bing-use-8c184ec0';
const YANDEX = 'https://yandex.com/support/webmaster/controlling-robot/robots-txt.html';

type Row = readonly [purpose: CrawlerPurpose, source?: string, blocking?: string | undefined];

/** Facts from an operator's page (recorded {@link OPERATOR_DATE}). */
const doc = (purpose: CrawlerPurpose, source: string, blocking?: string): Row => [purpose, source, blocking];
/** A purpose read from the crawler's ai.robots.txt entry (the list's category, operator and function). */
const list = (purpose: CrawlerPurpose): Row => [purpose];

/**
 * The curated purposes, by catalogue name (ASCII case-insensitively: every spelling of a name shares its row).
 * A test lists every catalogue crawler without a row; it must find none.
 */
const ROWS: Readonly<Record<string, Row>> = {
  // Written by hand in the catalogue, from the operators' pages.
  googlebot: doc('search-engine', GOOGLE_COMMON),
  'googlebot-image': doc('search-engine', GOOGLE_COMMON),
  'googlebot-news': doc('search-engine', GOOGLE_COMMON),
  'googlebot-video': doc('search-engine', GOOGLE_COMMON),
  'storebot-google': doc('other', GOOGLE_COMMON),
  'google-inspectiontool': doc('seo-tool', GOOGLE_COMMON),
  googleother: doc('other', GOOGLE_COMMON),
  'googleother-image': doc('other', GOOGLE_COMMON),
  'googleother-video': doc('other', GOOGLE_COMMON),
  'google-extended': doc(
    'control-token',
    GOOGLE_COMMON,
    'blocking Google-Extended asks that content Google crawls not be used to train Gemini models nor to ground their answers; it does not change Google Search (inclusion or ranking)',
  ),
  'apis-google': doc('other', GOOGLE_SPECIAL),
  'adsbot-google': doc('other', GOOGLE_SPECIAL),
  'adsbot-google-mobile': doc('other', GOOGLE_SPECIAL),
  'mediapartners-google': doc('other', GOOGLE_SPECIAL),
  bingbot: doc('search-engine', BING),
  msnbot: doc('search-engine', BING),
  adidxbot: doc('other', BING),
  yandexbot: doc('search-engine', YANDEX),
  yandeximages: doc('search-engine', YANDEX),
  applebot: doc(
    'search-engine',
    APPLE,
    'blocking Applebot removes your pages from search in Siri, Spotlight and Safari; training of Apple’s models is governed by Applebot-Extended',
  ),
  duckduckbot: doc('search-engine', 'https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot'),
  baiduspider: doc('search-engine', 'https://www.baidu.com/search/robots_english.html'),
  twitterbot: doc(
    'preview',
    'https://developer.x.com/en/docs/x-for-websites/cards/guides/troubleshooting-cards',
    'blocking Twitterbot means links to your pages shared on X show no card (and a blocked image no thumbnail)',
  ),

  // Operators' pages for crawlers of the ai.robots.txt list.
  gptbot: doc(
    'ai-training',
    OPENAI,
    'blocking GPTBot asks that your content not be used to train OpenAI’s foundation models; it does not remove you from ChatGPT search answers (that is OAI-SearchBot)',
  ),
  'oai-searchbot': doc(
    'ai-search',
    OPENAI,
    'blocking OAI-SearchBot removes you from ChatGPT search answers (navigational links may remain); blocking GPTBot does not',
  ),
  'chatgpt-user': doc(
    'ai-assistant',
    OPENAI,
    'ChatGPT-User fetches when a user asks; OpenAI says robots.txt rules may not apply to these user-initiated requests',
  ),
  'chatgpt agent': doc('ai-assistant', OPENAI),
  claudebot: doc(
    'ai-training',
    ANTHROPIC,
    'blocking ClaudeBot asks that your future content be left out of Anthropic’s model training',
  ),
  'claude-user': doc(
    'ai-assistant',
    ANTHROPIC,
    'blocking Claude-User stops Claude fetching your pages when its users ask, which may reduce your visibility in user-directed search',
  ),
  'claude-searchbot': doc(
    'ai-search',
    ANTHROPIC,
    'blocking Claude-SearchBot keeps your content out of Claude’s search index, which may reduce your visibility in its search answers',
  ),
  perplexitybot: doc(
    'ai-search',
    PERPLEXITY,
    'blocking PerplexityBot removes you from Perplexity’s search results; Perplexity says it does not crawl for training foundation models',
  ),
  'perplexity-user': doc(
    'ai-assistant',
    PERPLEXITY,
    'Perplexity-User fetches when a user asks; Perplexity says it generally ignores robots.txt for such fetches',
  ),
  'applebot-extended': doc(
    'control-token',
    APPLE,
    'blocking Applebot-Extended asks that pages Applebot fetched not train Apple’s foundation models; Applebot-Extended never fetches, and search in Siri, Spotlight and Safari is unchanged',
  ),
  'meta-externalagent': doc(
    'ai-training',
    META,
    'blocking meta-externalagent keeps your pages out of the crawl Meta uses to train its AI models and improve its products',
  ),
  'meta-externalfetcher': doc(
    'ai-assistant',
    META,
    'meta-externalfetcher fetches links on a user’s request; Meta says it may not follow robots.txt for them',
  ),
  'meta-webindexer': doc(
    'ai-search',
    META,
    'blocking meta-webindexer keeps your pages out of Meta AI’s search index, which lets Meta AI cite and link to them',
  ),
  facebookexternalhit: doc('preview', META),
  facebookbot: list('ai-training'),
  amazonbot: doc(
    'ai-training',
    AMAZON,
    'blocking Amazonbot keeps your pages out of what Amazon may train its AI models on; Amzn-SearchBot and Amzn-User are separate settings',
  ),
  'amzn-searchbot': doc(
    'ai-search',
    AMAZON,
    'blocking Amzn-SearchBot keeps your pages out of search in Amazon products such as Alexa and Rufus; Amazon says it does not crawl for generative AI training',
  ),
  'amzn-user': doc('ai-assistant', AMAZON),
  ccbot: doc(
    'ai-training',
    COMMON_CRAWL,
    'blocking CCBot keeps your pages out of future Common Crawl archives, an open dataset on which many AI models are trained',
  ),
  ai2bot: doc('ai-training', AI2),
  'ai2bot-dolma': doc('ai-training', AI2),
  'google-cloudvertexbot': doc('ai-search', GOOGLE_SPECIAL),
  duckassistbot: doc('ai-search', 'https://duckduckgo.com/duckduckgo-help-pages/results/duckassistbot'),
  bravebot: doc('search-engine', 'https://safe.search.brave.com/help/brave-search-crawler'),
  petalbot: doc('search-engine', 'https://aspiegel.com/petalbot'),
  'semrushbot-ocob': doc('seo-tool', 'https://www.semrush.com/bot/'),
  'semrushbot-swa': doc('seo-tool', 'https://www.semrush.com/bot/'),

  // The ai.robots.txt list's own entries (its category, operator and function), read one by one.
  addsearchbot: list('ai-search'),
  agenttimes: list('other'),
  'ai2bot-deepresearcheval': list('ai-assistant'),
  aihitbot: list('other'),
  aiwebindex: list('ai-search'),
  'amazon-kendra': list('ai-search'),
  'amazon-qbusiness': list('ai-assistant'),
  amazonbuyforme: list('ai-assistant'),
  andibot: list('ai-search'),
  anomura: list('ai-search'),
  'anthropic-ai': list('ai-training'),
  apifybot: list('scraping-tool'),
  apifywebsitecontentcrawler: list('scraping-tool'),
  'aranet-searchbot': list('other'),
  'atlassian-bot': list('ai-assistant'),
  awario: list('ai-training'),
  'azureai-searchbot': list('ai-search'),
  bedrockbot: list('ai-search'),
  'bigsur.ai': list('ai-assistant'),
  brightbot: list('ai-training'),
  'brightbot 1.0': list('ai-training'),
  buddybot: list('ai-assistant'),
  bytespider: list('ai-training'),
  channel3bot: list('ai-search'),
  'chatglm-spider': list('ai-training'),
  'claude-code': list('ai-assistant'),
  'claude-web': list('other'),
  'cloudflare-autorag': list('ai-search'),
  cloudvertexbot: list('ai-training'),
  code: list('ai-assistant'),
  'cohere-ai': list('ai-assistant'),
  'cohere-training-data-crawler': list('ai-training'),
  cotoyogi: list('ai-training'),
  cragcrawler: list('other'),
  crawl4ai: list('scraping-tool'),
  crawlspace: list('scraping-tool'),
  cursor: list('ai-assistant'),
  'datenbank crawler': list('ai-training'),
  deepseekbot: list('ai-training'),
  devin: list('ai-assistant'),
  diffbot: list('scraping-tool'),
  'echobot bot': list('ai-training'),
  echoboxbot: list('other'),
  exabot: list('ai-search'),
  exasearchbot: list('ai-search'),
  factset_spyderbot: list('ai-training'),
  firecrawlagent: list('scraping-tool'),
  friendlycrawler: list('ai-training'),
  'geisthaus-pagefetcher': list('ai-assistant'),
  'gemini-deep-research': list('ai-assistant'),
  'google-agent': list('ai-assistant'),
  'google-firebase': list('ai-assistant'),
  'google-gemini-cli': list('ai-assistant'),
  'google-notebooklm': list('ai-assistant'),
  'googleagent-mariner': list('ai-assistant'),
  'googleagent-urlcontext': list('ai-assistant'),
  henkbot: list('other'),
  iaskbot: list('other'),
  iaskspider: list('other'),
  'iaskspider/2.0': list('ai-search'),
  'icc-crawler': list('ai-training'),
  imagesiftbot: list('other'),
  imagespider: list('ai-training'),
  img2dataset: list('ai-training'),
  isscyberriskcrawler: list('ai-training'),
  'kagi-fetcher': list('ai-assistant'),
  'kangaroo bot': list('ai-training'),
  'kimi-user': list('ai-assistant'),
  klaviyoaibot: list('ai-assistant'),
  kunatocrawler: list('other'),
  'laion-huggingface-processor': list('ai-training'),
  laiondownloader: list('ai-training'),
  lcc: list('ai-training'),
  lightpanda: list('scraping-tool'),
  linerbot: list('ai-assistant'),
  'linguee bot': list('other'),
  linkupbot: list('ai-search'),
  'manus-user': list('ai-assistant'),
  'mistralai-user': list('ai-assistant'),
  'mistralai-user/1.0': list('ai-assistant'),
  'mozilla-tabstack': list('ai-assistant'),
  mycentralaiscraperbot: list('ai-training'),
  nagetbot: list('ai-training'),
  'netestate imprint crawler': list('ai-training'),
  newsai: list('ai-training'),
  notebooklm: list('ai-assistant'),
  novaact: list('ai-assistant'),
  omgili: list('other'),
  omgilibot: list('other'),
  openai: list('other'),
  opencode: list('ai-assistant'),
  operator: list('ai-assistant'),
  pangubot: list('ai-training'),
  panscient: list('other'),
  'panscient.com': list('other'),
  phindbot: list('ai-assistant'),
  'poggio-citations': list('ai-assistant'),
  'poseidon research crawler': list('other'),
  qualifiedbot: list('ai-assistant'),
  'querit-searchbot': list('ai-search'),
  queritbot: list('ai-search'),
  quillbot: list('other'),
  'quillbot.com': list('other'),
  reflectionbot: list('other'),
  sbintuitionsbot: list('ai-training'),
  scrapy: list('scraping-tool'),
  'shap-user': list('ai-assistant'),
  shapbot: list('ai-search'),
  'sidetrade indexer bot': list('other'),
  spider: list('ai-training'),
  tavilybot: list('ai-search'),
  'terra cotta': list('ai-search'),
  terracotta: list('ai-search'),
  thinkbot: list('other'),
  tiktokspider: list('ai-training'),
  timpibot: list('ai-training'),
  tongyibot: list('ai-assistant'),
  trae: list('ai-assistant'),
  twinagent: list('ai-assistant'),
  useai: list('ai-assistant'),
  velenpublicwebcrawler: list('ai-training'),
  wardbot: list('ai-training'),
  'webzio-extended': list('ai-training'),
  wpbot: list('ai-assistant'),
  wrtnbot: list('other'),
  yak: list('other'),
  yandexadditional: list('ai-training'),
  yandexadditionalbot: list('ai-training'),
  yiyanbot: list('ai-assistant'),
  youbot: list('ai-search'),
  zanistabot: list('ai-search'),
};

/** The names the table has a row for (lower case): a test checks each is a catalogue crawler, so no row goes stale. */
export const CURATED_NAMES: readonly string[] = Object.freeze(Object.keys(ROWS));

/** The curated purpose of a catalogue name, ASCII case-insensitively; undefined for a name this table lacks. */
export function curatedPurpose(name: string): PurposeFact | undefined {
  const row = ROWS[name.toLowerCase()];
  if (row === undefined) return undefined;
  const [purpose, source, blocking] = row;
  return source === undefined
    ? { purpose, source: AI_ROBOTS_TXT_SOURCE, date: AI_ROBOTS_TXT_SNAPSHOT_DATE, blocking: null }
    : { purpose, source, date: OPERATOR_DATE, blocking: blocking ?? null };
}

/**
 * The ai.robots.txt list's category labels (its `function` field, for entries that give one), and the purpose each
 * means. Only exact labels count: a function written as a sentence gives no purpose (`other`).
 */
const LIST_CATEGORIES: Readonly<Record<string, CrawlerPurpose>> = {
  'ai data scrapers': 'ai-training',
  'ai search crawlers': 'ai-search',
  'ai assistants': 'ai-assistant',
  'ai agents': 'ai-assistant',
  'ai coding agents': 'ai-assistant',
};

/**
 * A provisional purpose for a crawler only a newer ai.robots.txt list knows: the purpose its category label means
 * (`AI Data Scrapers` → `ai-training`, `AI Search Crawlers` → `ai-search`, `AI Assistants`, `AI Agents` and `AI Coding
 * Agents` → `ai-assistant`), else `other`; its source is the list, dated `date`.
 */
export function purposeFromAiRobotsTxt(aiFunction: string, date: string): PurposeFact {
  const purpose = LIST_CATEGORIES[aiFunction.trim().replace(/\.$/, '').toLowerCase()] ?? 'other';
  return { purpose, source: AI_ROBOTS_TXT_SOURCE, date, blocking: null };
}

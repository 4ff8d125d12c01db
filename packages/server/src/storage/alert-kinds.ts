/**
 * The one list of alert kinds, with their severities: the alerts table and the webhooks' kind filters store them,
 * the detection (`alerts/detect.ts`) raises them, the API's schemas validate them, and the web UI's labels are keyed
 * by them (a kind missing there is a type error). It lives in `storage/` because that is the lowest layer that needs
 * it: the alerts table's column.
 */

/**
 * Every alert kind, with its usual severity. `critical`: Google stops crawling the site, or part of what it may crawl
 * is lost for every page (the file cannot be fetched, `/` newly disallowed). `warning`: worth a look today, but
 * crawling goes on (a sitemap line removed, the file turned into HTML, stylesheets or scripts blocked). `info`: a change
 * or a recovery. A change's severity is graded by measured harm instead (`alerts/detect.ts`, `severityOfHarm`): the
 * share of sitemap URLs newly blocked for a crawler the site depends on.
 */
export const ALERT_KINDS = {
  /**
   * The content changed (or the file appeared or went 404). `info` when no sitemap URL is newly blocked for a crawler
   * the site depends on; `warning` when some are; `critical` from a fifth of them.
   */
  'file-changed': 'info',
  /**
   * A fetch failed after a good one (crawling stops for the availability timeline's first period, then the last good
   * version applies), or the file has failed from its very first fetch (crawling stays stopped until a fetch
   * succeeds).
   */
  'file-unreachable': 'critical',
  /** A good fetch after failures. */
  'file-recovered': 'info',
  /**
   * `/` is newly disallowed for every crawler (`*`) or for Googlebot, or from the file's first fetch: the whole site is
   * blocked.
   */
  'disallow-all-added': 'critical',
  /** A `Sitemap:` line was removed: crawlers find pages by links and other sitemaps meanwhile. */
  'sitemap-removed': 'warning',
  /**
   * The file is an HTML page (a misconfigured server or a soft 404), since a change or from its first fetch; Google
   * reads whatever lines parse.
   */
  'became-html': 'warning',
  /** A stylesheet or script path is newly disallowed: Google cannot render the pages as people see them. */
  'assets-blocked': 'warning',
  /**
   * The file holds no rule at all (every URL allowed): `warning` when a change lost every rule, `info` when it was so
   * from its first fetch (often on purpose).
   */
  'no-rules': 'warning',
  /**
   * What the edit changes for AI crawlers (by the catalogue's purposes: AI training, AI search, AI assistants, control
   * tokens) or for AI usage preferences (`Content-Usage`, `Content-Signal`): `warning` when an AI search crawler is
   * newly blocked somewhere (the site leaves that product's answers), else `info`.
   */
  'ai-policy-changed': 'info',
  /**
   * In an uploaded access log, a crawler whose addresses are verified as its operator's (forward-confirmed reverse
   * DNS) fetched URLs that the robots.txt in force at the time disallowed: the operator's crawler ignores the file.
   * Spoofed and unverifiable requests in its name raise none.
   */
  'crawler-ignores-robots': 'warning',
} as const;

/** An alert kind. */
export type AlertKind = keyof typeof ALERT_KINDS;

/** How serious an alert is. */
export type AlertSeverity = (typeof ALERT_KINDS)[AlertKind];

/** Every alert kind, in the order above. */
export const ALERT_KIND_NAMES = Object.keys(ALERT_KINDS) as readonly AlertKind[];

/** Every severity, most serious first. */
export const ALERT_SEVERITIES: readonly AlertSeverity[] = ['critical', 'warning', 'info'];

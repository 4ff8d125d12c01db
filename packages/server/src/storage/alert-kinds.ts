/**
 * The one list of alert kinds, with their severities: the alerts table and the webhooks' kind filters store them,
 * the detection (`alerts/detect.ts`) raises them, the API's schemas validate them, and the web UI's labels are keyed
 * by them (a kind missing there is a type error). It lives in `storage/` because that is the lowest layer that needs
 * it: the alerts table's column.
 */

/**
 * Every alert kind, with its severity. `critical`: Google stops crawling the site, or part of what it may crawl is
 * lost for every page (the file cannot be fetched, `/` newly disallowed). `warning`: worth a look today, but crawling
 * goes on (a sitemap line removed, the file turned into HTML, stylesheets or scripts blocked). `info`: a change or a
 * recovery.
 */
export const ALERT_KINDS = {
  /** The content changed (or the file appeared or went 404). */
  'file-changed': 'info',
  /**
   * A fetch failed after a good one (crawling stops for the availability timeline's first period, then the last good
   * version applies), or the file has failed from its very first fetch (crawling stays stopped until a fetch
   * succeeds).
   */
  'file-unreachable': 'critical',
  /** A good fetch after failures. */
  'file-recovered': 'info',
  /** `/` is newly disallowed for every crawler (`*`) or for Googlebot: the whole site is blocked. */
  'disallow-all-added': 'critical',
  /** A `Sitemap:` line was removed: crawlers find pages by links and other sitemaps meanwhile. */
  'sitemap-removed': 'warning',
  /** The file is now an HTML page (a misconfigured server or a soft 404); Google reads whatever lines parse. */
  'became-html': 'warning',
  /** A stylesheet or script path is newly disallowed: Google cannot render the pages as people see them. */
  'assets-blocked': 'warning',
} as const;

/** An alert kind. */
export type AlertKind = keyof typeof ALERT_KINDS;

/** How serious an alert is. */
export type AlertSeverity = (typeof ALERT_KINDS)[AlertKind];

/** Every alert kind, in the order above. */
export const ALERT_KIND_NAMES = Object.keys(ALERT_KINDS) as readonly AlertKind[];

/** Every severity, most serious first. */
export const ALERT_SEVERITIES: readonly AlertSeverity[] = ['critical', 'warning', 'info'];

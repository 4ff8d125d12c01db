/**
 * The registry: every lint rule, one per file. Adding a rule is one new file here and one line below (plus its page
 * in docs/lint/, which a test requires); its code joins the {@link LintCode} union by itself.
 */

export { absoluteUrlInRule } from './absolute-url-in-rule.js';
export { bomAtStart } from './bom-at-start.js';
export { bomInMiddle } from './bom-in-middle.js';
export { conflictingRules } from './conflicting-rules.js';
export { contentSignalPlacement } from './content-signal-placement.js';
export { contentTooLarge } from './content-too-large.js';
export { dialectDifference } from './dialect-difference.js';
export { disallowAll } from './disallow-all.js';
export { dollarNotAtEnd } from './dollar-not-at-end.js';
export { duplicateRule } from './duplicate-rule.js';
export { duplicateSitemap } from './duplicate-sitemap.js';
export { emptyDisallow } from './empty-disallow.js';
export { emptyFile } from './empty-file.js';
export { emptyGroup } from './empty-group.js';
export { emptyUserAgent } from './empty-user-agent.js';
export { extensionField } from './extension-field.js';
export { fieldNamePrefix } from './field-name-prefix.js';
export { fieldNameTypo } from './field-name-typo.js';
export { groupMergesWithNext } from './group-merges-with-next.js';
export { hashInPath } from './hash-in-path.js';
export { htmlContent } from './html-content.js';
export { ignoredDirective } from './ignored-directive.js';
export { invalidCleanParam } from './invalid-clean-param.js';
export { invalidContentSignal } from './invalid-content-signal.js';
export { invalidContentUsage } from './invalid-content-usage.js';
export { invalidCrawlDelay } from './invalid-crawl-delay.js';
export { invalidLicense } from './invalid-license.js';
export { invalidSitemapUrl } from './invalid-sitemap-url.js';
export { invalidUserAgent } from './invalid-user-agent.js';
export { invalidUtf8 } from './invalid-utf8.js';
export { lineTooLong } from './line-too-long.js';
export { missingColon } from './missing-colon.js';
export { multipleGlobalGroups } from './multiple-global-groups.js';
export { noSitemap } from './no-sitemap.js';
export { noindexInRobotsTxt } from './noindex-in-robots-txt.js';
export { nulByte } from './nul-byte.js';
export { pathWithoutLeadingSlash } from './path-without-leading-slash.js';
export { repeatedUserAgent } from './repeated-user-agent.js';
export { retiredUsageLabel } from './retired-usage-label.js';
export { revealsPrivatePath } from './reveals-private-path.js';
export { ruleOutsideGroup } from './rule-outside-group.js';
export { shadowedRule } from './shadowed-rule.js';
export { unencodedPathCharacter } from './unencoded-path-character.js';
export { unknownField } from './unknown-field.js';
export { unparseableLine } from './unparseable-line.js';
export { usageContradiction } from './usage-contradiction.js';
export { userAgentNotProductToken } from './user-agent-not-product-token.js';
export { utf16File } from './utf16-file.js';

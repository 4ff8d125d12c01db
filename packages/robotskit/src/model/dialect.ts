/**
 * A dialect is how a crawler reads a robots.txt: which lines form a group, which groups apply to a crawler, and which
 * rule decides a path. The parser and the model are shared; a dialect is a small strategy object they consult.
 */

import type { SourceText } from './source-text.js';
import type { DecidingRule, GroupMatch, RobotsAgent, RobotsExtension, RobotsGroup } from './types.js';

/**
 * The dialects robotskit implements. `google` is RFC 9309 as Google's reference parser reads it; `legacy` is the 1994
 * convention (with the 1996 draft's `Allow`) as crawlers built on Python's `urllib.robotparser` read it.
 */
export type DialectName = 'google' | 'legacy';

/** Receives the directives of a file in order and forms groups. */
export interface GroupBuilder {
  userAgent(agent: RobotsAgent): void;
  /**
   * An allow or disallow line whose value is `[start, end)` of the parsed text. Returns false when the rule belongs to
   * no group (it comes before any user-agent line) and is ignored.
   */
  rule(allow: boolean, line: number, start: number, end: number): boolean;
  extension(extension: RobotsExtension): void;
  /** A blank line (whitespace only; comment-only lines are not blank). */
  blank(line: number): void;
  finish(): RobotsGroup[];
}

/** The groups that apply to a crawler. */
export interface Selection {
  readonly match: GroupMatch;
  /** Indexes of the applying groups, in file order. */
  readonly groups: readonly number[];
  /** Lines of the user-agent records that selected them. */
  readonly agentLines: readonly number[];
}

/** How {@link Dialect.select} compares the crawler's names with the file. */
export interface SelectOptions {
  /**
   * Compare each name with the whole `user-agent` value (ASCII case-insensitively) instead of its product token. For
   * crawler names that are not product tokens (`AI2Bot`, `Brightbot 1.0`), which a product-token comparison can never
   * match. Off for names given as strings, which are matched exactly as the reference matches them.
   * @default false
   */
  readonly wholeValue?: boolean;
}

/** {@link Dialect.select} bound to the groups of one file. */
export type GroupSelector = (agents: readonly string[], options?: SelectOptions) => Selection;

/** A decision for one path. */
export interface Verdict {
  readonly allowed: boolean;
  /** The rule that decided (the reference's matching line), or null. */
  readonly rule: DecidingRule | null;
}

/** Decides paths against a fixed pool of rules. */
export interface PoolMatcher {
  /** The verdict and the deciding rule. */
  decide(path: string): Verdict;
  /** Just the verdict, without allocating. */
  allows(path: string): boolean;
}

/** A way of reading robots.txt. */
export interface Dialect {
  readonly name: DialectName;
  /**
   * Only field names spelled exactly and followed by a colon are read. Lines Google accepts through a typo
   * (`useragent`), a prefix (`disallowed`) or a missing colon are then unknown fields (typo, prefix) or ignored
   * (missing colon).
   */
  readonly strictFieldNames: boolean;
  /** A builder that forms the groups of the text `text`. */
  groupBuilder(text: SourceText): GroupBuilder;
  /**
   * The groups that apply to crawlers named by `agents` (product tokens, ASCII lower-case). Called once per distinct
   * set of agents; the result is cached by the model.
   */
  select(groups: readonly RobotsGroup[], agents: readonly string[], options?: SelectOptions): Selection;
  /**
   * A selector for many questions about the same groups (crawler profiles, the crawler matrix): answers exactly as
   * {@link Dialect.select} does, after indexing the groups once where the dialect can.
   */
  selector(groups: readonly RobotsGroup[]): GroupSelector;
  /** A matcher for the rules of the selected groups (in file order). */
  matcher(groups: readonly RobotsGroup[]): PoolMatcher;
}

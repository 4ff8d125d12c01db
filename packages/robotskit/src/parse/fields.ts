/** Codes for what a robots.txt line holds and the facts recorded about it. */

/** What a line holds. Numeric so the table stays a flat typed array. */
export const Field = {
  /** Blank, comment-only or unparseable: no directive. */
  None: 0,
  UserAgent: 1,
  Allow: 2,
  Disallow: 3,
  Sitemap: 4,
  /** A `key: value` line with a key Google does not use (crawl-delay, host, typos of allow…). */
  Unknown: 5,
} as const;

/** Per-line facts, as bits. */
export const LineFlag = {
  /** Nothing but whitespace. */
  Blank: 1 << 0,
  /** Nothing but a comment (and whitespace). */
  CommentOnly: 1 << 1,
  /** A `#` comment follows the content. */
  HasComment: 1 << 2,
  /** Longer than {@link MAX_LINE_BYTES}: the rest of the line was dropped. */
  TooLong: 1 << 3,
  /** A NUL byte ended the line's content early. */
  Nul: 1 << 4,
  /** Key and value were separated by whitespace because the colon is missing (a Google leniency). */
  MissingColon: 1 << 5,
  /** The key is one of Google's accepted typos (`useragent`, `dissallow`, `site-map`…). */
  Typo: 1 << 6,
  /** The key only starts with a field name (`disallowed:`, `user-agentfoo:`), which Google accepts. */
  PrefixKey: 1 << 7,
  /** Content, but no separator: neither a colon nor exactly two whitespace-separated tokens. */
  NoSeparator: 1 << 8,
  /** Without a colon, the line has more than two whitespace-separated tokens. */
  TooManyTokens: 1 << 9,
  /** A separator but nothing before it. */
  EmptyKey: 1 << 10,
} as const;

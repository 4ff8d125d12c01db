/**
 * `generateRobots`: a robots.txt from a small declarative policy, checked against the policy by the exact comparison.
 *
 * A policy is a list of groups (crawlers, the paths they may and may not fetch, and optionally their AI usage
 * preferences: Content-Usage rules and a Content-Signal line, see `generate-usage.ts`) and sitemap URLs. It means what the
 * same groups mean in robots.txt under Google's rules: a crawler named by groups obeys their rules together (longest
 * match decides, `allow` wins a tie, no rule means allowed); a crawler no group names obeys the `*` groups.
 *
 * Every name is written as Google's reference reads a `user-agent` line: the longest `[a-zA-Z_-]` prefix of the value.
 * A crawler of the catalogue is written by its first name that is a product token (`Brightbot 1.0` by `Brightbot`, the
 * token before its version); one none of whose names Google can match (`AI2Bot` is read as `AI`, `img2dataset` as
 * `img`: other crawlers' names) is refused when the policy names it, and left out, with its name in `unnamed`, when a
 * category brings it (it then obeys the `*` group, as Google reads the file).
 *
 * The generated file is verified, not trusted: for every name it writes, as the reference reads it (a product token,
 * compared as Google compares it), and for `*`, `compareRobots` compares it with a one-group file holding exactly that
 * crawler's rules (and its usage lines: the comparison includes usage preferences), the file's usage preferences must be
 * what the policy states (computed from the policy apart from the file), and `lint` must report no error. `verified`
 * is true only when every comparison finished and found no difference.
 */

import { CRAWLERS } from '../crawlers/catalogue.js';
import { controlToken } from '../crawlers/control-tokens.js';
import type { CrawlerKind, CrawlerProfile } from '../crawlers/profile.js';
import { CRAWLER_PURPOSES } from '../crawlers/purposes.js';
import type { Diagnostic } from '../lint/diagnostic.js';
import { lint } from '../lint/lint.js';
import { parseRobotsTxt } from '../robots-txt/robots-txt.js';
import { isValidProductToken, tokenPrefix } from '../url/user-agent.js';
import { type CrawlerComparison, compareRobots } from './compare.js';
import {
  type GroupUsage,
  type PolicyUsage,
  readGroupUsage,
  type UsageMismatch,
  usageLinesOf,
  usageMismatches,
} from './generate-usage.js';
import { PolicyError } from './policy-error.js';

/** One group of a policy. */
export interface PolicyGroup {
  /**
   * Who the group is for: `*` (every crawler no group names), a crawler of the catalogue by name, a product token, or
   * `category:<name>` for every crawler of a catalogue category (see {@link POLICY_CATEGORIES}).
   */
  readonly crawlers: readonly string[];
  /** Path patterns (robots.txt syntax, `*` and `$` allowed) the crawlers may fetch. */
  readonly allow?: readonly string[];
  /** Path patterns the crawlers may not fetch. */
  readonly disallow?: readonly string[];
  /**
   * AI usage preferences (draft-ietf-aipref-attach), written as `Content-Usage: <path> <label>=y|n, …` lines: a path
   * pattern starting with `/` and the preference per category of the current vocabulary (`train-ai`, `ai-use`,
   * `search`).
   */
  readonly usage?: readonly PolicyUsage[];
  /** Cloudflare's Content-Signal, written as one line: `{ search: 'yes', 'ai-train': 'no', 'ai-input': 'no' }`. */
  readonly contentSignal?: Readonly<Record<string, string>>;
}

export type { PolicyUsage, UsageMismatch };

/** A declarative robots.txt policy. */
export interface RobotsPolicy {
  readonly groups: readonly PolicyGroup[];
  /** Absolute sitemap URLs. */
  readonly sitemaps?: readonly string[];
}

/** What {@link generateRobots} returns. */
export interface GenerateResult {
  /** The robots.txt. */
  readonly text: string;
  /** True when every comparison finished without a difference and lint found no error. */
  readonly verified: boolean;
  /** Per crawler checked (every crawler the policy names, then `*`): the file against the policy's rules for it. */
  readonly checks: readonly CrawlerComparison[];
  /**
   * Where the file's AI usage preferences differ from the policy's (per crawler checked, at each path a usage rule
   * names): empty when they agree, as `verified` requires.
   */
  readonly usage: readonly UsageMismatch[];
  /** Lint's findings on the generated file (warnings and infos may remain; an error makes `verified` false). */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Crawlers a category brought that robots.txt cannot name as Google reads it (none of their names is a product
   * token, nor a token before a version): left out of the file, they obey its `*` group. `readAs`: the token Google
   * would read from a line naming the crawler (`AI2Bot` → `AI`).
   */
  readonly unnamed: readonly { readonly crawler: string; readonly readAs: string }[];
}

export { PolicyError };

/**
 * The categories `category:<name>` accepts: the catalogue's kinds (`search`, `ads`, `ai`, `tool`, `other`) and its
 * curated purposes (`search-engine`, `ai-training`, `ai-search`, `ai-assistant`, `control-token`, `seo-tool`,
 * `archiver`, `preview`, `scraping-tool`; a crawler's purpose `other` is the kind's category `other`'s namesake only,
 * so it is not one). `ai-training` is the crawlers whose purpose is AI training and the control tokens that govern
 * training (Google-Extended, Applebot-Extended): what a site blocks to keep its content out of training.
 */
export const POLICY_CATEGORIES: readonly string[] = [
  'search',
  'ads',
  'ai',
  'tool',
  'other',
  ...CRAWLER_PURPOSES.filter((p) => p !== 'other'),
];

const KINDS: readonly string[] = ['search', 'ads', 'ai', 'tool', 'other'];

/**
 * The crawlers of a category, in catalogue order; `crawlers` is the catalogue (`CRAWLERS`, or one with a newer
 * ai.robots.txt list from `catalogueWith`).
 * @throws {PolicyError} for an unknown category.
 */
export function crawlersInCategory(category: string, crawlers: readonly CrawlerProfile[] = CRAWLERS): CrawlerProfile[] {
  const name = category.toLowerCase();
  if (!POLICY_CATEGORIES.includes(name)) {
    throw new PolicyError(`unknown category '${category}' (known: ${POLICY_CATEGORIES.join(', ')})`);
  }
  if (KINDS.includes(name)) return crawlers.filter((c) => c.kind === (name as CrawlerKind));
  if (name === 'ai-training') {
    return crawlers.filter(
      (c) =>
        c.purpose === 'ai-training' ||
        (c.purpose === 'control-token' && controlToken(c.name)?.governs.includes('training') === true),
    );
  }
  return crawlers.filter((c) => c.purpose === name);
}

/** A crawler the policy names: the user-agent value written for it, a product token that Google reads as written. */
interface Named {
  readonly value: string;
}

/**
 * The name to write for a crawler of the catalogue, as Google reads `user-agent` lines: its first name (tokens in
 * fallback order, then its name) that is a product token; else the product token before a version (`Brightbot 1.0`,
 * `Foo/2`); null when Google can match none (`AI2Bot` would be read as `AI`).
 */
function writableName(profile: CrawlerProfile): string | null {
  const names = [...profile.tokens, profile.name];
  const valid = names.find((n) => isValidProductToken(n));
  if (valid !== undefined) return valid;
  for (const n of names) {
    const token = tokenPrefix(n);
    const next = n.charCodeAt(token.length);
    if (token !== '' && (next === 0x20 || next === 0x2f)) return token;
  }
  return null;
}

interface Group {
  readonly crawlers: Named[];
  readonly allow: string[];
  readonly disallow: string[];
  readonly usage: GroupUsage;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function stringList(value: unknown, where: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new PolicyError(`${where}: expected a list of strings`);
  return value.map((v, i) => {
    if (typeof v !== 'string') throw new PolicyError(`${where}[${i}]: expected a string`);
    return v;
  });
}

/** Whitespace, controls and `#` cannot be written in a robots.txt value (they end it or start a comment). */
const UNWRITABLE = /[\s\p{Cc}#]/u;

function checkPath(path: string, where: string): string {
  if (path === '') throw new PolicyError(`${where}: empty path (leave the group without rules to allow everything)`);
  if (UNWRITABLE.test(path)) throw new PolicyError(`${where}: '${path}' contains whitespace, a control character or #`);
  if (!path.startsWith('/') && !path.startsWith('*')) {
    throw new PolicyError(`${where}: '${path}' must start with / or *`);
  }
  return path;
}

/** What a policy's crawler names become: the names to write, and the crawlers a category brought that cannot be. */
interface Naming {
  readonly named: Named[];
  readonly unnamed: { crawler: string; readAs: string }[];
}

function named(value: string, where: string, crawlers: readonly CrawlerProfile[]): Naming {
  if (value === '*') return { named: [{ value: '*' }], unnamed: [] };
  if (value.toLowerCase().startsWith('category:')) {
    let members: CrawlerProfile[];
    try {
      members = crawlersInCategory(value.slice('category:'.length), crawlers);
    } catch (e) {
      throw e instanceof PolicyError ? new PolicyError(`${where}: ${e.message}`) : e;
    }
    const naming: Naming = { named: [], unnamed: [] };
    for (const c of members) {
      const name = writableName(c);
      if (name === null) naming.unnamed.push({ crawler: c.name, readAs: tokenPrefix(c.name) });
      else naming.named.push({ value: name });
    }
    return naming;
  }
  const lower = value.toLowerCase();
  const profile = crawlers.find(
    (c) => c.name.toLowerCase() === lower || c.aliases.some((a) => a.toLowerCase() === lower),
  );
  if (profile !== undefined) {
    const name = writableName(profile);
    if (name === null) {
      throw new PolicyError(
        `${where}: '${value}' cannot be named in robots.txt as Google reads it: a user-agent line '${profile.name}' is read as '${tokenPrefix(profile.name)}' (letters, - and _ only), so it would obey the * group`,
      );
    }
    return { named: [{ value: name }], unnamed: [] };
  }
  if (!isValidProductToken(value)) {
    throw new PolicyError(
      `${where}: '${value}' is neither a crawler of the catalogue nor a product token (letters, - and _)`,
    );
  }
  return { named: [{ value }], unnamed: [] };
}

function readPolicy(
  policy: unknown,
  catalogue: readonly CrawlerProfile[],
): { groups: Group[]; sitemaps: string[]; unnamed: Naming['unnamed'] } {
  let value = policy;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (e) {
      throw new PolicyError(`the policy is not JSON: ${(e as Error).message}`);
    }
  }
  if (!isRecord(value)) throw new PolicyError('the policy must be an object with "groups"');
  for (const key of Object.keys(value)) {
    if (key !== 'groups' && key !== 'sitemaps')
      throw new PolicyError(`unknown field '${key}' (known: groups, sitemaps)`);
  }
  if (!Array.isArray(value.groups)) throw new PolicyError('groups: expected a list of groups');
  const unnamed: Naming['unnamed'] = [];
  const groups = value.groups.map((g: unknown, i: number): Group => {
    const where = `groups[${i}]`;
    if (!isRecord(g)) throw new PolicyError(`${where}: expected an object with "crawlers"`);
    for (const key of Object.keys(g)) {
      if (!GROUP_FIELDS.includes(key)) {
        throw new PolicyError(`${where}: unknown field '${key}' (known: ${GROUP_FIELDS.join(', ')})`);
      }
    }
    const names = stringList(g.crawlers, `${where}.crawlers`);
    if (names.length === 0) throw new PolicyError(`${where}.crawlers: name at least one crawler`);
    const crawlers: Named[] = [];
    const seen = new Set<string>();
    names.forEach((n, j) => {
      const naming = named(n, `${where}.crawlers[${j}]`, catalogue);
      for (const u of naming.unnamed) if (!unnamed.some((x) => x.crawler === u.crawler)) unnamed.push(u);
      for (const c of naming.named) {
        const key = c.value.toLowerCase();
        if (!seen.has(key)) {
          seen.add(key);
          crawlers.push(c);
        }
      }
    });
    const paths = (field: 'allow' | 'disallow') => [
      ...new Set(stringList(g[field], `${where}.${field}`).map((p, j) => checkPath(p, `${where}.${field}[${j}]`))),
    ];
    return { crawlers, allow: paths('allow'), disallow: paths('disallow'), usage: readGroupUsage(g, where) };
  });
  const sitemaps = stringList(value.sitemaps, 'sitemaps').map((s, i) => {
    if (!/^https?:\/\/[^/\s#]/i.test(s) || UNWRITABLE.test(s)) {
      throw new PolicyError(`sitemaps[${i}]: '${s}' is not an absolute http(s) URL without spaces or #`);
    }
    return s;
  });
  return { groups, sitemaps, unnamed };
}

const GROUP_FIELDS: readonly string[] = ['crawlers', 'allow', 'disallow', 'usage', 'contentSignal'];

function groupText(
  values: readonly string[],
  allow: readonly string[],
  disallow: readonly string[],
  usage: readonly GroupUsage[],
): string {
  const lines = values.map((v) => `User-agent: ${v}`);
  for (const p of allow) lines.push(`Allow: ${p}`);
  for (const p of disallow) lines.push(`Disallow: ${p}`);
  // A group needs a rule: user-agent lines followed directly by another group's would join that group (usage lines
  // do not end a group either). An empty `Disallow:` matches nothing, so it changes no verdict even where Google
  // merges this group with another for the same crawler (an `Allow: /` would win ties against that group's `Disallow: /`).
  if (allow.length === 0 && disallow.length === 0) lines.push('Disallow:');
  for (const part of usage) lines.push(...usageLinesOf(part));
  return lines.join('\n');
}

/**
 * A robots.txt from a policy (an object, or its JSON text), verified against the policy. `options.crawlers` is the
 * catalogue that names and categories are read in (default `CRAWLERS`; `catalogueWith` gives one with a newer
 * ai.robots.txt list).
 * @throws {PolicyError} when the policy is malformed (unknown field, category or crawler, an unwritable path).
 * @example
 * const { text, verified } = generateRobots({
 *   groups: [{ crawlers: ['category:ai-training'], disallow: ['/'] }, { crawlers: ['*'], disallow: ['/admin/'] }],
 *   sitemaps: ['https://example.invalid/sitemap.xml'],
 * });
 */
export function generateRobots(
  policy: RobotsPolicy | string,
  options?: { timeoutMs?: number; crawlers?: readonly CrawlerProfile[] },
): GenerateResult {
  const { groups, sitemaps, unnamed } = readPolicy(policy, options?.crawlers ?? CRAWLERS);
  // A group left with no crawler (a category of crawlers robots.txt cannot name) is not written: they obey `*`.
  const parts = groups
    .filter((g) => g.crawlers.length > 0)
    .map((g) =>
      groupText(
        g.crawlers.map((c) => c.value),
        g.allow,
        g.disallow,
        [g.usage],
      ),
    );
  if (sitemaps.length > 0) parts.push(sitemaps.map((s) => `Sitemap: ${s}`).join('\n'));
  const text = parts.length === 0 ? '' : `${parts.join('\n\n')}\n`;

  // Each crawler's rules by the policy: the groups naming it, merged. Crawlers named by the same groups are checked
  // against one reference file; `*` too (an empty reference when no group is for it).
  const byGroups = new Map<string, { crawlers: Named[]; groups: Group[] }>();
  const add = (c: Named, members: Group[]) => {
    const key = members.map((g) => groups.indexOf(g)).join(',');
    const entry = byGroups.get(key) ?? { crawlers: [], groups: members };
    if (!entry.crawlers.some((x) => x.value.toLowerCase() === c.value.toLowerCase())) entry.crawlers.push(c);
    byGroups.set(key, entry);
  };
  for (const g of groups) {
    for (const c of g.crawlers) {
      if (c.value === '*') continue;
      add(
        c,
        groups.filter((h) => h.crawlers.some((x) => x.value.toLowerCase() === c.value.toLowerCase())),
      );
    }
  }
  add(
    { value: '*' },
    groups.filter((h) => h.crawlers.some((x) => x.value === '*')),
  );
  const timeoutMs = options?.timeoutMs ?? 10_000;
  const checks: CrawlerComparison[] = [];
  const usage: UsageMismatch[] = [];
  const file = parseRobotsTxt(text);
  for (const { crawlers, groups: members } of byGroups.values()) {
    const reference =
      members.length === 0
        ? ''
        : `${groupText(
            crawlers.map((c) => c.value),
            members.flatMap((m) => m.allow),
            members.flatMap((m) => m.disallow),
            members.map((m) => m.usage),
          )}\n`;
    // Each name as the reference reads it: a product token, compared as Google compares it; usage preferences too.
    const names = crawlers.map((c) => c.value);
    checks.push(...compareRobots(file, reference, { crawlers: names, timeoutMs, usage: true }).crawlers);
    usage.push(
      ...usageMismatches(
        file,
        parseRobotsTxt(reference),
        names,
        members.map((m) => m.usage),
      ),
    );
  }
  const diagnostics = lint(file);
  const verified =
    checks.every((c) => c.equivalent) && usage.length === 0 && !diagnostics.some((d) => d.severity === 'error');
  return { text, verified, checks, usage, diagnostics, unnamed };
}

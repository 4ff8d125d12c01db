/**
 * `generateRobots`: a robots.txt from a small declarative policy, checked against the policy by the exact comparison.
 *
 * A policy is a list of groups (crawlers, and the paths they may and may not fetch) and sitemap URLs. It means what the
 * same groups mean in robots.txt under Google's rules: a crawler named by groups obeys their rules together (longest
 * match decides, `allow` wins a tie, no rule means allowed); a crawler no group names obeys the `*` groups.
 *
 * The generated file is verified, not trusted: for every crawler the policy names (after expanding categories) and for
 * `*`, `compareRobots` compares it with a one-group file holding exactly that crawler's rules, and `lint` must report no
 * error. `verified` is true only when every comparison finished and found no difference.
 */

import { CRAWLERS, crawlerByName } from '../crawlers/catalogue.js';
import type { CrawlerKind, CrawlerProfile } from '../crawlers/profile.js';
import type { Diagnostic } from '../lint/diagnostic.js';
import { lint } from '../lint/lint.js';
import { isValidProductToken } from '../url/user-agent.js';
import { type CrawlerComparison, compareRobots } from './compare.js';

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
}

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
  /** Lint's findings on the generated file (warnings and infos may remain; an error makes `verified` false). */
  readonly diagnostics: readonly Diagnostic[];
}

/** A policy that cannot be turned into robots.txt; the message says where (`groups[1].disallow[0]: …`). */
export class PolicyError extends Error {
  override readonly name = 'PolicyError';
}

/**
 * The categories `category:<name>` accepts. The catalogue's kinds (`search`, `ads`, `ai`, `tool`, `other`), and
 * `ai-training`: the AI crawlers whose stated purpose is collecting training data (the ai.robots.txt function "AI
 * Data Scrapers", or a function or purpose that mentions training, LLMs, language models, datasets or machine
 * learning), which includes Google-Extended. Assistants, AI search and agents fetching for a user are not in it.
 */
export const POLICY_CATEGORIES: readonly string[] = ['search', 'ads', 'ai', 'ai-training', 'tool', 'other'];

const TRAINING = /\b(?:train\w*|LLMs?|language models?|datasets?|machine learning|AI data scrapers?)\b/i;

/** The catalogue's crawlers of a category, in catalogue order. */
export function crawlersInCategory(category: string): CrawlerProfile[] {
  const name = category.toLowerCase();
  if (name === 'ai-training') {
    return CRAWLERS.filter(
      (c) => c.kind === 'ai' && (TRAINING.test(c.purpose) || TRAINING.test(c.aiRobotsTxt?.function ?? '')),
    );
  }
  if (!POLICY_CATEGORIES.includes(name)) {
    throw new PolicyError(`unknown category '${category}' (known: ${POLICY_CATEGORIES.join(', ')})`);
  }
  return CRAWLERS.filter((c) => c.kind === (name as CrawlerKind));
}

/** A crawler the policy names: the user-agent value written for it and what `compareRobots` checks it as. */
interface Named {
  readonly value: string;
  readonly input: string | CrawlerProfile;
}

interface Group {
  readonly crawlers: Named[];
  readonly allow: string[];
  readonly disallow: string[];
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

function named(value: string, where: string): Named[] {
  if (value === '*') return [{ value: '*', input: '*' }];
  if (value.toLowerCase().startsWith('category:')) {
    try {
      return crawlersInCategory(value.slice('category:'.length)).map((c) => ({ value: c.name, input: c }));
    } catch (e) {
      throw e instanceof PolicyError ? new PolicyError(`${where}: ${e.message}`) : e;
    }
  }
  const profile = crawlerByName(value);
  if (profile !== undefined) return [{ value: profile.name, input: profile }];
  if (!isValidProductToken(value)) {
    throw new PolicyError(
      `${where}: '${value}' is neither a crawler of the catalogue nor a product token (letters, - and _)`,
    );
  }
  return [{ value, input: value }];
}

function readPolicy(policy: unknown): { groups: Group[]; sitemaps: string[] } {
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
  const groups = value.groups.map((g: unknown, i: number): Group => {
    const where = `groups[${i}]`;
    if (!isRecord(g)) throw new PolicyError(`${where}: expected an object with "crawlers"`);
    for (const key of Object.keys(g)) {
      if (key !== 'crawlers' && key !== 'allow' && key !== 'disallow') {
        throw new PolicyError(`${where}: unknown field '${key}' (known: crawlers, allow, disallow)`);
      }
    }
    const names = stringList(g.crawlers, `${where}.crawlers`);
    if (names.length === 0) throw new PolicyError(`${where}.crawlers: name at least one crawler`);
    const crawlers: Named[] = [];
    const seen = new Set<string>();
    names.forEach((n, j) => {
      for (const c of named(n, `${where}.crawlers[${j}]`)) {
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
    return { crawlers, allow: paths('allow'), disallow: paths('disallow') };
  });
  const sitemaps = stringList(value.sitemaps, 'sitemaps').map((s, i) => {
    if (!/^https?:\/\/[^/\s#]/i.test(s) || UNWRITABLE.test(s)) {
      throw new PolicyError(`sitemaps[${i}]: '${s}' is not an absolute http(s) URL without spaces or #`);
    }
    return s;
  });
  return { groups, sitemaps };
}

function groupText(values: readonly string[], allow: readonly string[], disallow: readonly string[]): string {
  const lines = values.map((v) => `User-agent: ${v}`);
  for (const p of allow) lines.push(`Allow: ${p}`);
  for (const p of disallow) lines.push(`Disallow: ${p}`);
  // A group needs a rule: user-agent lines followed directly by another group's would join that group. An empty
  // `Disallow:` matches nothing, so it changes no verdict even where Google merges this group with another for the
  // same crawler (an `Allow: /` would win ties against that group's `Disallow: /`).
  if (allow.length === 0 && disallow.length === 0) lines.push('Disallow:');
  return lines.join('\n');
}

/**
 * A robots.txt from a policy (an object, or its JSON text), verified against the policy.
 * @throws {PolicyError} when the policy is malformed (unknown field, category or crawler, an unwritable path).
 * @example
 * const { text, verified } = generateRobots({
 *   groups: [{ crawlers: ['category:ai-training'], disallow: ['/'] }, { crawlers: ['*'], disallow: ['/admin/'] }],
 *   sitemaps: ['https://example.invalid/sitemap.xml'],
 * });
 */
export function generateRobots(policy: RobotsPolicy | string, options?: { timeoutMs?: number }): GenerateResult {
  const { groups, sitemaps } = readPolicy(policy);
  const parts = groups.map((g) =>
    groupText(
      g.crawlers.map((c) => c.value),
      g.allow,
      g.disallow,
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
    { value: '*', input: '*' },
    groups.filter((h) => h.crawlers.some((x) => x.value === '*')),
  );
  const timeoutMs = options?.timeoutMs ?? 10_000;
  const checks: CrawlerComparison[] = [];
  for (const { crawlers, groups: members } of byGroups.values()) {
    const reference =
      members.length === 0
        ? ''
        : `${groupText(
            crawlers.map((c) => c.value),
            members.flatMap((m) => m.allow),
            members.flatMap((m) => m.disallow),
          )}\n`;
    checks.push(...compareRobots(text, reference, { crawlers: crawlers.map((c) => c.input), timeoutMs }).crawlers);
  }
  const diagnostics = lint(text);
  const verified = checks.every((c) => c.equivalent) && !diagnostics.some((d) => d.severity === 'error');
  return { text, verified, checks, diagnostics };
}

/**
 * The AI usage part of a `generateRobots` policy: per group, `usage` (Content-Usage rules: a path and the preference
 * per category of the current vocabulary) and `contentSignal` (Cloudflare's keys and values), read and checked, written
 * as lines, and the generated file's preferences checked against what the policy states.
 *
 * The check is the policy's own meaning, computed apart from the file: for each crawler and at each path a rule of its
 * groups names (wildcards matching nothing; one character past a `$`), the rules whose pattern matches (the engine's
 * pattern matching on the normalised pattern), the longest ones combined most restrictive first, nothing where the
 * crawler may not fetch; the engine's `RobotsTxt.usage` on the generated file must give exactly that. Content-Signal
 * values must come back as written where one group states them.
 */

import { compilePattern, matchesFrom, normalizePattern } from '../match/pattern.js';
import type { UsagePreference, UsagePreferences } from '../model/types.js';
import type { RobotsTxt } from '../robots-txt/robots-txt.js';
import { combineUsagePreferences } from '../usage/preferences.js';
import {
  CONTENT_SIGNAL_KEYS,
  CURRENT_LABELS,
  contentSignalKey,
  USAGE_VOCABULARY,
  vocabRevisionName,
} from '../usage/vocabulary.js';
import { PolicyError } from './policy-error.js';

/** One Content-Usage rule of a policy group. */
export interface PolicyUsage {
  /** The path pattern (robots.txt syntax, starting with `/`; `*` and a final `$` allowed). */
  readonly path: string;
  /** The preference per category of the current vocabulary (`train-ai`, `ai-use`, `search`): `allow` or `disallow`. */
  readonly preferences: Readonly<Record<string, UsagePreference>>;
}

/** A group's usage part, as read. */
export interface GroupUsage {
  readonly usage: readonly PolicyUsage[];
  /** The Content-Signal pairs in the policy's order; null when the group states none. */
  readonly signal: readonly (readonly [string, string])[] | null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whitespace, controls and `#` cannot be written in a robots.txt value. */
const UNWRITABLE = /[\s\p{Cc}#]/u;

function readLabel(label: string, where: string): string {
  if (CURRENT_LABELS.includes(label)) return label;
  const row = USAGE_VOCABULARY.find((l) => l.label === label);
  const known = `current labels: ${CURRENT_LABELS.join(', ')}`;
  if (row !== undefined)
    throw new PolicyError(
      `${where}: '${label}' is a retired label (${row.revisions.map(vocabRevisionName).join(', ')}); ${known}`,
    );
  throw new PolicyError(`${where}: unknown label '${label}' (${known})`);
}

function readUsageRule(value: unknown, where: string): PolicyUsage {
  if (!isRecord(value)) throw new PolicyError(`${where}: expected an object with "path" and "preferences"`);
  for (const key of Object.keys(value)) {
    if (key !== 'path' && key !== 'preferences')
      throw new PolicyError(`${where}: unknown field '${key}' (known: path, preferences)`);
  }
  const path = value.path;
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw new PolicyError(`${where}.path: expected a path starting with /`);
  if (UNWRITABLE.test(path))
    throw new PolicyError(`${where}.path: '${path}' contains whitespace, a control character or #`);
  if (!isRecord(value.preferences))
    throw new PolicyError(`${where}.preferences: expected an object of label: allow|disallow`);
  const preferences: Record<string, UsagePreference> = {};
  for (const [label, preference] of Object.entries(value.preferences)) {
    readLabel(label, `${where}.preferences`);
    if (preference !== 'allow' && preference !== 'disallow')
      throw new PolicyError(`${where}.preferences.${label}: expected allow or disallow`);
    preferences[label] = preference;
  }
  if (Object.keys(preferences).length === 0)
    throw new PolicyError(`${where}.preferences: state at least one category (${CURRENT_LABELS.join(', ')})`);
  return { path, preferences };
}

function readSignal(value: unknown, where: string): [string, string][] {
  if (!isRecord(value)) throw new PolicyError(`${where}: expected an object of key: value`);
  const pairs: [string, string][] = [];
  for (const [key, v] of Object.entries(value)) {
    const row = contentSignalKey(key);
    if (row === undefined)
      throw new PolicyError(
        `${where}: unknown key '${key}' (known: ${CONTENT_SIGNAL_KEYS.map((k) => k.key).join(', ')})`,
      );
    if (typeof v !== 'string' || !row.values.includes(v))
      throw new PolicyError(`${where}.${key}: expected ${row.values.join(' or ')}`);
    pairs.push([key, v]);
  }
  if (pairs.length === 0) throw new PolicyError(`${where}: state at least one key`);
  return pairs;
}

/** Reads a policy group's `usage` and `contentSignal` fields (`where`: `groups[1]`). @throws {PolicyError} */
export function readGroupUsage(group: Record<string, unknown>, where: string): GroupUsage {
  let usage: PolicyUsage[] = [];
  if (group.usage !== undefined) {
    if (!Array.isArray(group.usage)) throw new PolicyError(`${where}.usage: expected a list of { path, preferences }`);
    usage = group.usage.map((u, i) => readUsageRule(u, `${where}.usage[${i}]`));
    const seen = new Set<string>();
    usage.forEach((u, i) => {
      if (seen.has(u.path)) throw new PolicyError(`${where}.usage[${i}].path: '${u.path}' is given twice in the group`);
      seen.add(u.path);
    });
  }
  const signal = group.contentSignal === undefined ? null : readSignal(group.contentSignal, `${where}.contentSignal`);
  return { usage, signal };
}

/** The lines a group's usage part is written as: its Content-Signal line, then one Content-Usage line per rule. */
export function usageLinesOf(part: GroupUsage): string[] {
  const lines: string[] = [];
  if (part.signal !== null) lines.push(`Content-Signal: ${part.signal.map(([k, v]) => `${k}=${v}`).join(', ')}`);
  for (const u of part.usage) {
    const expression = Object.entries(u.preferences)
      .map(([label, p]) => `${label}=${p === 'allow' ? 'y' : 'n'}`)
      .join(', ');
    lines.push(`Content-Usage: ${u.path} ${expression}`);
  }
  return lines;
}

/** Paths a pattern matches (wildcards matching nothing), and one character past a final `$`. */
function probesOf(path: string): string[] {
  const pattern = normalizePattern(path);
  const anchored = pattern.endsWith('$');
  const probe = (anchored ? pattern.slice(0, -1) : pattern).replaceAll('*', '');
  return anchored ? [probe, `${probe}x`] : [probe];
}

/** What the policy states at `path` for a crawler whose groups hold `rules`: the longest matching rules, combined. */
function policyPreferences(rules: readonly PolicyUsage[], path: string): UsagePreferences {
  let longest = -1;
  let deciding: UsagePreferences[] = [];
  for (const rule of rules) {
    const compiled = compilePattern(normalizePattern(rule.path));
    if (!matchesFrom(compiled, path, 0)) continue;
    const length = compiled.source.length;
    if (length > longest) {
      longest = length;
      deciding = [rule.preferences];
    } else if (length === longest) deciding.push(rule.preferences);
  }
  return combineUsagePreferences(...deciding);
}

/** A difference between what the policy states and what the generated file gives. */
export interface UsageMismatch {
  /** The crawler, as written in the file. */
  readonly crawler: string;
  readonly path: string;
  /** `preferences`, or `content-signal`. */
  readonly what: 'preferences' | 'content-signal';
  readonly policy: Readonly<Record<string, string>>;
  readonly file: Readonly<Record<string, string>>;
}

const sameRecord = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/**
 * Where the generated file's usage preferences differ from the policy's, for crawlers named `names` whose groups hold
 * `parts` (the `*` groups for `*`); `reference` decides which paths they may fetch (the policy's own rules).
 */
export function usageMismatches(
  file: RobotsTxt,
  reference: RobotsTxt,
  names: readonly string[],
  parts: readonly GroupUsage[],
): UsageMismatch[] {
  const rules = parts.flatMap((p) => p.usage);
  const signals = parts.flatMap((p) => (p.signal === null ? [] : [p.signal]));
  const probes = new Set(['/', ...rules.flatMap((r) => probesOf(r.path))]);
  const out: UsageMismatch[] = [];
  for (const crawler of names) {
    for (const path of probes) {
      const answer = file.usage(path, crawler);
      const policy = reference.isAllowed(path, crawler) ? policyPreferences(rules, path) : {};
      if (!sameRecord(policy, answer.preferences))
        out.push({ crawler, path, what: 'preferences', policy, file: answer.preferences });
      // One group's signal comes back as written (several are combined by the engine's own rule, checked by the
      // comparison with the reference file).
      if (signals.length === 0 && answer.contentSignal !== null)
        out.push({ crawler, path, what: 'content-signal', policy: {}, file: answer.contentSignal.signals });
      if (signals.length === 1 && answer.crawlable) {
        const stated = Object.fromEntries(signals[0]!);
        const read = answer.contentSignal?.signals ?? {};
        if (!sameRecord(stated, read)) out.push({ crawler, path, what: 'content-signal', policy: stated, file: read });
      }
    }
  }
  return out;
}

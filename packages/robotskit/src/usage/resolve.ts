/**
 * Which usage preferences apply to a path for the groups selected for a crawler (draft-ietf-aipref-attach, "Content-Usage
 * Rule Semantics"): among the groups' Content-Usage rules, those whose path matches longest (the same matching as
 * Allow/Disallow, length in bytes of the encoded pattern) give the preferences; several rules of that length combine
 * per category, most restrictive first. The groups' Content-Signal lines are read beside them, mapped to the
 * vocabulary where a key means the same use.
 */

import { type CompiledPattern, compilePattern, matchesFrom } from '../match/pattern.js';
import type { ContentSignalAnswer, RobotsGroup, UsageAnswer, UsagePreference, UsageRule } from '../model/types.js';
import type { ContentSignalLine, ContentUsageLine, UsageLines } from './lines.js';
import { combineUsagePreferences, preferencesOf } from './preferences.js';
import { CONTENT_SIGNAL_KEYS, contentSignalKey } from './vocabulary.js';

interface PoolRule extends UsageRule {
  readonly compiled: CompiledPattern;
}

/** The usage rules and signals of one selection of groups, ready for paths. */
export class UsagePool {
  private readonly rules: PoolRule[] = [];
  private readonly signal: ContentSignalAnswer | null;

  constructor(groups: readonly RobotsGroup[], lines: UsageLines) {
    const signals: ContentSignalLine[] = [];
    for (const group of groups) {
      for (const extension of group.extensions) {
        const rule = lines.usage.get(extension.line);
        if (rule !== undefined) this.add(rule);
        const signal = lines.signals.get(extension.line);
        if (signal !== undefined) signals.push(signal);
      }
    }
    this.rules.sort((a, b) => b.compiled.source.length - a.compiled.source.length || a.line - b.line);
    this.signal = signals.length === 0 ? null : readSignals(signals);
  }

  private add(rule: ContentUsageLine): void {
    if (rule.pattern === null) return;
    this.rules.push({
      line: rule.line,
      pattern: rule.pattern,
      expression: rule.expression,
      preferences: Object.freeze(preferencesOf(rule.parsed)),
      compiled: compilePattern(rule.pattern),
    });
  }

  /** The answer for `path`, given whether the crawler may fetch it. */
  answer(path: string, crawlable: boolean): UsageAnswer {
    if (!crawlable) return { crawlable, preferences: {}, rules: [], contentSignal: null };
    let first: PoolRule | null = null;
    let more: PoolRule[] | null = null;
    let length = -1;
    for (const rule of this.rules) {
      const n = rule.compiled.source.length;
      if (n < length) break;
      if (!matchesFrom(rule.compiled, path, 0)) continue;
      length = n;
      if (first === null) first = rule;
      else {
        more ??= [first];
        more.push(rule);
      }
    }
    if (first === null) return { crawlable, preferences: {}, rules: [], contentSignal: this.signal };
    if (more === null) {
      // One rule decided, as nearly always: its preferences as they are (frozen, so answers can share them).
      return { crawlable, preferences: first.preferences, rules: [decidingRule(first)], contentSignal: this.signal };
    }
    more.sort((a, b) => a.line - b.line);
    return {
      crawlable,
      preferences: combineUsagePreferences(...more.map((r) => r.preferences)),
      rules: more.map(decidingRule),
      contentSignal: this.signal,
    };
  }
}

/** The public form of a pool rule. */
function decidingRule(rule: PoolRule): UsageRule {
  return { line: rule.line, pattern: rule.pattern, expression: rule.expression, preferences: rule.preferences };
}

/** Of two values of one key, the more restrictive: `no` over `yes`, and for `use` the one that keeps less. */
function stricter(key: string, a: string, b: string): string {
  const order = contentSignalKey(key)?.values;
  if (order === undefined) return b;
  const rank = (v: string): number => {
    if (key === 'use') return order.indexOf(v);
    return v === 'no' ? 0 : v === 'yes' ? 1 : -1;
  };
  const ra = rank(a);
  const rb = rank(b);
  if (ra < 0) return b;
  if (rb < 0) return a;
  return rb < ra ? b : a;
}

function readSignals(lines: readonly ContentSignalLine[]): ContentSignalAnswer {
  const signals: Record<string, string> = {};
  for (const line of lines) {
    for (const [key, value] of line.pairs ?? []) {
      const previous = signals[key];
      signals[key] = previous === undefined ? value : stricter(key, previous, value);
    }
  }
  const preferences: Record<string, UsagePreference> = {};
  const unmapped: Record<string, string> = {};
  for (const [key, value] of Object.entries(signals)) {
    const known = CONTENT_SIGNAL_KEYS.find((k) => k.key === key);
    const carried = known !== undefined && (known.relation === 'same' || known.relation === 'contains');
    if (carried && known.label !== null && (value === 'yes' || value === 'no'))
      preferences[known.label] = value === 'yes' ? 'allow' : 'disallow';
    else unmapped[key] = value;
  }
  return { lines: lines.map((l) => l.line), signals, preferences, unmapped };
}

/**
 * Usage preferences: a preference expression (a Structured Fields Dictionary, draft-ietf-aipref-vocab "Processing
 * Algorithm") read into allow/disallow per category, and statements combined most restrictive first ("Combining
 * Preferences"). The same reading serves the robots.txt `Content-Usage` rule and the HTTP `Content-Usage` header.
 */

import type { UsagePreference, UsagePreferences } from '../model/types.js';
import { toSourceBytes } from '../parse/input.js';
import { parseSfDictionary, type SfResult } from './structured-fields.js';
import { CURRENT_LABELS } from './vocabulary.js';

/** The preferences a parsed dictionary states for the current vocabulary. */
export function preferencesOf(parsed: SfResult): Record<string, UsagePreference> {
  const out: Record<string, UsagePreference> = {};
  if (!parsed.ok) return out;
  for (const label of CURRENT_LABELS) {
    const member = parsed.members.get(label);
    if (member?.type !== 'token') continue;
    if (member.token === 'y') out[label] = 'allow';
    else if (member.token === 'n') out[label] = 'disallow';
  }
  return out;
}

/**
 * Reads a preference expression, such as the value of an HTTP `Content-Usage` header (`train-ai=n, search=y`), into
 * the preferences it states for the current vocabulary. Text is read as its UTF-8 bytes. A value that does not parse
 * (upper-case keys included) states nothing; other values than the tokens `y` and `n`, unknown labels and parameters
 * are ignored; a repeated key keeps its last value.
 * @throws TypeError when `value` is neither a string nor bytes (a programmer error).
 */
export function parseUsagePreferences(value: string | Uint8Array): UsagePreferences {
  if (typeof value !== 'string' && !(value instanceof Uint8Array))
    throw new TypeError('parseUsagePreferences: the value must be a string or a Uint8Array');
  const { bin } = toSourceBytes(value, Number.MAX_SAFE_INTEGER);
  return preferencesOf(parseSfDictionary(bin, 0, bin.length));
}

/**
 * Combines statements of preference about one asset (several Content-Usage rules, the robots.txt rule and the HTTP
 * header…), category by category: any disallow gives disallow, else any allow gives allow, else unknown.
 */
export function combineUsagePreferences(...statements: readonly UsagePreferences[]): UsagePreferences {
  const out: Record<string, UsagePreference> = {};
  for (const statement of statements) {
    for (const [label, preference] of Object.entries(statement)) {
      if (preference === 'disallow' || out[label] === undefined) out[label] = preference;
    }
  }
  return out;
}

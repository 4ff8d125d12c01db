/**
 * Small text helpers shared by rules: how fields are spelled, quoting values in messages, near-miss spellings.
 */

import { FIELD_SPELLING, OTHER_FIELDS } from '../model/key-reading.js';
import type { RobotsRecord } from '../model/types.js';

/** The spelling of a record's field (`User-agent`), or its key as written for unknown fields. */
export function fieldSpelling(record: RobotsRecord): string {
  return record.field === null || record.field === 'unknown' ? record.key : FIELD_SPELLING[record.field];
}

// Control, format, private-use and non-characters: shown as escapes so a message never hides or garbles text.
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: making control characters visible is the point.
  /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ue000-\uf8ff\ufff0-\ufffc\ufffe\uffff]/g;

/** A value for a message: quoted, shortened, invisible characters made visible. */
export function quote(text: string, max = 60): string {
  let t = text.replace(INVISIBLE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  if (t.length > max) t = `${t.slice(0, max - 1)}…`;
  return `"${t}"`;
}

/** Levenshtein distance, giving up (returning `limit + 1`) once it exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The field a misspelt key most likely means (`alow` → `Allow`, `user_agent` → `User-agent`), or null. */
export function nearestField(key: string): string | null {
  const k = key.toLowerCase().replace(/[_\s]+/g, '-');
  const names = [...Object.values(FIELD_SPELLING), ...Object.values(OTHER_FIELDS)];
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const limit = name.length <= 5 ? 1 : 2;
    const d = editDistance(k, name.toLowerCase(), limit);
    if (d <= limit && d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** The name of `names` a misspelt `word` most likely means (edit distance 1 for short names, else 2), or null. */
export function nearestName(word: string, names: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const limit = name.length <= 5 ? 1 : 2;
    const d = editDistance(word, name, limit);
    if (d <= limit && d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Whether a user-agent token belongs to one of Google's crawlers (`Googlebot`, `AdsBot-Google`, `GoogleOther`…). */
export function isGoogleToken(token: string): boolean {
  return token.toLowerCase().includes('google');
}

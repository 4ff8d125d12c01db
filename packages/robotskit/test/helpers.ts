/**
 * What several engine tests share: Google's conformance cases (the fixture copy of the suite), the shared real-world
 * corpus when present, and small helpers for bytes.
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** One case of Google's conformance suite. */
export interface SpecCase {
  id: number;
  suite: string;
  test_type: 'STANDARD' | 'GOOGLE_SPECIFIC';
  robots_b64: string;
  user_agent: string;
  url: string;
  expected: 'allowed' | 'disallowed';
  explanation: string;
}

/** The 400 conformance cases, read from the fixture copy of the suite. */
export function specCases(): SpecCase[] {
  const text = readFileSync(join(here, 'fixtures/google-spec-test/cases.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SpecCase);
}

/**
 * Where the shared real-world corpus lives: `ROBOTSKIT_CORPUS`, else `../shared/corpus` next to the repository.
 * Returns null when it is absent; in CI its absence is an error, not a skip.
 */
export function corpusDir(): string | null {
  const candidates = [process.env.ROBOTSKIT_CORPUS, resolve(here, '../../../../shared/corpus')].filter(
    (p): p is string => typeof p === 'string' && p !== '',
  );
  const found = candidates.find((p) => existsSync(join(p, 'robots')));
  if (found) return found;
  if (process.env.CI) throw new Error(`robots.txt corpus not found (looked in ${candidates.join(', ')})`);
  return null;
}

/** Encodes text as UTF-8 bytes. */
export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/**
 * The published vector suite (vectors/aipref.json) as every surface's test reads it: the engine's, `explain --json`,
 * the API and the web tester run the same cases, so they load them, and turn a case into its bytes, here.
 */

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What a case expects of the Content-Signal lines. */
export interface AiprefContentSignal {
  readonly lines: number[];
  readonly signals: Record<string, string>;
  readonly preferences: Record<string, string>;
}

/** One case of the suite. */
export interface AiprefCase {
  readonly id: string;
  readonly description: string;
  readonly source?: string;
  readonly reading?: string;
  readonly robots_txt?: string;
  readonly robots_b64?: string;
  readonly user_agent: string;
  readonly url: string;
  readonly expected: {
    readonly crawlable: boolean;
    readonly preferences: Record<string, string>;
    readonly lines: number[];
    readonly content_signal?: AiprefContentSignal | null;
  };
}

/** The suite: its labels, its runner contract and its cases. */
export const AIPREF_SUITE = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'vectors', 'aipref.json'), 'utf8'),
) as { labels: string[]; contract: string[]; cases: AiprefCase[] };

/** The robots.txt of a case as bytes: the exact bytes when given, else the text's UTF-8. */
export function caseBytes(c: AiprefCase): Uint8Array {
  return c.robots_b64 !== undefined
    ? new Uint8Array(Buffer.from(c.robots_b64, 'base64'))
    : new TextEncoder().encode(c.robots_txt!);
}

/**
 * The ai.robots.txt list as its project publishes it (`robots.json`: one object per user-agent name with `operator`,
 * `respect`, `function`, `frequency`, `description`, and sometimes `has_name_and_version`): read and checked, and what
 * changed between two versions of it.
 */

import { AI_ROBOTS_TXT } from './ai-robots-txt.generated.js';
import type { AiRobotsTxtEntry } from './profile.js';

/** A `robots.json` that is not the ai.robots.txt list's shape; the message says where. */
export class AiRobotsTxtError extends Error {
  override readonly name = 'AiRobotsTxtError';
}

const TEXT_FIELDS = ['operator', 'respect', 'function', 'frequency', 'description'] as const;
const FIELDS: readonly string[] = [...TEXT_FIELDS, 'has_name_and_version'];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What {@link readAiRobotsTxt} returns. */
export interface AiRobotsTxtList {
  /** Every entry, in the file's order. */
  readonly entries: readonly AiRobotsTxtEntry[];
  /** Fields the file has that this version does not know (`Name.field`); they are left out of the entries. */
  readonly unknownFields: readonly string[];
}

/**
 * Reads an ai.robots.txt `robots.json` (its text, or the parsed value).
 * @throws {AiRobotsTxtError} when it is not JSON, or not an object of entries each with the five text fields.
 * @example readAiRobotsTxt(text).entries.map((e) => e.name)
 */
export function readAiRobotsTxt(json: unknown): AiRobotsTxtList {
  let value = json;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch (e) {
      throw new AiRobotsTxtError(`not JSON: ${(e as Error).message}`);
    }
  }
  if (!isRecord(value)) {
    throw new AiRobotsTxtError('expected an object of crawlers by name ({ "GPTBot": { "operator": …, … }, … })');
  }
  const entries: AiRobotsTxtEntry[] = [];
  const unknownFields: string[] = [];
  const names = Object.keys(value);
  if (names.length === 0) throw new AiRobotsTxtError('the list has no crawler');
  for (const name of names) {
    const entry = value[name];
    if (name.trim() === '') throw new AiRobotsTxtError('a crawler has an empty name');
    if (!isRecord(entry)) throw new AiRobotsTxtError(`"${name}": expected an object of fields`);
    const fields: Record<string, string> = {};
    for (const field of TEXT_FIELDS) {
      const text = entry[field];
      if (typeof text !== 'string') {
        throw new AiRobotsTxtError(`"${name}": "${field}" is ${text === undefined ? 'missing' : 'not a string'}`);
      }
      fields[field] = text;
    }
    const flag = entry.has_name_and_version;
    if (flag !== undefined && typeof flag !== 'boolean') {
      throw new AiRobotsTxtError(`"${name}": "has_name_and_version" is not true or false`);
    }
    for (const key of Object.keys(entry)) if (!FIELDS.includes(key)) unknownFields.push(`${name}.${key}`);
    entries.push(
      Object.freeze({
        name,
        operator: fields.operator!,
        respect: fields.respect!,
        function: fields.function!,
        frequency: fields.frequency!,
        description: fields.description!,
        ...(flag === undefined ? {} : { hasNameAndVersion: flag }),
      }),
    );
  }
  return { entries, unknownFields };
}

/** The ai.robots.txt list the package ships (its snapshot, `AI_ROBOTS_TXT_SNAPSHOT_DATE`). */
export const SHIPPED_AI_LIST: readonly AiRobotsTxtEntry[] = AI_ROBOTS_TXT;

/** One field of an entry that differs between two lists. */
export interface AiRobotsTxtFieldChange {
  readonly field: keyof Omit<AiRobotsTxtEntry, 'name'>;
  readonly before: string | boolean | null;
  readonly after: string | boolean | null;
}

/** What changed from one ai.robots.txt list to another: names compared exactly, as the list writes them. */
export interface AiRobotsTxtChanges {
  /** Names only the newer list has, in its order. */
  readonly added: readonly string[];
  /** Names only the older list has, in its order. */
  readonly removed: readonly string[];
  /** Names both have whose fields differ, in the newer list's order. */
  readonly changed: readonly { readonly name: string; readonly fields: readonly AiRobotsTxtFieldChange[] }[];
}

const COMPARED = ['operator', 'respect', 'function', 'frequency', 'description', 'hasNameAndVersion'] as const;

/** What changed between two ai.robots.txt lists (`before` the one in use, `after` the newer one). */
export function aiRobotsTxtChanges(
  before: readonly AiRobotsTxtEntry[],
  after: readonly AiRobotsTxtEntry[],
): AiRobotsTxtChanges {
  const old = new Map(before.map((e) => [e.name, e]));
  const now = new Set(after.map((e) => e.name));
  const added: string[] = [];
  const changed: { name: string; fields: AiRobotsTxtFieldChange[] }[] = [];
  for (const entry of after) {
    const previous = old.get(entry.name);
    if (previous === undefined) {
      added.push(entry.name);
      continue;
    }
    const fields: AiRobotsTxtFieldChange[] = [];
    for (const field of COMPARED) {
      const a = previous[field] ?? null;
      const b = entry[field] ?? null;
      if (a !== b) fields.push({ field, before: a, after: b });
    }
    if (fields.length > 0) changed.push({ name: entry.name, fields });
  }
  const removed = before.filter((e) => !now.has(e.name)).map((e) => e.name);
  return { added, removed, changed };
}

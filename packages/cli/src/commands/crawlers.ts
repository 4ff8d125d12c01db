/**
 * `robotskit crawlers [--purpose <purpose>] [--json]`: the crawler catalogue (name, purpose, operator, tokens, source),
 * with the user's merged ai.robots.txt list when there is one. `robotskit crawlers update --from <robots.json>`: merges
 * a newer ai.robots.txt `robots.json` (a local file, no network) into the user data file the command reads (see
 * `options/catalogue.ts` for where), and says what changed against the list in use: crawlers added (with the purpose
 * their list category gives them), removed, and fields changed. Exit 0 done; 2 on usage and I/O errors (a missing
 * file, not JSON, not the list's shape).
 */

import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
// Types only: the engine loads when the command runs.
import type { AiRobotsTxtChanges, AiRobotsTxtEntry, CrawlerProfile } from 'robotskit';
import { CliError, type Io, readInput } from '../io.js';
import { readUserList, type UserListFile, userCatalogue, userListPath } from '../options/catalogue.js';
import { visible } from '../output/paint.js';

/** Options of `crawlers`, as commander parsed them. */
export interface CrawlersOptions {
  readonly purpose?: string;
  readonly json?: boolean;
}

/** Options of `crawlers update`. */
export interface CrawlersUpdateOptions {
  readonly from: string;
  readonly json?: boolean;
}

/** One crawler as `--json` prints it. */
function crawlerJson(c: CrawlerProfile) {
  return {
    name: c.name,
    purpose: c.purpose,
    kind: c.kind,
    operator: c.operator,
    tokens: c.tokens,
    validTokens: c.validTokens,
    source: c.purposeSource,
    date: c.purposeDate,
    blocking: c.blocking,
    description: c.description,
  };
}

/** `text` cut to `max` characters, the cut said with `...`. */
function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

/** Rows as aligned columns; the last column is not padded. */
function columns(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '))
    .join('\n');
}

/** Runs `crawlers`; returns the exit code. */
export async function runCrawlers(io: Io, options: CrawlersOptions): Promise<number> {
  const { CRAWLER_PURPOSES } = await import('robotskit');
  const purpose = options.purpose?.toLowerCase();
  if (purpose !== undefined && !(CRAWLER_PURPOSES as readonly string[]).includes(purpose)) {
    throw new CliError(`--purpose: unknown purpose '${options.purpose}' (known: ${CRAWLER_PURPOSES.join(', ')})`);
  }
  const { crawlers, list } = await userCatalogue(io);
  const shown = purpose === undefined ? crawlers : crawlers.filter((c) => c.purpose === purpose);
  if (options.json) {
    const doc = {
      aiRobotsTxt: list === null ? null : { file: list.path, updated: list.updated },
      crawlers: shown.map(crawlerJson),
    };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  if (list !== null) {
    io.stderr.write(`robotskit: with the ai.robots.txt list merged on ${list.updated} (${list.path})\n`);
  }
  if (shown.length === 0) {
    io.stdout.write(`no crawler of the catalogue has the purpose ${purpose}\n`);
    return 0;
  }
  const rows = shown.map((c) => [
    visible(c.name),
    c.purpose,
    visible(clip(c.operator === '' ? '-' : c.operator, 40)),
    visible(c.tokens.join(', ')),
    visible(c.purposeSource),
  ]);
  io.stdout.write(`${columns([['name', 'purpose', 'operator', 'tokens', 'source'], ...rows])}\n`);
  return 0;
}

/** A field's value in a sentence: quoted text, or true/false/none. */
function shown(value: string | boolean | null): string {
  if (value === null) return 'none';
  if (typeof value === 'boolean') return String(value);
  return `'${visible(clip(value, 80))}'`;
}

function describeChanges(changes: AiRobotsTxtChanges, purposeOf: (name: string) => string): string[] {
  const lines: string[] = [];
  for (const name of changes.added) lines.push(`  added    ${visible(name)} (${purposeOf(name)})`);
  for (const name of changes.removed) lines.push(`  removed  ${visible(name)}`);
  for (const { name, fields } of changes.changed) {
    for (const f of fields) {
      lines.push(`  changed  ${visible(name)}: ${f.field} ${shown(f.before)} -> ${shown(f.after)}`);
    }
  }
  return lines;
}

/** The list in use before this update: the user's merged one, else the shipped one (also when the merged one is damaged). */
async function listInUse(io: Io): Promise<readonly AiRobotsTxtEntry[]> {
  const { SHIPPED_AI_LIST } = await import('robotskit');
  try {
    return (await readUserList(io))?.entries ?? SHIPPED_AI_LIST;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.stderr.write(`robotskit: ${error.message.split(':')[0]}; replacing it\n`);
    return SHIPPED_AI_LIST;
  }
}

/** Writes the user data file whole or not at all (a temporary file renamed over it). */
async function writeUserList(path: string, doc: UserListFile): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(temporary, `${JSON.stringify(doc, null, 2)}\n`);
    await rename(temporary, path);
  } catch (error) {
    throw new CliError(`cannot write the merged crawler list '${path}': ${(error as Error).message}`, 2, {
      cause: error,
    });
  }
}

/** Runs `crawlers update`; returns the exit code. */
export async function runCrawlersUpdate(io: Io, options: CrawlersUpdateOptions): Promise<number> {
  const { readAiRobotsTxt, AiRobotsTxtError, aiRobotsTxtChanges, catalogueWith } = await import('robotskit');
  const name = options.from === '-' ? 'standard input' : `'${options.from}'`;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readInput(io, options.from, 'robots.json file'));
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`${name} is not UTF-8 text`);
  }
  let robots: unknown;
  let entries: readonly AiRobotsTxtEntry[];
  let unknownFields: readonly string[];
  try {
    robots = JSON.parse(text);
    ({ entries, unknownFields } = readAiRobotsTxt(robots));
  } catch (error) {
    const why = error instanceof AiRobotsTxtError ? error.message : `not JSON: ${(error as Error).message}`;
    throw new CliError(`${name} is not an ai.robots.txt robots.json: ${why}`);
  }
  const before = await listInUse(io);
  const changes = aiRobotsTxtChanges(before, entries);
  const updated = new Date().toISOString().slice(0, 10);
  const path = userListPath(io.env);
  await writeUserList(path, {
    updated,
    from: options.from === '-' ? '-' : resolve(options.from),
    robots,
  });
  const catalogue = catalogueWith(entries, updated);
  const purposeOf = (n: string) => catalogue.find((c) => c.aiRobotsTxt?.name === n || c.name === n)?.purpose ?? 'other';
  if (unknownFields.length > 0) {
    io.stderr.write(
      `robotskit: fields this version does not read, left out: ${unknownFields.slice(0, 5).map(visible).join(', ')}${unknownFields.length > 5 ? ', …' : ''}\n`,
    );
  }
  if (options.json) {
    const doc = {
      file: path,
      updated,
      crawlers: entries.length,
      added: changes.added.map((n) => ({ name: n, purpose: purposeOf(n) })),
      removed: changes.removed,
      changed: changes.changed,
      unknownFields,
    };
    io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    return 0;
  }
  const { added, removed, changed } = changes;
  const summary =
    added.length + removed.length + changed.length === 0
      ? 'no change'
      : `${added.length} added, ${removed.length} removed, ${changed.length} changed`;
  const lines = [`merged ${name} (${entries.length} crawlers) into ${path}: ${summary}`];
  lines.push(...describeChanges(changes, purposeOf));
  if (added.length > 0) {
    lines.push('added crawlers have the purpose their ai.robots.txt category gives (robotskit crawlers lists them)');
  }
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

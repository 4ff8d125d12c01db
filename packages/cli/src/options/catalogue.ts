/**
 * The crawler catalogue the command uses: the engine's, or the engine's with the newer ai.robots.txt list a user merged
 * with `robotskit crawlers update --from <robots.json>`. That list lives in a user data file, so the published command
 * picks it up without a new release: `$ROBOTSKIT_DATA_DIR/ai-robots-txt.json`, else
 * `$XDG_DATA_HOME/robotskit/ai-robots-txt.json`, else `~/.local/share/robotskit/ai-robots-txt.json` (on Windows
 * `%LOCALAPPDATA%\robotskit\ai-robots-txt.json`). Deleting the file returns to the list the package ships.
 */

import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
// Types only: the engine loads when a command asks for the catalogue.
import type { AiRobotsTxtEntry, CrawlerProfile } from 'robotskit';
import { CliError, type Io } from '../io.js';

/** The user data file's name in its folder. */
const FILE_NAME = 'ai-robots-txt.json';

/** Where the merged list is kept, by the environment's rules (see the module comment). */
export function userListPath(env: Io['env']): string {
  if (env.ROBOTSKIT_DATA_DIR) return join(env.ROBOTSKIT_DATA_DIR, FILE_NAME);
  if (env.XDG_DATA_HOME) return join(env.XDG_DATA_HOME, 'robotskit', FILE_NAME);
  if (process.platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'robotskit', FILE_NAME);
  return join(homedir(), '.local', 'share', 'robotskit', FILE_NAME);
}

/** The user data file: when and from where the list was merged, and the list as upstream writes it. */
export interface UserListFile {
  /** The day it was merged (`YYYY-MM-DD`): the date of the purposes new crawlers get from the list. */
  readonly updated: string;
  /** The file it was merged from. */
  readonly from: string;
  /** The ai.robots.txt `robots.json`, as read. */
  readonly robots: unknown;
}

/** The merged list in use: its entries and the day it was merged; null when the user has merged none. */
export interface UserList {
  readonly path: string;
  readonly updated: string;
  readonly entries: readonly AiRobotsTxtEntry[];
}

/** Reads the user's merged list; null when there is none. A damaged file is an error that says how to mend it. */
export async function readUserList(io: Io): Promise<UserList | null> {
  const path = userListPath(io.env);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new CliError(`cannot read the merged crawler list '${path}': ${(error as Error).message}`);
  }
  const { readAiRobotsTxt, AiRobotsTxtError } = await import('robotskit');
  const broken = (why: string) =>
    new CliError(
      `the merged crawler list '${path}' is damaged (${why}): run robotskit crawlers update --from <robots.json> again, or delete it to use the list the package ships`,
    );
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw broken(`not JSON: ${(error as Error).message}`);
  }
  const file = doc as Partial<UserListFile> | null;
  if (typeof file !== 'object' || file === null || typeof file.updated !== 'string') {
    throw broken('no "updated" date');
  }
  try {
    return { path, updated: file.updated, entries: readAiRobotsTxt(file.robots).entries };
  } catch (error) {
    if (error instanceof AiRobotsTxtError) throw broken(error.message);
    throw error;
  }
}

/** The catalogue to use: the engine's, with the user's merged ai.robots.txt list in place of the shipped one. */
export async function userCatalogue(io: Io): Promise<{ crawlers: readonly CrawlerProfile[]; list: UserList | null }> {
  const { CRAWLERS, catalogueWith } = await import('robotskit');
  const list = await readUserList(io);
  return { crawlers: list === null ? CRAWLERS : catalogueWith(list.entries, list.updated), list };
}

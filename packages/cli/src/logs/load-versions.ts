/**
 * `--robots FILE|DIR`: the versions `logs` judges by, read from disk. One file (in force at every time); a folder of
 * dated versions, each named by the moment it came into force (the engine's `versionTime` reads the names:
 * `robotskit/logs`); or, for a log of several sites, a folder with a subfolder per host, each holding that host's
 * `robots.txt` (in force at every time) or its dated versions:
 *
 *     robots/
 *       a.example/robots.txt
 *       b.example/2026-11-01.txt
 *       b.example/2026-11-15T08:30:00Z.txt
 *
 * A subfolder is named by the host as the log names it (`Host` header, virtual host), read as the engine's `logHost`
 * reads a logged one (lower case, no default port). Other files than `*.txt` are ignored, as are names starting with a dot; a
 * `.txt` file with another name is an error, so a misnamed version is never silently left out, and so is a folder that
 * holds both dated versions and host subfolders.
 */

import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseRobotsTxt } from 'robotskit';
import { logHost, type RobotsVersion, versionTime } from 'robotskit/logs';
import { CliError } from '../io.js';

/** What judges a log: one robots.txt's versions, or each host's. */
export type Judges =
  | { readonly versions: RobotsVersion[]; readonly sites?: undefined }
  | { readonly sites: Map<string, RobotsVersion[]>; readonly versions?: undefined };

/** A folder's dated versions, oldest first; `prefix` goes before each label (a host folder's name). */
async function datedVersions(path: string, names: readonly string[], prefix: string): Promise<RobotsVersion[]> {
  const versions: RobotsVersion[] = [];
  for (const name of names) {
    if (!name.endsWith('.txt')) continue;
    const since = versionTime(name);
    if (Number.isNaN(since)) {
      throw new CliError(
        `--robots '${path}': '${name}' is not named by the time it came into force (e.g. 2026-11-01T00:00:00Z.txt or 2026-11-01.txt)${prefix === '' ? '' : ', nor robots.txt'}`,
      );
    }
    versions.push({ label: `${prefix}${name}`, since, robots: parseRobotsTxt(await readFile(join(path, name))) });
  }
  if (versions.length === 0) {
    throw new CliError(`--robots '${path}' holds no dated version (files named like 2026-11-01T00:00:00Z.txt)`);
  }
  versions.sort((a, b) => a.since - b.since);
  for (let i = 1; i < versions.length; i++) {
    if (versions[i]!.since === versions[i - 1]!.since) {
      throw new CliError(
        `--robots '${path}': '${versions[i - 1]!.label}' and '${versions[i]!.label}' name the same time`,
      );
    }
  }
  return versions;
}

/** One host's folder: its `robots.txt` alone, or its dated versions. */
async function hostVersions(path: string, folder: string): Promise<RobotsVersion[]> {
  const names = (await readdir(path)).filter((n) => !n.startsWith('.')).sort();
  if (!names.includes('robots.txt')) return datedVersions(path, names, `${folder}/`);
  if (names.some((n) => n !== 'robots.txt' && n.endsWith('.txt'))) {
    throw new CliError(`--robots '${path}' holds robots.txt and dated versions: give one or the other`);
  }
  const robots = parseRobotsTxt(await readFile(join(path, 'robots.txt')));
  return [{ label: `${folder}/robots.txt`, since: Number.NEGATIVE_INFINITY, robots }];
}

/** The subfolders of a `--robots` folder of hosts, each read as its host's versions. */
async function siteVersions(path: string, folders: readonly string[]): Promise<Map<string, RobotsVersion[]>> {
  const sites = new Map<string, RobotsVersion[]>();
  const named = new Map<string, string>();
  for (const folder of folders) {
    const host = logHost(folder);
    if (host === null) throw new CliError(`--robots '${path}': the folder '${folder}' is not named by a host`);
    const before = named.get(host);
    if (before !== undefined) {
      throw new CliError(`--robots '${path}': the folders '${before}' and '${folder}' name the same host (${host})`);
    }
    named.set(host, folder);
    sites.set(host, await hostVersions(join(path, folder), folder));
  }
  return new Map([...sites].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** What `--robots` names: the file, the folder's dated versions (oldest first), or a folder per host. */
export async function loadVersions(path: string): Promise<Judges> {
  let isDir: boolean;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (error) {
    throw new CliError(`cannot read --robots '${path}': no such file or folder`, 2, { cause: error });
  }
  if (!isDir) {
    const bytes = await readFile(path).catch((error: unknown) => {
      throw new CliError(`cannot read --robots '${path}': ${(error as Error).message}`, 2, { cause: error });
    });
    const label = path.split(/[\\/]/).pop()!;
    return { versions: [{ label, since: Number.NEGATIVE_INFINITY, robots: parseRobotsTxt(bytes) }] };
  }
  const entries = (await readdir(path, { withFileTypes: true })).filter((e) => !e.name.startsWith('.'));
  const folders = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  const names = entries
    .filter((e) => !e.isDirectory())
    .map((e) => e.name)
    .sort();
  if (folders.length === 0) return { versions: await datedVersions(path, names, '') };
  if (names.some((n) => n.endsWith('.txt'))) {
    throw new CliError(
      `--robots '${path}' holds both dated versions and host folders: one robots.txt's versions, or a folder per host`,
    );
  }
  return { sites: await siteVersions(path, folders.sort()) };
}

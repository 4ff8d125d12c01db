/**
 * `--ranges FILE|URL` and `--ranges NAME=FILE|URL`: published range files read from disk, or fetched through the user
 * cache (`range-cache.ts`), and applied to crawlers by the engine (`robotskit/logs`: `parseRanges`, `rangesFor`):
 * a file to the crawlers whose operator publishes a file of that name, or that its prefixes' services name; a named
 * one to the catalogue crawler NAME, whatever the file is called.
 */

import { readFile } from 'node:fs/promises';
import { crawlerByName } from 'robotskit';
import {
  LogInputError,
  type ParsedRanges,
  parseRanges,
  publishedRangeFiles,
  type RangeFile,
  type RangesByCrawler,
  rangesFor,
} from 'robotskit/logs';
import { CliError } from '../io.js';
import { type RangeCacheOptions, readRangeUrl } from './range-cache.js';

function basename(path: string): string {
  return path.split(/[\\/]/).pop()!;
}

/** A URL's file name (`https://openai.com/gptbot.json` → `gptbot.json`). */
function urlName(url: URL): string {
  return basename(url.pathname) || url.hostname;
}

async function readLocal(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read --ranges '${path}': ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
      2,
      { cause: error },
    );
  }
}

/** The engine's reading of a file, its refusal said as `--ranges '…' …`. */
function parsedRanges(text: string, label: string): ParsedRanges {
  try {
    return parseRanges(text, label);
  } catch (error) {
    if (error instanceof LogInputError) throw new CliError(`--ranges ${error.message}`, 2, { cause: error });
    throw error;
  }
}

/** Reads every `--ranges` argument (files, or URLs through the cache) and says which crawlers each applies to. */
export async function loadRanges(args: readonly string[], cache: RangeCacheOptions): Promise<RangesByCrawler> {
  const byCrawler = new Map<string, RangeFile[]>();
  for (const arg of args) {
    const eq = arg.indexOf('=');
    const named = eq > 0 ? crawlerByName(arg.slice(0, eq)) : undefined;
    const where = named === undefined ? arg : arg.slice(eq + 1);
    const url = /^https?:\/\//i.test(where) ? new URL(where) : null;
    const label = url === null ? basename(where) : urlName(url);
    const text = url === null ? await readLocal(where) : await readRangeUrl(url, cache);
    const applied = rangesFor(parsedRanges(text, label), named?.name ?? null);
    if (applied.length === 0) {
      throw new CliError(
        `--ranges '${where}': no crawler's operator publishes a file named '${label}' (known: ${publishedRangeFiles().join(', ')}), and its prefixes name no crawler of the catalogue in "services"; name the crawler: --ranges GPTBot=${where}`,
      );
    }
    for (const [key, file] of applied) byCrawler.set(key, [...(byCrawler.get(key) ?? []), file]);
  }
  return byCrawler;
}

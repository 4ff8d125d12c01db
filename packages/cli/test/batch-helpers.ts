/**
 * What the `batch` tests share: records read back from NDJSON, line sources that count what was pulled, and the
 * sites they run against (servers of `Sites`, on 127.0.0.1).
 */
import { spawn } from 'node:child_process';
import { tracked } from './cleanup.js';
import { BIN } from './helpers.js';
import type { Site, Sites } from './sites.js';

/** A record of `batch`'s output. */
export interface BatchRecord {
  index: number;
  url: string;
  allowed?: boolean;
  line?: number;
  rule?: { kind: string; pattern: string } | null;
  robotsUrl?: string;
  fetch?: { status: number | null; outcome: string; error: { kind: string; message: string } | null };
  policy?: { mode: string; reason: string };
  error?: { kind: string; message: string };
}

/** The records of NDJSON output (none for empty output). */
export const records = (text: string): BatchRecord[] =>
  text.trim() === ''
    ? []
    : text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as BatchRecord);

/** Lines from an array, one at a time, counting how many were pulled. */
export function counted(lines: readonly string[]) {
  const state = { pulled: 0 };
  async function* gen() {
    for (const l of lines) {
      state.pulled++;
      yield l;
    }
  }
  return { state, lines: gen() };
}

/** A site whose robots.txt disallows /private-<n>/. */
export const ruledSite = (sites: Sites, n: number): Promise<Site> =>
  sites.serve({ '/robots.txt': { body: `User-agent: *\nDisallow: /private-${n}/\n` } });

/** A site whose robots.txt (`body`) is answered only on release(); `closed` says when the client hung up. */
export async function heldSite(sites: Sites, body = 'User-agent: *\nAllow: /\n') {
  let release = () => {};
  let closed = false;
  const site = await sites.start((_req, res) => {
    res.on('close', () => {
      closed = true;
    });
    release = () => res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  return { site, release: () => release(), closed: () => closed };
}

/** `robotskit batch` with `args` in a process of its own (to be signalled): its output so far, and its exit code. */
export function spawnBatch(args: readonly string[]) {
  const child = tracked(spawn(process.execPath, [BIN, 'batch', ...args], { stdio: ['ignore', 'pipe', 'pipe'] }));
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => {
    output.stdout += d;
  });
  child.stderr.on('data', (d) => {
    output.stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output, exited };
}

/**
 * `robotskit logs -` as a process reads standard input by its file descriptor (not by the stream): a pipe fed in pieces
 * with pauses between them, a gzip pipe, a file given as standard input, and a pipe another part of the process had
 * already made non-blocking (the read then says "try again", and the rest is read as a stream) all give the report the
 * same log gives by its path.
 */

import { spawn as spawnChild } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tempDir, tracked } from './cleanup.js';
import { BIN, plainEnv } from './helpers.js';

const dir = tempDir('logs-stdin');
const robots = join(dir, 'robots.txt');
writeFileSync(robots, 'User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n');
const AGENTS = [
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; ExampleBot/1.0; +https://bot.invalid/)',
  'Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0',
];
const TARGETS = ['/', '/private/a', '/nogoogle/b', '/robots.txt', '/public/c'];
const lines = Array.from({ length: 30_000 }, (_, i) => {
  const seconds = String(Math.floor(i / 500) % 60).padStart(2, '0');
  const ua = AGENTS[i % AGENTS.length];
  return `192.0.2.${i % 200} - - [01/Nov/2026:00:${String(Math.floor(i / 30_000)).padStart(2, '0')}:${seconds} +0000] "GET ${TARGETS[i % TARGETS.length]} HTTP/1.1" 200 ${i % 900} "-" "${ua}"`;
});
const text = `${lines.join('\n')}\n`;
const log = join(dir, 'access.log');
writeFileSync(log, text);

/** A script that makes standard input non-blocking (as reading `process.stdin` does for a pipe), then runs `logs`. */
const NON_BLOCKING = `
process.stdin;
const { main } = await import(${JSON.stringify(join(BIN, '../../dist/main.js'))});
process.exitCode = await main(process.argv.slice(1));
`;

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `args` (after `node`) with `input` on standard input: bytes written in pieces with pauses between them (a pipe),
 * or a file's path (the file itself is standard input).
 */
function runWith(args: string[], input: Buffer | { file: string }): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const fd = 'file' in input ? openSync(input.file, 'r') : 'pipe';
    const child = tracked(spawnChild(process.execPath, args, { stdio: [fd, 'pipe', 'pipe'], env: plainEnv() }));
    if (typeof fd === 'number') closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (Buffer.isBuffer(input)) {
      const stdin = child.stdin!;
      const pieces = 5;
      const size = Math.ceil(input.length / pieces);
      let i = 0;
      const next = () => {
        if (i >= pieces) return void stdin.end();
        stdin.write(input.subarray(i * size, (i + 1) * size));
        i++;
        setTimeout(next, 150);
      };
      next();
    }
  });
}

/** The `--json` report without the file names (`-` against the path). */
function report(outcome: Outcome): unknown {
  expect(outcome.stderr).toBe('');
  const { files: _files, ...rest } = JSON.parse(outcome.stdout);
  return rest;
}

describe('robotskit logs - (standard input as a process)', () => {
  const args = ['--robots', robots, '--json'];

  it('reads a pipe fed in pieces, a gzip pipe and a file as standard input as it reads the file by its path', async () => {
    const byPath = await runWith([BIN, 'logs', log, ...args], Buffer.alloc(0));
    expect(byPath.code).toBe(1);
    const expected = report(byPath);
    // A third are browsers; of the crawlers, Googlebot is refused /nogoogle and the other bot /private/: one target in five.
    expect(expected).toMatchObject({ lines: 30_000, requests: 30_000, otherRequests: 10_000, violations: 4_000 });
    const piped = await runWith([BIN, 'logs', '-', ...args], Buffer.from(text));
    expect({ code: piped.code, report: report(piped) }).toEqual({ code: 1, report: expected });
    const gzipped = await runWith([BIN, 'logs', '-', ...args], gzipSync(text));
    expect({ code: gzipped.code, report: report(gzipped) }).toEqual({ code: 1, report: expected });
    const file = await runWith([BIN, 'logs', '-', ...args], { file: log });
    expect({ code: file.code, report: report(file) }).toEqual({ code: 1, report: expected });
  });

  it('reads the rest as a stream when standard input was made non-blocking before', async () => {
    const byPath = await runWith([BIN, 'logs', log, ...args], Buffer.alloc(0));
    const script = ['--input-type=module', '-e', NON_BLOCKING, 'logs', '-', ...args];
    const piped = await runWith(script, Buffer.from(text));
    expect({ code: piped.code, report: report(piped) }).toEqual({ code: 1, report: report(byPath) });
  });

  it('writes every violation to a --violations file, waiting on the disk without piling up listeners', async () => {
    const violations = join(dir, 'violations.ndjson');
    const written = await runWith([BIN, 'logs', log, '--robots', robots, '--violations', violations], Buffer.alloc(0));
    expect(written.code).toBe(1);
    // Node warns on standard error when a stream holds more than ten listeners of one event.
    expect(written.stderr).not.toContain('MaxListenersExceededWarning');
    expect(readFileSync(violations, 'utf8').trim().split('\n')).toHaveLength(4_000);
  });
});

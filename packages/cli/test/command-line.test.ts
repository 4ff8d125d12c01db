/**
 * How the command behaves as a command-line tool: quiet when its reader goes away, colour by NO_COLOR and FORCE_COLOR,
 * `--json` on every command that prints, one `robotskit:` prefix on every error, the defaults shown in help, only the
 * modules a command needs, and `lint` over several files.
 */
import { spawn as spawnChild } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { BIN, plainEnv, type RunResult, run } from './helpers.js';

const here = dirname(fileURLToPath(import.meta.url));
const dir = tempDir('command-line');
const robotsFile = join(dir, 'robots.txt');
writeFileSync(robotsFile, 'User-agent: *\nDisallow: /private\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n');
const typo = join(dir, 'typo.txt');
writeFileSync(typo, 'User-agent: *\nDisallow: /private/\nAlow: /x\nSitemap: https://example.com/s.xml\n');
const clean = join(dir, 'clean.txt');
writeFileSync(clean, 'User-agent: *\nDisallow: /private/\nSitemap: https://example.com/s.xml\n');
// Enough diagnostics that the report is far larger than a pipe's buffer.
const big = join(dir, 'big.txt');
writeFileSync(big, `User-agent: *\n${'Alow: /x\n'.repeat(20_000)}`);

/** Runs the real executable; `firstChunkOnly` closes its standard output after the first chunk, as `| head` does. */
function exec(
  argv: string[],
  options: { firstChunkOnly?: boolean; nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawnChild(process.execPath, [...(options.nodeArgs ?? []), BIN, ...argv], {
      env: plainEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      stdout += chunk;
      if (options.firstChunkOnly) child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('output', () => {
  it('ends quietly when its reader goes away (robotskit lint big.txt | head -1)', async () => {
    for (const format of ['text', 'json', 'sarif']) {
      const result = await exec(['lint', big, '--format', format], { firstChunkOnly: true });
      expect(result.stderr, format).toBe('');
      expect(result.code, format).toBe(0);
      expect(result.stdout.length).toBeGreaterThan(0);
    }
  });

  it('colours by FORCE_COLOR when set, else not with a non-empty NO_COLOR, else on a terminal', async () => {
    const coloured = (r: RunResult) => r.stdout.includes('\u001b[31merror\u001b[39m');
    const lint = (tty: boolean, env: Record<string, string | undefined>) =>
      run(['lint', typo], { tty, env: { NO_COLOR: undefined, ...env } });
    expect(coloured(await lint(true, {}))).toBe(true);
    expect(coloured(await lint(true, { NO_COLOR: '' }))).toBe(true);
    expect(coloured(await lint(true, { NO_COLOR: '1' }))).toBe(false);
    expect(coloured(await lint(false, {}))).toBe(false);
    expect(coloured(await lint(false, { FORCE_COLOR: '1' }))).toBe(true);
    expect(coloured(await lint(false, { FORCE_COLOR: '' }))).toBe(true);
    expect(coloured(await lint(true, { FORCE_COLOR: '1', NO_COLOR: '1' }))).toBe(true);
    expect(coloured(await lint(true, { FORCE_COLOR: '0' }))).toBe(false);
    expect(coloured(await lint(true, { FORCE_COLOR: 'false' }))).toBe(false);
  });
});

describe('--json', () => {
  it('lint takes --json as --format json, and refuses it with another format', async () => {
    const json = await run(['lint', typo, '--json']);
    expect(json).toEqual(await run(['lint', typo, '--format', 'json']));
    expect(JSON.parse(json.stdout)[0].diagnostics[0].code).toBe('unknown-field');
    const both = await run(['lint', typo, '--json', '--format', 'sarif']);
    expect(both).toEqual({
      code: 2,
      stdout: '',
      stderr: 'robotskit: --json and --format sarif ask for two formats: give one\n',
    });
  });

  it('test prints the verdict as JSON with --json, also when piped', async () => {
    const result = await run(['test', robotsFile, 'Googlebot', 'https://e.com/nogoogle', '--json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      url: 'https://e.com/nogoogle',
      allowed: false,
      line: 5,
      ruleText: 'Disallow: /nogoogle',
    });
  });

  it('is accepted by every command that prints a report', async () => {
    for (const command of ['test', 'explain', 'lint', 'check', 'batch', 'audit', 'sitemaps', 'logs']) {
      const help = (await run([command, '--help'])).stdout;
      expect(help, command).toContain('--json');
    }
  });
});

describe('errors and help', () => {
  it('prefixes the argument parser’s errors with robotskit:, as every other error', async () => {
    const results = [
      await run(['lint', typo, '--bogus']),
      await run(['check']),
      await run(['explain', robotsFile]),
      await run(['test', robotsFile, '--severity', 'x']),
      await run(['nonsense']),
    ];
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^robotskit: /);
      expect(r.stderr).not.toContain('error:');
    }
    expect(results[0]!.stderr).toBe("robotskit: unknown option '--bogus'\n(run with --help for usage)\n");
  });

  it('decides for Googlebot when --ua is not given, and says so in help', async () => {
    for (const command of ['explain', 'check', 'batch', 'audit']) {
      const help = (await run([command, '--help'], { env: { COLUMNS: '200' } })).stdout.replace(/\s+/g, ' ');
      expect(help, command).toContain('(default: "Googlebot")');
    }
    const explained = await run(['explain', robotsFile, 'https://e.com/nogoogle', '--json']);
    expect(explained.code).toBe(1);
    expect(JSON.parse(explained.stdout).userAgents).toEqual(['Googlebot']);
  });

  it('says in test’s help that it prints nothing when piped', async () => {
    const help = (await run(['test', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('piped, the exit status is the answer');
  });
});

describe('loading', () => {
  const imports = async (argv: string[]) => {
    const result = await exec(argv, { nodeArgs: ['--import', join(here, 'fixtures/log-imports.mjs')] });
    return result.stderr
      .split('\n')
      .filter((l) => l.startsWith('import file:'))
      .map((l) => l.slice('import '.length));
  };

  it('loads no command, no engine and no HTTP client for --help', async () => {
    const loaded = await imports(['--help']);
    expect(loaded.some((u) => u.endsWith('/cli/dist/main.js'))).toBe(true);
    expect(loaded.filter((u) => /\/commands\/|\/robotskit\/dist\/|\/undici\/|\/sitemaps\/dist\//.test(u))).toEqual([]);
  });

  it('loads lint and the engine, not the HTTP client, to lint a file', async () => {
    const loaded = await imports(['lint', clean]);
    expect(loaded.some((u) => u.endsWith('/commands/lint.js'))).toBe(true);
    expect(loaded.some((u) => u.includes('/robotskit/dist/'))).toBe(true);
    expect(
      loaded.filter((u) => /\/undici\/|\/sitemaps\/dist\/|\/commands\/(check|batch|audit|sitemaps)/.test(u)),
    ).toEqual([]);
  });
});

describe('lint of several files', () => {
  it('reports per file, then the total', async () => {
    const result = await run(['lint', typo, clean]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${typo}:3:1: error:`);
    expect(result.stdout).toContain(`${typo}: 1 error, 0 warnings, 0 info\n`);
    expect(result.stdout).toContain(`${clean}: no problems found\n`);
    expect(result.stdout.endsWith('2 of 2 files linted: 1 error, 0 warnings, 0 info\n')).toBe(true);
    expect((await run(['lint', clean, clean])).code).toBe(0);
  });

  it('prints a JSON array of { file, diagnostics }', async () => {
    const result = await run(['lint', typo, clean, '--json']);
    const docs = JSON.parse(result.stdout);
    expect(docs.map((d: { file: string }) => d.file)).toEqual([typo, clean]);
    expect(docs[0].diagnostics.map((d: { code: string }) => d.code)).toEqual(['unknown-field']);
    expect(docs[1].diagnostics).toEqual([]);
  });

  it('prints one SARIF run with an artifact per file, each result pointing at its own', async () => {
    const log = JSON.parse((await run(['lint', clean, typo, '--format', 'sarif'])).stdout);
    expect(log.runs).toHaveLength(1);
    const [artifact0, artifact1] = log.runs[0].artifacts;
    expect(artifact0.location.uri).toMatch(/clean\.txt$/);
    expect(artifact1.location.uri).toMatch(/typo\.txt$/);
    expect(log.runs[0].results).toHaveLength(1);
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({
      uri: artifact1.location.uri,
      index: 1,
    });
  });

  it('says which file it cannot read, lints the others, and exits 2', async () => {
    const missing = join(dir, 'missing.txt');
    const result = await run(['lint', missing, clean]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`robotskit: cannot read robots.txt file '${missing}': no such file\n`);
    expect(result.stdout).toContain(`${clean}: no problems found\n`);
    expect(result.stdout).toContain('1 of 2 files linted: no problems found\n');
  });
});

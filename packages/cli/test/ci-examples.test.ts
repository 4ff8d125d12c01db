/**
 * The pre-commit hook definition (.pre-commit-hooks.yaml) and the CI example that uploads SARIF to GitHub code
 * scanning (docs/ci/github-code-scanning.yml): each read as its tool reads it, and its command run as the tool runs it,
 * with the `robotskit` it names replaced by this checkout's executable.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tempDir, tracked } from './cleanup.js';
import { BIN, plainEnv, type RunResult } from './helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const cliVersion = (JSON.parse(readFileSync(join(root, 'packages/cli/package.json'), 'utf8')) as { version: string })
  .version;

const BROKEN = 'User-agent: *\nAlow: /private\nSitemap: https://a.invalid/s.xml\n';
const CLEAN = 'User-agent: *\nDisallow: /private\nSitemap: https://a.invalid/s.xml\n';

function sh(command: string, cwd: string, env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    const options = { cwd, encoding: 'utf8' as const, env: plainEnv(env) };
    tracked(
      execFile('bash', ['-c', command], options, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 2) : 0, stdout, stderr });
      }),
    );
  });
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const robotskit = `${quote(process.execPath)} ${quote(BIN)}`;

interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
  pass_filenames?: boolean;
  additional_dependencies?: string[];
}

describe('.pre-commit-hooks.yaml', () => {
  const hooks = parse(readFileSync(join(root, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
  const hook = hooks.find((h) => h.id === 'robotskit-lint')!;

  it('defines robotskit-lint: the published command, on robots.txt files', () => {
    expect(hook).toMatchObject({ name: expect.any(String), entry: 'robotskit lint', language: 'node' });
    expect(hook.additional_dependencies).toEqual([`robotskit-cli@${cliVersion}`]);
    expect(hook.pass_filenames ?? true).toBe(true);
    const files = new RegExp(hook.files);
    for (const path of ['robots.txt', 'public/robots.txt', 'site/static/robots.txt']) expect(path).toMatch(files);
    for (const path of ['robots.txt.bak', 'notrobots.txt', 'robots.md']) expect(path).not.toMatch(files);
  });

  it('fails the commit on a broken robots.txt, naming it, and passes clean ones', async () => {
    const repo = tempDir('pre-commit');
    mkdirSync(join(repo, 'public'));
    mkdirSync(join(repo, 'docs'));
    writeFileSync(join(repo, 'public/robots.txt'), BROKEN);
    writeFileSync(join(repo, 'docs/robots.txt'), CLEAN);
    // pre-commit runs `<entry> <args…> <staged files matching files>`.
    const entry = hook.entry.replace(/^robotskit\b/, robotskit);
    const failing = await sh(`${entry} public/robots.txt docs/robots.txt`, repo);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('public/robots.txt:2:1: error:');
    expect(failing.stdout).toContain('docs/robots.txt: no problems found');
    const passing = await sh(`${entry} docs/robots.txt`, repo);
    expect(passing).toMatchObject({ code: 0, stderr: '' });
  });
});

interface Step {
  id?: string;
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, string>;
  'continue-on-error'?: boolean;
}

describe('docs/ci/github-code-scanning.yml', () => {
  const workflow = parse(readFileSync(join(root, 'docs/ci/github-code-scanning.yml'), 'utf8')) as {
    permissions: Record<string, string>;
    env: Record<string, string>;
    jobs: Record<string, { steps: Step[] }>;
  };
  const steps = Object.values(workflow.jobs)[0]!.steps;
  const lint = steps.find((s) => s.run?.includes('robotskit lint'))!;
  const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;

  it('lints to SARIF, uploads it even when lint found problems, then fails the job', () => {
    expect(workflow.permissions['security-events']).toBe('write');
    expect(lint.run).toContain('--format sarif');
    expect(lint.run).toContain(`robotskit-cli@${cliVersion}`);
    expect(lint['continue-on-error']).toBe(true);
    const output = /> *(\S+)\s*$/.exec(lint.run!)![1];
    expect(upload.with?.sarif_file).toBe(output);
    expect(upload.if).toContain('always()');
    expect(steps.indexOf(upload)).toBeGreaterThan(steps.indexOf(lint));
    const last = steps.at(-1)!;
    expect(last.if).toBe(`steps.${lint.id}.outcome == 'failure'`);
    expect(last.run).toBe('exit 1');
  });

  it('writes a SARIF log that names the file and the problem, as code scanning reads it', async () => {
    const repo = tempDir('code-scanning');
    const file = workflow.env.ROBOTS_TXT!;
    mkdirSync(join(repo, dirname(file)), { recursive: true });
    writeFileSync(join(repo, file), BROKEN);
    const command = lint.run!.replace(/^npx .*? robotskit /, `${robotskit} `);
    expect(command).not.toBe(lint.run);
    // The job's environment, as GitHub Actions sets it for every step.
    const result = await sh(command, repo, workflow.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    const log = JSON.parse(readFileSync(join(repo, upload.with!.sarif_file!), 'utf8'));
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    // Code scanning maps results to files by relative URI.
    expect(log.runs[0].artifacts[0].location.uri).toBe(file);
    expect(log.runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'unknown-field')).toMatchObject({
      ruleId: 'unknown-field',
      level: 'error',
      locations: [{ physicalLocation: { artifactLocation: { uri: file }, region: { startLine: 2 } } }],
    });
  });
});

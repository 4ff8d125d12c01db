/**
 * The READMEs say what the command and the engine are: the command list and every command's options are read from the
 * command's own help, the number of lint codes from the engine's registry, and checked against the READMEs. The
 * published packages' READMEs link only to what a reader of the package can open (no `../` into the repository), and
 * say how to install from a clone, with the workspace packages each one needs.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LINT_RULES } from 'robotskit/lint';
import { describe, expect, it } from 'vitest';
import { run } from './helpers.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (path: string): string => readFileSync(join(root, path), 'utf8');
/** The published packages (folder under packages/); packages/web is private. */
const PUBLISHED = ['robotskit', 'sitemaps', 'stores', 'server', 'cli'];

/** The commands, as `robotskit --help` lists them. */
async function commands(): Promise<string[]> {
  const help = (await run(['--help'])).stdout;
  const commandsSection = help.slice(help.indexOf('Commands:'));
  return [...commandsSection.matchAll(/^ {2}([a-z]+) (?=\[|<)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
}

/** The long options of one command, as its help lists them (without --help). */
async function options(command: string): Promise<string[]> {
  const help = (await run([command, '--help'])).stdout;
  return [...help.matchAll(/^ {2}(?:-\w, )?(--[a-z-]+)/gm)].map((m) => m[1]!).filter((o) => o !== '--help');
}

describe('the READMEs and the command', () => {
  it('list every command: the root README shows each, and the packages table names each', async () => {
    const list = await commands();
    expect(list.length).toBeGreaterThanOrEqual(12);
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('## Command'), readme.indexOf('## Development'));
    const cliRow = readme.split('\n').find((l) => l.startsWith('| [`packages/cli`]'))!;
    for (const command of list) {
      expect(section, `README.md: npx robotskit ${command}`).toMatch(new RegExp(`^npx robotskit ${command}\\b`, 'm'));
      expect(cliRow, `README.md packages table: ${command}`).toContain(`\`${command}\``);
    }
  });

  it("give each command a row in the command's README with every option its help has", async () => {
    const readme = read('packages/cli/README.md');
    const rows = readme.split('\n').filter((l) => l.startsWith('| `robotskit '));
    const list = await commands();
    expect(rows.map((r) => /^\| `robotskit ([a-z]+)/.exec(r)![1]).sort()).toEqual([...list].sort());
    for (const command of list) {
      const row = rows.find((r) => r.startsWith(`| \`robotskit ${command} `))!;
      for (const option of await options(command)) expect(row, `${command} ${option}`).toContain(option);
    }
  });

  it('give the number of lint codes the engine has', () => {
    const count = LINT_RULES.length;
    const files = ['README.md', ...PUBLISHED.map((p) => `packages/${p}/README.md`), 'docs/lint/README.md'];
    let said = 0;
    for (const file of files) {
      const text = read(file);
      for (const m of text.matchAll(/\b(\d+) (?:lint )?codes\b|\blint codes \((\d+)\b|\bthe (\d+) codes\b/g)) {
        expect(Number(m[1] ?? m[2] ?? m[3]), `${file}: ${m[0]}`).toBe(count);
        said++;
      }
    }
    // At least the root README, the engine's and the command's say it.
    expect(said).toBeGreaterThanOrEqual(3);
  });
});

describe("the published packages' READMEs", () => {
  for (const dir of PUBLISHED) {
    it(`${dir}: link only to what opens outside the repository, and say how to install from a clone`, () => {
      const text = read(`packages/${dir}/README.md`);
      const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
      for (const target of targets) expect(target, `packages/${dir}/README.md`).toMatch(/^(https?:\/\/|#)/);
      expect(text).toContain('**From a clone**');
      // The pack line names this package and every workspace package it depends on.
      const manifest = JSON.parse(read(`packages/${dir}/package.json`)) as {
        name: string;
        dependencies?: Record<string, string>;
      };
      const folderOf = (name: string) => (name === 'robotskit' ? 'robotskit' : name.replace(/^robotskit-/, ''));
      const needed = [
        manifest.name,
        ...Object.keys(manifest.dependencies ?? {}).filter((d) => /^robotskit(-|$)/.test(d)),
      ];
      const pack = text.split('\n').find((l) => l.startsWith('npm pack '));
      expect(pack, `packages/${dir}/README.md: npm pack line`).toBeDefined();
      for (const name of needed) expect(pack, name).toContain(`-w packages/${folderOf(name)}`);
    });
  }
});

/**
 * The import picture of the command, the sitemap reader and the stores, from their sources (type imports included):
 * no circle between files; in the command, layers that only point down (the program table → commands → the shared
 * modules → the engine), and no command importing another.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGES = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** File → the files it imports (relative to `src`, `.ts`). */
function fileGraph(src: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) =>
      relative(src, normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts')))),
    );
    graph.set(relative(src, file), targets);
  }
  return graph;
}

/** Every cycle found by a depth-first search, as the files around it. */
function cycles(graph: Map<string, readonly string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

/**
 * The command's layers, lowest first: a module imports only from its own folder or from a lower layer. Top-level
 * files are their own layer (`io.ts`, `about.ts` at the bottom, `main.ts`, the program table, at the top).
 */
const CLI_LAYERS: readonly (readonly string[])[] = [
  ['io.ts', 'about.ts'],
  ['options', 'output'],
  ['transport'],
  ['crawl'],
  ['batch', 'cache', 'service', 'answers', 'logs'],
  ['mcp'],
  ['commands'],
  ['main.ts'],
];

function unitOf(file: string): string {
  return file.split(sep)[0]!;
}

function layerOf(file: string): number {
  const layer = CLI_LAYERS.findIndex((units) => units.includes(unitOf(file)));
  if (layer < 0) throw new Error(`${file} is in no layer: add its folder to CLI_LAYERS`);
  return layer;
}

describe('import picture', () => {
  it.each(['cli', 'sitemaps', 'stores'])('packages/%s/src has no circle between files', (name) => {
    expect(cycles(fileGraph(join(PACKAGES, name, 'src')))).toEqual([]);
  });

  it('finds a circle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('the command: every import points down its layers, and no command imports another', () => {
    const wrong: string[] = [];
    for (const [file, targets] of fileGraph(join(PACKAGES, 'cli', 'src'))) {
      for (const target of targets) {
        if (unitOf(file) === unitOf(target)) {
          if (unitOf(file) === 'commands') wrong.push(`${file} imports the command ${target}`);
        } else if (layerOf(target) >= layerOf(file)) wrong.push(`${file} imports ${target}, not below it`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

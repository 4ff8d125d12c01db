/**
 * The web UI's modules in layers: the API client and router at the bottom, then `components/` (what pages share, the
 * editor), `engine/` (the engine worker and its messages), `pages/`, and the shell (`app.tsx`, `routes.ts`, `main.tsx`)
 * on top. No folder imports from a folder above it, and no file imports itself back through others (type imports and
 * the route table's lazy `import()`s included).
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;
/** Folders from the bottom up. */
const LAYERS = ['components', 'engine', 'pages'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Each source file (relative to src) → the source files it imports. */
function fileGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC).map((file) => relative(SRC, file));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets: string[] = [];
    for (const match of readFileSync(join(SRC, file), 'utf8').matchAll(IMPORT)) {
      const base = relative(SRC, resolve(SRC, dirname(file), match[1]!)).replace(/\.js$/, '');
      const target = [`${base}.ts`, `${base}.tsx`].find((candidate) => files.includes(candidate));
      if (target) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Every cycle found by a depth-first search, each as the files around it. */
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

describe('web UI modules', () => {
  it('import no file back through others', () => {
    expect(cycles(fileGraph()).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'a.ts']]);
  });

  it('keep their layers: no folder imports from a folder above it', () => {
    const upward: string[] = [];
    for (const [file, targets] of fileGraph()) {
      const from = LAYERS.indexOf(file.split(sep)[0]!);
      if (from < 0) continue;
      for (const target of targets) {
        const to = LAYERS.indexOf(target.split(sep)[0]!);
        // A top-level file under a folder is the shell (app.tsx, routes.ts) unless it is one of the bottom modules.
        const shell = to < 0 && !/^(api|api-types|router)\.tsx?$/.test(target);
        if (to > from || shell) upward.push(`${file} imports ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });
});

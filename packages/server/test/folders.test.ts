/**
 * The server's folders are layers, bottom to top: `errors.ts` (the errors' base class), `net/` (the SSRF-guarded
 * fetch), `storage/` (every query), `analysis/` (what versions and rules mean), `alerts/` (detection, webhooks),
 * `worker/` (fetching in rounds), `http/` (the API), then `service.ts` and `index.ts`, the public face. No file
 * imports, even for types, from a layer above its own; and no file imports itself back through others, `index.ts`
 * included.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;
/** Bottom to top: a folder, or a file at the top of `src/`. */
const LAYERS = ['errors.ts', 'net', 'storage', 'analysis', 'alerts', 'worker', 'http', 'service.ts', 'index.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(SRC, path)] : [];
  });
}

/** File → the files it imports (paths relative to `src/`, `.ts`). */
function fileGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = [...readFileSync(join(SRC, file), 'utf8').matchAll(IMPORT)].map((match) =>
      normalize(join(dirname(file), match[1]!)).replace(/\.js$/, '.ts'),
    );
    graph.set(file, targets);
  }
  return graph;
}

/** The layer of a file: its top folder, or the file itself at the top of `src/`. */
function layerOf(file: string): string {
  return file.split(sep)[0]!;
}

/** Every cycle's files (as found by a depth-first search), or an empty list. */
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

describe('server folders', () => {
  it('know every folder and top-level file as a layer', () => {
    const layers = new Set([...fileGraph().keys()].map(layerOf));
    expect([...layers].filter((layer) => !LAYERS.includes(layer))).toEqual([]);
  });

  it('import nothing from a layer above their own', () => {
    const upward: string[] = [];
    for (const [file, targets] of fileGraph()) {
      for (const target of targets) {
        if (LAYERS.indexOf(layerOf(target)) > LAYERS.indexOf(layerOf(file))) upward.push(`${file} imports ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('have no import cycle between files, index.ts included', () => {
    const graph = fileGraph();
    expect(graph.has('index.ts')).toBe(true);
    expect(cycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });
});

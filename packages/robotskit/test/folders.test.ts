/**
 * The engine's folders follow the data flow (bytes → lines → records → groups, selection and matching → the RobotsTxt
 * facade → decisions and diagnostics): no folder imports, even for types, from a folder that imports it back, directly
 * or through others. `index.ts`, the public entry, is left out: it re-exports every folder.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The top folder of a path under src, or null for a file at the top (index.ts). */
function folderOf(path: string): string | null {
  const parts = relative(SRC, path).split(sep);
  return parts.length > 1 ? parts[0]! : null;
}

/** Folder → the folders it imports from, with one importing file and target per edge. */
function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (from === null) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = normalize(join(dirname(file), match[1]!));
      const to = folderOf(target);
      if (to === null || to === from) continue;
      graph.get(from)!.set(to, `${relative(SRC, file)} imports ${relative(SRC, target)}`);
    }
  }
  return graph;
}

/** Every cycle's folders (as found by a depth-first search), or an empty list. */
function cycles(graph: Map<string, Map<string, string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}

describe('engine folders', () => {
  it('have no import cycle between them', () => {
    const graph = folderGraph();
    const described = cycles(graph).map((cycle) =>
      cycle
        .slice(1)
        .map((to, i) => graph.get(cycle[i]!)!.get(to)!)
        .join('; '),
    );
    expect(described).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a/x.ts imports b/y.ts']])],
      ['b', new Map([['a', 'b/y.ts imports a/x.ts']])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'a']]);
  });

  it('keep the data flow: the lower layers import nothing above them', () => {
    const graph = folderGraph();
    const order = ['url', 'parse', 'crawlers', 'model', 'match', 'robots-txt'];
    for (const [i, folder] of order.entries()) {
      const above = [...(graph.get(folder)?.keys() ?? [])].filter((to) => !order.slice(0, i).includes(to));
      expect(above, `${folder} imports from a folder above it`).toEqual([]);
    }
  });
});

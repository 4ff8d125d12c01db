/**
 * `fetch/` is built in stages, each a folder, layered bottom to top: `shared/` (the data types and small utilities
 * every stage uses) ← `transport/` (HTTP GET, redirects, deadlines, bodies, error classification, FTP types) and
 * `store/` (the `RobotsStore` interface, the memory store) ← `retrieval/` (one robots.txt fetch, its JSON, its words)
 * ← `policy/` (what a fetch history means over time) ← `client/` (the crawl client); beside those two, over
 * `retrieval/`, `access/` (the access check: what the edge serves each crawler against its robots.txt). A stage imports, even for types,
 * only from the stages below it; no file of `fetch/` imports another in a circle; only `index.ts`, the entry, sits at
 * the top of `fetch/`, and no stage imports it.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const FETCH = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'fetch');
const IMPORT = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;
/** Bottom to top; a stage may import from those before it in this list. */
const STAGES = ['shared', 'transport', 'store', 'retrieval', 'policy', 'client', 'access'];
/** Stages that do not depend on each other although one is listed before the other. */
const SIDE_BY_SIDE = [
  ['transport', 'store'],
  ['policy', 'access'],
  ['client', 'access'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** File (relative to `fetch/`) → the files of `fetch/` it imports (type imports included). */
function fileGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(FETCH)) {
    const targets: string[] = [];
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = relative(FETCH, normalize(join(dirname(file), match[1]!.replace(/\.js$/, '.ts'))));
      if (!target.startsWith('..')) targets.push(target.split(sep).join('/'));
    }
    graph.set(relative(FETCH, file).split(sep).join('/'), targets);
  }
  return graph;
}

/** The stage of a file of `fetch/` (its folder), or null for a file at the top. */
function stageOf(file: string): string | null {
  const parts = file.split('/');
  return parts.length > 1 ? parts[0]! : null;
}

/** Every cycle (as a depth-first search finds them) of a graph given as node → nodes, or an empty list. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
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

/** Stage → the stages it imports from, each with one "file imports file" that shows it. */
function stageEdges(files: ReadonlyMap<string, readonly string[]>): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, targets] of files) {
    const from = stageOf(file);
    if (from === null) continue;
    for (const target of targets) {
      const to = stageOf(target) ?? target;
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      edges.get(from)!.set(to, `${file} imports ${target}`);
    }
  }
  return edges;
}

describe('the stages of fetch/', () => {
  const files = fileGraph();
  const edges = stageEdges(files);

  it('are the folders named here, with only the entry at the top', () => {
    expect(new Set([...files.keys()].map((file) => stageOf(file) ?? file))).toEqual(new Set([...STAGES, 'index.ts']));
  });

  it('import only from the stages below them, never from the entry', () => {
    const wrong: string[] = [];
    for (const [from, targets] of edges) {
      const below = STAGES.slice(0, STAGES.indexOf(from));
      for (const [to, example] of targets) {
        const apart = SIDE_BY_SIDE.some((pair) => pair.includes(from) && pair.includes(to));
        if (!below.includes(to) || apart) wrong.push(example);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('have no import cycle between them, nor between their files', () => {
    const stageGraph = new Map([...edges].map(([from, targets]) => [from, [...targets.keys()]]));
    expect(cycles(stageGraph)).toEqual([]);
    expect(cycles(files)).toEqual([]);
  });

  it('a cycle is found when there is one', () => {
    const graph = new Map([
      ['policy/a.ts', ['client/b.ts']],
      ['client/b.ts', ['policy/a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['client/b.ts', 'policy/a.ts', 'client/b.ts']]);
    expect(stageEdges(graph).get('policy')?.get('client')).toBe('policy/a.ts imports client/b.ts');
  });
});

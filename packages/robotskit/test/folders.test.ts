/**
 * The engine's import picture, read from the source's own import lines (type imports included):
 *
 * - the entries (`src/index.ts` and the subpath entries package.json exports, such as `src/lint/index.ts`) are faces
 *   for users: no module of the engine imports one, not even another entry;
 * - folders follow the data flow (bytes → lines → records → groups, selection and matching → the RobotsTxt facade →
 *   decisions and diagnostics): no folder imports from a folder that imports it back, directly or through others, and
 *   the top-level `index.ts` counts as a folder of its own;
 * - no file imports itself back through others, anywhere in the engine.
 *
 * Each check runs on the real sources and on small planted trees that it must reject.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(PACKAGE, 'src');
/** A relative module specifier in an import, export, `import type`, `import('…')` or side-effect import. */
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*(['"])(\.{1,2}\/[^'"]+)\1/g;

/** Source files by path relative to `src`, with `/` separators. */
type Sources = ReadonlyMap<string, string>;

function readSources(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts'))
        found.set(relative(dir, path).split(sep).join('/'), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return found;
}

/** The entries: the source of every `dist/…/index.js` that package.json exports. */
function entriesOfPackage(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default?: string }>;
  };
  const entries = new Set<string>();
  for (const target of Object.values(manifest.exports)) {
    const file = typeof target === 'string' ? target : target.default;
    const match = file?.match(/^\.\/dist\/(.+)\.js$/);
    if (match) entries.add(`${match[1]}.ts`);
  }
  return entries;
}

/** File → the files it imports (resolved, `.js` read as `.ts`), in the order written. */
function fileGraph(sources: Sources): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const [file, text] of sources) {
    const targets = new Set<string>();
    for (const match of text.matchAll(IMPORT)) {
      targets.add(posix.normalize(posix.join(posix.dirname(file), match[2]!)).replace(/\.js$/, '.ts'));
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** Every import of an entry, as `importer imports entry`. */
function entryImports(graph: ReadonlyMap<string, readonly string[]>, entries: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph)
    for (const to of targets) if (entries.has(to)) found.push(`${file} imports ${to}`);
  return found;
}

/** The folder of a file under src: its top folder, or the file itself at the top (`index.ts`). */
function folderOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? file : file.slice(0, slash);
}

/** Folder → the folders it imports from, with one importing file and target per edge. */
function folderGraph(graph: ReadonlyMap<string, readonly string[]>): Map<string, Map<string, string>> {
  const folders = new Map<string, Map<string, string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!folders.has(from)) folders.set(from, new Map());
    for (const target of targets) {
      const to = folderOf(target);
      if (to !== from) folders.get(from)!.set(to, `${file} imports ${target}`);
    }
  }
  return folders;
}

/** Every cycle's nodes (as found by a depth-first search, first node repeated at the end), or an empty list. */
function cycles(graph: ReadonlyMap<string, Iterable<string>>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
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

/** The folder cycles, each described by the imports that close it. */
function folderCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const folders = folderGraph(graph);
  const asNodes = new Map([...folders].map(([folder, edges]) => [folder, edges.keys()]));
  return cycles(asNodes).map((cycle) =>
    cycle
      .slice(1)
      .map((to, i) => folders.get(cycle[i]!)!.get(to)!)
      .join('; '),
  );
}

/** The file cycles, each as the files in import order. */
function fileCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  return cycles(graph).map((cycle) => cycle.join(' → '));
}

const sources = readSources(SRC);
const real = fileGraph(sources);
const entries = entriesOfPackage();

describe('engine entries', () => {
  it('are the main entry and the subpath entries, all present', () => {
    expect([...entries].sort()).toEqual([
      'fetch/index.ts',
      'index.ts',
      'lint/index.ts',
      'logs/index.ts',
      'meta/index.ts',
      'semantics/index.ts',
      'testing/index.ts',
    ]);
    for (const entry of entries) expect(sources.has(entry), entry).toBe(true);
  });

  it('are imported by no module of the engine', () => {
    expect(entryImports(real, entries)).toEqual([]);
  });

  it('a planted import of an entry is found, by a module or by another entry', () => {
    const planted = fileGraph(
      new Map([
        ['index.ts', "export { a } from './a/x.js';"],
        ['a/x.ts', "import type { B } from '../index.js';\nexport const a = 1;"],
        ['b/index.ts', "export * from '../index.js';"],
      ]),
    );
    expect(entryImports(planted, new Set(['index.ts', 'b/index.ts']))).toEqual([
      'a/x.ts imports index.ts',
      'b/index.ts imports index.ts',
    ]);
  });
});

describe('engine folders', () => {
  it('have no import cycle between them, index.ts included', () => {
    expect(folderCycles(real)).toEqual([]);
  });

  it('a planted folder cycle is found, through a type import too', () => {
    const planted = fileGraph(
      new Map([
        ['a/x.ts', "import { y } from '../b/y.js';"],
        ['b/y.ts', "import type { Z } from '../a/z.js';"],
        ['a/z.ts', ''],
      ]),
    );
    expect(folderCycles(planted)).toEqual(['a/x.ts imports b/y.ts; b/y.ts imports a/z.ts']);
    expect(fileCycles(planted)).toEqual([]);
  });

  it('keep the data flow: the lower layers import nothing above them', () => {
    const graph = folderGraph(real);
    const order = ['url', 'parse', 'crawlers', 'model', 'match', 'usage', 'robots-txt'];
    for (const [i, folder] of order.entries()) {
      const above = [...(graph.get(folder)?.keys() ?? [])].filter((to) => !order.slice(0, i).includes(to));
      expect(above, `${folder} imports from a folder above it`).toEqual([]);
    }
  });
});

describe('engine files', () => {
  it('have no import cycle, anywhere in the engine', () => {
    expect(real.size).toBeGreaterThan(100);
    expect(fileCycles(real)).toEqual([]);
  });

  it('a planted file cycle is found, inside one folder and through a type import', () => {
    const planted = fileGraph(
      new Map([
        ['lint/types.ts', "import type * as rules from './rules/index.js';"],
        ['lint/rules/index.ts', "export { one } from './one.js';"],
        ['lint/rules/one.ts', "import { defineRule } from '../rule.js';"],
        ['lint/rule.ts', "import type {\n  Fix,\n} from './types.js';"],
      ]),
    );
    expect(fileCycles(planted)).toEqual([
      'lint/rule.ts → lint/types.ts → lint/rules/index.ts → lint/rules/one.ts → lint/rule.ts',
    ]);
    expect(folderCycles(planted)).toEqual([]);
  });
});

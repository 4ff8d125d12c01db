/**
 * What `parseRobotsTxt` pulls in: the crawler catalogue (about 60 KB of data) loads only where profiles are used, so
 * an application that only parses and checks does not ship it. Follows the engine's runtime imports (type-only imports
 * are erased by the compiler) from the module that defines `parseRobotsTxt`.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Relative modules a source file imports at runtime (not `import type`, not `export type`). */
function runtimeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)';/gms)) {
    if (m[2] !== undefined) continue;
    found.push(resolve(dirname(file), m[3]!.replace(/\.js$/, '.ts')));
  }
  for (const m of text.matchAll(/^import\s+'(\.[^']+)';/gm))
    found.push(resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
  return found;
}

function reachable(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    todo.push(...runtimeImports(file));
  }
  return new Set([...seen].map((f) => relative(src, f)));
}

describe('module graph', () => {
  it('parseRobotsTxt does not load the crawler catalogue', () => {
    const modules = reachable(join(src, 'robots-txt/robots-txt.ts'));
    expect(modules.has('parse/lines.ts')).toBe(true); // the walk follows imports
    expect(modules.has('crawlers/catalogue.ts')).toBe(false);
    expect(modules.has('crawlers/ai-robots-txt.generated.ts')).toBe(false);
  });

  it('the catalogue is where profiles are', () => {
    expect(reachable(join(src, 'crawlers/catalogue.ts')).has('crawlers/ai-robots-txt.generated.ts')).toBe(true);
  });
});

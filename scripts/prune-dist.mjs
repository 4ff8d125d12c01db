/**
 * After `tsc -b`: removes from each package's `dist/` the outputs whose source is gone (a module moved or deleted).
 * `tsc -b` writes outputs but never deletes them, and `npm pack` ships whatever `dist/` holds, so without this a
 * local build would keep publishing modules that no longer exist. The UI's `dist/web/` (built by Vite) is left alone.
 */

import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const OUTPUT = /\.(d\.ts\.map|d\.ts|js\.map|js)$/;

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

let removed = 0;
for (const name of readdirSync(join(root, 'packages'))) {
  const dist = join(root, 'packages', name, 'dist');
  const src = join(root, 'packages', name, 'src');
  if (!existsSync(dist) || !existsSync(src)) continue;
  for (const file of walk(dist)) {
    const rel = relative(dist, file);
    if (rel.startsWith('web/') || !OUTPUT.test(rel)) continue;
    const stem = rel.replace(OUTPUT, '');
    if (['.ts', '.tsx', '.mts'].some((ext) => existsSync(join(src, stem + ext)))) continue;
    rmSync(file);
    removed++;
  }
  // Folders left empty by the removals.
  for (const dir of walk(dist).length === 0 ? [] : listDirs(dist).reverse()) {
    if (readdirSync(dir).length === 0) rmSync(dir, { recursive: true });
  }
}
if (removed > 0) console.log(`prune-dist: removed ${removed} output(s) whose source is gone`);

function listDirs(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(dir, entry.name), ...listDirs(join(dir, entry.name))])
    .filter((path) => statSync(path).isDirectory());
}

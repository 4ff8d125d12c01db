/**
 * Builds the web UI into `packages/server/dist/web/`, which the service serves (`packages/server/src/http/web-ui.ts`)
 * and ships in its tarball. The engine is
 * imported from the workspace (`robotskit` → `packages/robotskit/dist/`, built by `tsc -b` first).
 * `npm run dev:web` serves it with hot reload and forwards `/api` to a service on 127.0.0.1:8787 (`npm start`).
 */

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';

const outDir = fileURLToPath(new URL('../server/dist/web', import.meta.url));

/**
 * Writes `.br` and `.gz` next to every text asset, once at build time; the service sends them to browsers that
 * accept them (`@fastify/static`'s `preCompressed`), so nothing is compressed per request.
 */
function precompress(): Plugin {
  return {
    name: 'robotskit-precompress',
    apply: 'build',
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./src', import.meta.url)),
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: true,
  },
  worker: { format: 'es' },
  server: { proxy: { '/api': 'http://127.0.0.1:8787' } },
});

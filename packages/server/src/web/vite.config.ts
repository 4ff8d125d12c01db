/**
 * Builds the web UI into `packages/server/dist/web/`, which the service serves (`src/api/web-ui.ts`). The engine is
 * imported from the workspace (`robotskit` → `packages/robotskit/dist/`, built by `tsc -b` first).
 * `npm run dev:web` serves it with hot reload and forwards `/api` to a service on 127.0.0.1:8787 (`npm start`).
 */

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: true,
  },
  worker: { format: 'es' },
  server: { proxy: { '/api': 'http://127.0.0.1:8787' } },
});

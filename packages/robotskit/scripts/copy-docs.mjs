// Run by `npm pack` / `npm publish` (prepack): copies the lint documentation (docs/lint/ at the repository root) into
// the package, so every diagnostic's `docs` link has its page in the published tarball.
import { cpSync, rmSync } from 'node:fs';

const from = new URL('../../../docs/lint/', import.meta.url);
const to = new URL('../docs/lint/', import.meta.url);
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });

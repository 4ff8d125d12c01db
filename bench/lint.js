/**
 * Lint benchmark (issue 3, section 1): lints every robots.txt of the shared corpus, as the bytes that were served,
 * and prints the time it takes and which codes the real world gets.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINT_RULES, lint } from 'robotskit/lint';
import { corpusDir, fmt, measure, table, timeOnce } from './harness.js';

export function runLintBench() {
  const dir = join(corpusDir(), 'robots');
  const files = readdirSync(dir)
    .sort()
    .map((name) => new Uint8Array(readFileSync(join(dir, name))));
  const totalBytes = files.reduce((n, f) => n + f.length, 0);

  const lintAll = () => {
    let n = 0;
    for (const f of files) n += lint(f).length;
    return n;
  };
  const cold = timeOnce(lintAll);
  const warm = measure(lintAll, { rounds: 9, warmup: 2 });

  const byCode = new Map();
  let total = 0;
  let withErrors = 0;
  for (const f of files) {
    const seen = new Set();
    let error = false;
    for (const d of lint(f)) {
      total++;
      if (d.severity === 'error') error = true;
      let entry = byCode.get(d.code);
      if (entry === undefined) {
        entry = { files: 0, diagnostics: 0 };
        byCode.set(d.code, entry);
      }
      entry.diagnostics++;
      if (!seen.has(d.code)) {
        seen.add(d.code);
        entry.files++;
      }
    }
    if (error) withErrors++;
  }
  const severity = new Map(LINT_RULES.map((r) => [r.code, r.severity]));

  table(
    `lint the corpus: ${files.length} files, ${fmt(totalBytes / 1e6, 2)} MB, ${LINT_RULES.length} rules`,
    ['measure', 'value'],
    [
      ['first run, cold JIT (ms)', fmt(cold, 0)],
      ['median of 9 runs (ms)', fmt(warm, 0)],
      ['per file, median run (µs)', fmt((warm * 1000) / files.length, 0)],
      ['diagnostics', total],
      ['files with at least one error', withErrors],
      ['codes seen', byCode.size],
    ],
  );
  const rows = [...byCode]
    .sort((a, b) => b[1].files - a[1].files || b[1].diagnostics - a[1].diagnostics)
    .slice(0, 20)
    .map(([code, e]) => [code, severity.get(code), e.files, e.diagnostics]);
  table('top 20 codes over the corpus (by number of files)', ['code', 'severity', 'files', 'diagnostics'], rows);
}

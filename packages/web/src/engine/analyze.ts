/**
 * What the worker computes, with the engine. A {@link FileAnalysis} holds one text parsed in both readings, with its
 * lint diagnostics and dialect differences computed once on demand, so changing only the URLs, the crawlers or the
 * reading reuses them; {@link verdictsOf} answers the URL and crawler questions against it. Plain functions of their
 * input, separate from the worker wrapper.
 */

import {
  ANY_CRAWLER,
  CRAWLERS,
  dialectDifferences,
  type Explanation,
  parseRobotsTxt,
  type ResolvedCrawler,
  type RobotsTxt,
  resolveCrawler,
} from 'robotskit';
import { LINT_DOCS_BASE, lint } from 'robotskit/lint';
import type { EditorDiagnostic } from '../components/editor-diagnostic.js';
import { showStoredLint } from '../components/stored-lint.js';
import {
  type AnalysisRequest,
  type DifferenceRow,
  MATRIX_MAX_URLS,
  type MatrixRow,
  type Verdict,
  type VerdictRow,
} from './protocol.js';

function verdictOf(explanation: Explanation): Verdict {
  return {
    allowed: explanation.allowed,
    line: explanation.line,
    rule: explanation.rule ? `${explanation.rule.kind}: ${explanation.rule.pattern}` : null,
    groups: explanation.groups,
    token: explanation.crawler ? explanation.crawler.token : explanation.userAgent,
  };
}

function summary(crawlers: readonly ResolvedCrawler[]): string {
  if (crawlers.length === 0) return 'No crawler: the * group applies.';
  if (crawlers.length === 1) {
    const { profile } = crawlers[0]!;
    if (profile === null) {
      return crawlers[0]!.input === ANY_CRAWLER
        ? 'Any crawler: only the * group applies.'
        : 'Not in the catalogue: matched as a product token.';
    }
    const ignores = profile.ignoresGlobalGroup ? ' · ignores the * group' : '';
    return `${profile.operator} · follows ${profile.tokens.join(' → ')}${ignores}.`;
  }
  const known = crawlers.filter((c) => c.profile !== null).length;
  const tokens = crawlers.length - known;
  const asTokens = tokens === 1 ? '1 matched as a product token' : `${tokens} matched as product tokens`;
  return `${crawlers.length} crawlers: ${known} from the catalogue${tokens > 0 ? `, ${asTokens}` : ''}.`;
}

/** Whether two byte arrays hold the same bytes (a request's bytes and an analysis's). */
export function sameBytes(a: Uint8Array | null | undefined, b: Uint8Array | null | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

let serials = 0;

/** One text, parsed in both readings; diagnostics and differences computed on first use. */
export class FileAnalysis {
  /** Tells texts apart in answers (1, 2, 3… per worker). */
  readonly serial = ++serials;
  readonly google: RobotsTxt;
  readonly legacy: RobotsTxt;
  /** Milliseconds spent parsing (both readings). */
  readonly parseMs: number;
  /** Milliseconds spent linting and finding differences, once they are computed. */
  lintMs = 0;
  private lintResult: EditorDiagnostic[] | null = null;
  private differenceResult: DifferenceRow[] | null = null;

  /**
   * `text` is what the editor shows; `bytes`, when given, are the file's exact bytes and what is parsed (the engine
   * decides on bytes), with diagnostics placed on `text` by their line and byte column.
   */
  constructor(
    readonly text: string,
    readonly bytes: Uint8Array | null = null,
  ) {
    const started = performance.now();
    this.google = parseRobotsTxt(bytes ?? text);
    this.legacy = this.google.inDialect('legacy');
    this.parseMs = performance.now() - started;
  }

  /** Whether diagnostics and differences are computed already. */
  get complete(): boolean {
    return this.lintResult !== null && this.differenceResult !== null;
  }

  get diagnostics(): EditorDiagnostic[] {
    if (this.lintResult !== null) return this.lintResult;
    const started = performance.now();
    const found = lint(this.google);
    this.lintResult =
      this.bytes !== null
        ? [
            ...showStoredLint(
              this.bytes,
              found.map((d) => ({ ...d, fix: null })),
              LINT_DOCS_BASE,
            ).diagnostics,
          ]
        : found.map((d) => ({
            from: d.range.start,
            to: d.range.end,
            line: d.line,
            severity: d.severity,
            code: d.code,
            message: d.message,
            docs: `${LINT_DOCS_BASE}${d.code}.md`,
          }));
    this.lintMs += performance.now() - started;
    return this.lintResult;
  }

  get differences(): DifferenceRow[] {
    if (this.differenceResult !== null) return this.differenceResult;
    const started = performance.now();
    this.differenceResult = dialectDifferences(this.google).map((d) => ({
      kind: d.kind,
      line: d.line,
      lines: d.lines,
      google: d.google,
      legacy: d.legacy,
    }));
    this.lintMs += performance.now() - started;
    return this.differenceResult;
  }
}

/** One row per URL and crawler in the chosen reading (with the other reading's verdict), and the matrix if asked. */
export function verdictsOf(
  file: FileAnalysis,
  request: Omit<AnalysisRequest, 'id' | 'text'>,
): { rows: VerdictRow[]; matrix: MatrixRow[] | null; crawlerSummary: string; crawlerNotes: string[] } {
  const chosen = request.dialect === 'legacy' ? file.legacy : file.google;
  const other = request.dialect === 'legacy' ? file.google : file.legacy;
  // Names as typed, read by the engine's one rule; none asks for the `*` group alone.
  const named = request.crawlers.map((name) => resolveCrawler(name));
  const star = resolveCrawler(ANY_CRAWLER);
  const rows: VerdictRow[] = [];
  for (const url of request.urls) {
    for (const { input, label } of named.length > 0 ? named : [star]) {
      const explanation = chosen.explain(url, input);
      rows.push({
        url,
        path: explanation.path,
        crawler: label,
        verdict: verdictOf(explanation),
        other: verdictOf(other.explain(url, input)),
      });
    }
  }

  let matrix: MatrixRow[] | null = null;
  if (request.matrix) {
    const columns = request.urls.slice(0, MATRIX_MAX_URLS).map((url) => chosen.crawlerMatrix(url, CRAWLERS));
    matrix = CRAWLERS.map((crawler, i) => ({
      crawler: crawler.name,
      operator: crawler.operator,
      kind: crawler.kind,
      cells: columns.map((column) => {
        const cell = column[i]!;
        return { allowed: cell.allowed, line: cell.line, groups: cell.groups };
      }),
    }));
  }
  return {
    rows,
    matrix,
    crawlerSummary: summary(named),
    // Which name was used whenever the engine rewrote the one typed.
    crawlerNotes: named.flatMap((c) => (c.rewrite === null ? [] : [`${c.rewrite}.`])),
  };
}

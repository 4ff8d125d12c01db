/**
 * What the worker computes, with the engine. A {@link FileAnalysis} holds one text parsed in both readings, with its
 * lint diagnostics and dialect differences computed once on demand, so changing only the URLs, the crawlers or the
 * reading reuses them; {@link verdictsOf} answers the URL and crawler questions against it. Plain functions of their
 * input, separate from the worker wrapper.
 */

import {
  AI_PURPOSES,
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
  type PurposeChoice,
  type PurposeRow,
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
      if (crawlers[0]!.input === ANY_CRAWLER) return 'Any crawler: only the * group applies.';
      const { suggestion } = crawlers[0]!;
      return `Not in the catalogue: matched as a product token.${suggestion === null ? '' : ` Did you mean ${suggestion}?`}`;
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

/** One text, parsed in both readings; diagnostics and differences computed on first use. */
export class FileAnalysis {
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

/**
 * For each URL (the first {@link MATRIX_MAX_URLS}), the catalogue crawlers of `purpose` in sets that get the same
 * answer: verdict, deciding line and group, usage preferences (the engine's `explain`, crawler by crawler).
 */
function purposeRowsOf(robots: RobotsTxt, urls: readonly string[], purpose: PurposeChoice): PurposeRow[] {
  const members = CRAWLERS.filter((c) => (purpose === 'ai' ? AI_PURPOSES.includes(c.purpose) : c.purpose === purpose));
  const rows: PurposeRow[] = [];
  for (const url of urls.slice(0, MATRIX_MAX_URLS)) {
    const sets = new Map<string, { row: PurposeRow; crawlers: string[] }>();
    for (const crawler of members) {
      const explanation = robots.explain(url, crawler);
      const verdict = verdictOf(explanation);
      const usage = explanation.usage ?? null;
      const key = JSON.stringify([verdict.allowed, verdict.line, verdict.groups, usage]);
      let set = sets.get(key);
      if (set === undefined) {
        const crawlers: string[] = [];
        set = { row: { url, path: explanation.path, crawlers, verdict, usage }, crawlers };
        sets.set(key, set);
      }
      set.crawlers.push(crawler.name);
    }
    for (const { row } of sets.values()) rows.push(row);
  }
  return rows;
}

/** One row per URL and crawler in the chosen reading (with the other reading's verdict), and the matrix if asked. */
export function verdictsOf(
  file: FileAnalysis,
  request: Omit<AnalysisRequest, 'id' | 'text'>,
): {
  rows: VerdictRow[];
  matrix: MatrixRow[] | null;
  purposeRows: PurposeRow[] | null;
  crawlerSummary: string;
  crawlerNotes: string[];
} {
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
        usage: explanation.usage ?? null,
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
  const purpose = request.purpose ?? null;
  return {
    rows,
    matrix,
    purposeRows: purpose === null ? null : purposeRowsOf(chosen, request.urls, purpose),
    crawlerSummary: summary(named),
    // Which name was used whenever the engine rewrote the one typed.
    crawlerNotes: named.flatMap((c) => (c.rewrite === null ? [] : [`${c.rewrite}.`])),
  };
}

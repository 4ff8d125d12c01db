/**
 * What the worker computes, with the engine. A {@link FileAnalysis} holds one text parsed in both readings, with its
 * lint diagnostics and dialect differences computed once on demand, so changing only the URLs, the crawlers or the
 * reading reuses them; {@link verdictsOf} answers the URL and crawler questions against it. Plain functions of their
 * input, separate from the worker wrapper.
 */

import {
  CRAWLERS,
  type CrawlerInput,
  crawlerByName,
  dialectDifferences,
  type Explanation,
  isValidProductToken,
  LINT_DOCS_BASE,
  lint,
  parseRobotsTxt,
  type RobotsTxt,
} from 'robotskit';
import {
  type AnalysisRequest,
  type CrawlerChoice,
  type DifferenceRow,
  type EditorDiagnostic,
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

function crawlerInput(choice: CrawlerChoice): { input: CrawlerInput; label: string; note: string | null } {
  if (choice.kind === 'profile') {
    const profile = crawlerByName(choice.name);
    if (profile) return { input: profile, label: profile.name, note: null };
    return { input: choice.name, label: choice.name, note: null };
  }
  const token = choice.token.trim();
  if (token === '') return { input: '*', label: '*', note: 'No crawler given: showing what the * group says.' };
  const note = isValidProductToken(token)
    ? null
    : `"${token}" is not a product token (letters, "-" and "_" only); Google's parser reads only its leading token.`;
  return { input: token, label: token, note };
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

  constructor(readonly text: string) {
    const started = performance.now();
    this.google = parseRobotsTxt(text);
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
    this.lintResult = lint(this.google).map((d) => ({
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
): { rows: VerdictRow[]; matrix: MatrixRow[] | null; crawlerNotes: string[] } {
  const chosen = request.dialect === 'legacy' ? file.legacy : file.google;
  const other = request.dialect === 'legacy' ? file.google : file.legacy;
  const crawlers = (request.crawlers.length > 0 ? request.crawlers : [{ kind: 'token', token: '' } as const]).map(
    crawlerInput,
  );
  const rows: VerdictRow[] = [];
  for (const url of request.urls) {
    for (const { input, label } of crawlers) {
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
  return { rows, matrix, crawlerNotes: crawlers.flatMap((c) => (c.note === null ? [] : [c.note])) };
}

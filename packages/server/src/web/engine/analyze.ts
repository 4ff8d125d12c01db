/**
 * What the worker computes for one request, with the engine: lint diagnostics, one verdict per URL for the chosen
 * crawler in both readings, the every-crawler matrix on demand, and the dialect differences. Separate from the worker
 * wrapper so it stays a plain function of its input.
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
  type AnalysisResult,
  type CrawlerChoice,
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

/** Runs one request. */
export function analyze(request: AnalysisRequest): AnalysisResult {
  const started = performance.now();
  const google = parseRobotsTxt(request.text);
  const legacy: RobotsTxt = google.inDialect('legacy');
  const chosen = request.dialect === 'legacy' ? legacy : google;
  const other = request.dialect === 'legacy' ? google : legacy;

  const diagnostics: EditorDiagnostic[] = lint(google).map((d) => ({
    from: d.range.start,
    to: d.range.end,
    line: d.line,
    severity: d.severity,
    code: d.code,
    message: d.message,
    docs: `${LINT_DOCS_BASE}${d.code}.md`,
  }));

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

  const differences = dialectDifferences(google).map((d) => ({
    kind: d.kind,
    line: d.line,
    lines: d.lines,
    google: d.google,
    legacy: d.legacy,
  }));

  return {
    id: request.id,
    diagnostics,
    rows,
    matrix,
    differences,
    crawlerNotes: crawlers.flatMap((c) => (c.note === null ? [] : [c.note])),
    stats: { bytes: google.size, groups: google.groups.length, ms: performance.now() - started },
  };
}

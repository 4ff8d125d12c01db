/**
 * Messages between the tester and its engine worker. Everything is plain data (structured clone): the worker parses,
 * lints and answers; the page only renders.
 */

import type {
  CrawlerKind,
  CrawlerPurpose,
  DialectDifferenceKind,
  DialectName,
  GroupMatch,
  UsageAnswer,
} from 'robotskit';
import type { EditorDiagnostic } from '../components/editor-diagnostic.js';

/** The matrix covers at most this many URLs (the first ones): 180 crawlers × more URLs is no longer readable. */
export const MATRIX_MAX_URLS = 25;

/** What the page asks the worker: a text (or its bytes) and the questions about it. */
export interface AnalysisRequest {
  /** Increasing; the page ignores answers older than its newest request. */
  readonly id: number;
  /** Increasing with each new text (or bytes): answers about the same text carry the same number from both workers. */
  readonly textId: number;
  readonly text: string;
  /**
   * The file's exact bytes while `text` is only their display (loaded live or from a stored version, not edited
   * since): the engine decides on them, as a crawler does. Null or absent: the text is the file.
   */
  readonly bytes?: Uint8Array | null;
  readonly urls: readonly string[];
  /**
   * The crawlers to give verdicts for (one row per URL and crawler), as typed, read by the engine's `resolveCrawler`
   * (a catalogue name selects that crawler's profile; a User-Agent string, the crawler it names). None: the `*` group.
   */
  readonly crawlers: readonly string[];
  readonly dialect: DialectName;
  /** Compute the every-crawler matrix (only while it is shown). */
  readonly matrix: boolean;
  /**
   * The purpose whose catalogue crawlers the "By purpose" view shows (`ai`: every AI purpose), only while it is
   * shown; null or absent: none.
   */
  readonly purpose?: PurposeChoice | null;
}

/** A purpose of the catalogue, or `ai` for every AI purpose (the engine's `AI_PURPOSES`). */
export type PurposeChoice = CrawlerPurpose | 'ai';

/**
 * The catalogue crawlers of the chosen purpose that get the same answer for one URL (verdict, deciding line, usage
 * preferences): one row of the "By purpose" view.
 */
export interface PurposeRow {
  readonly url: string;
  readonly path: string;
  /** Catalogue names, in catalogue order. */
  readonly crawlers: readonly string[];
  readonly verdict: Verdict;
  /** As in {@link VerdictRow.usage}. */
  readonly usage: UsageAnswer | null;
}

/** A verdict in one reading. */
export interface Verdict {
  readonly allowed: boolean;
  /** 1-based line of the deciding rule, 0 when no rule decided. */
  readonly line: number;
  /** `disallow: /private` as written in the model, null when no rule decided. */
  readonly rule: string | null;
  /** Which groups applied: `specific`, `global` or `none`. */
  readonly groups: GroupMatch;
  /** The token whose groups applied (profiles), or the token matched. */
  readonly token: string | null;
}

/** One URL for the chosen crawler: the verdict in the chosen reading, and the other reading's for comparison. */
export interface VerdictRow {
  readonly url: string;
  /** The path and query that were matched. */
  readonly path: string;
  readonly crawler: string;
  readonly verdict: Verdict;
  /** The same question in the other dialect. */
  readonly other: Verdict;
  /**
   * The AI usage preferences that apply in the chosen reading (the engine's `usage`: Content-Usage, Content-Signal);
   * null when no group of the file has a usage line.
   */
  readonly usage: UsageAnswer | null;
}

/** One catalogue crawler against each URL (the "All crawlers" tab). */
export interface MatrixRow {
  readonly crawler: string;
  readonly operator: string;
  readonly kind: CrawlerKind;
  /** One per URL of the request (at most {@link MATRIX_MAX_URLS}), in order. */
  readonly cells: readonly { readonly allowed: boolean; readonly line: number; readonly groups: GroupMatch }[];
}

/** Where the 1994 reading and Google's differ, for the differences list. */
export interface DifferenceRow {
  readonly kind: DialectDifferenceKind;
  readonly line: number;
  readonly lines: readonly number[];
  readonly google: string;
  readonly legacy: string;
}

/** What depends on the URLs and crawlers: sent first, as soon as the file is parsed. */
export interface VerdictsAnswer {
  readonly type: 'verdicts';
  readonly id: number;
  /** Which text these verdicts were computed on (increases when the text changes). */
  readonly textSerial: number;
  readonly rows: readonly VerdictRow[];
  readonly matrix: readonly MatrixRow[] | null;
  /** The "By purpose" rows, URL by URL (the first {@link MATRIX_MAX_URLS}); null unless a purpose was asked. */
  readonly purposeRows: readonly PurposeRow[] | null;
  /** The crawlers asked about, in words (`Google · follows Googlebot.`, `3 crawlers: …`). */
  readonly crawlerSummary: string;
  /** What to know about the crawler choices: which name was used whenever the one typed was rewritten. */
  readonly crawlerNotes: readonly string[];
  /** Size of the file tested, in bytes (its exact bytes when it was loaded as bytes). */
  readonly bytes: number;
  readonly groups: number;
  /** Parsing this text (both readings), in milliseconds, whenever it was done. */
  readonly parseMs: number;
  /** Answering this request's URLs and crawlers, in milliseconds. */
  readonly ms: number;
}

/** What depends only on the text: lint diagnostics and dialect differences, sent after the verdicts. */
export interface FileAnswer {
  readonly type: 'file';
  readonly id: number;
  /** Which text this describes (compare with {@link VerdictsAnswer.textSerial}). */
  readonly textSerial: number;
  readonly diagnostics: readonly EditorDiagnostic[];
  readonly differences: readonly DifferenceRow[];
  /** Linting this text and finding its differences, in milliseconds, whenever it was done. */
  readonly ms: number;
}

/** Sent once when the worker starts: the catalogue's crawler names, for the chooser's suggestions. */
interface CatalogueAnswer {
  readonly type: 'catalogue';
  readonly names: readonly string[];
}

/** Everything the worker posts; a `failure` carries the engine's message for the request it answers. */
export type WorkerAnswer =
  | CatalogueAnswer
  | VerdictsAnswer
  | FileAnswer
  | { readonly type: 'failure'; readonly id: number; readonly message: string };

/**
 * The AI usage vocabulary as data: which labels the IETF AI Preferences drafts define, in which revisions, and how
 * Cloudflare's Content-Signal keys relate to them. The labels changed across revisions (`tdm`/`ai`/`genai`, then `all`,
 * then `bots`, `train-genai`, `ai-output`…); a new revision is new rows here, not new code.
 *
 * Sources: draft-ietf-aipref-vocab revisions -01 to -08 (the label tables of their "Usage Category Labels" section;
 * -00 had no serialisation) and Cloudflare's Content Signals Policy (contentsignals.org, 2025-09-24, and the later
 * `use=` signal).
 */

/** The vocabulary revision whose labels {@link usage} resolves (`draft-ietf-aipref-vocab-08`). */
export const CURRENT_VOCAB_REVISION = 8;

/** Freezes each row of a table and the arrays in it, so that no caller can change the data others read. */
function frozenRows<T extends object>(rows: T[]): readonly T[] {
  for (const row of rows) {
    for (const value of Object.values(row)) if (Array.isArray(value)) Object.freeze(value);
    Object.freeze(row);
  }
  return Object.freeze(rows);
}

/** One label of the vocabulary. */
export interface VocabularyLabel {
  /** The label as the dictionary key spells it (case-sensitive): `train-ai`. */
  readonly label: string;
  /** The category's name in the draft: `AI Training`. */
  readonly category: string;
  /** The revisions of draft-ietf-aipref-vocab that define the label (numbers: 8 is `-08`). */
  readonly revisions: readonly number[];
}

/** Every label any revision defined, newest meaning first. */
export const USAGE_VOCABULARY: readonly VocabularyLabel[] = frozenRows([
  { label: 'train-ai', category: 'AI Training', revisions: [2, 3, 4, 5, 6, 7, 8] },
  { label: 'ai-use', category: 'AI Use', revisions: [2, 8] },
  { label: 'search', category: 'Search', revisions: [1, 2, 3, 4, 5, 6, 7, 8] },
  { label: 'all', category: 'Automated Processing', revisions: [2] },
  { label: 'bots', category: 'Automated Processing', revisions: [3, 4] },
  { label: 'train-genai', category: 'Generative AI Training', revisions: [2, 3] },
  { label: 'ai-output', category: 'AI Output', revisions: [4] },
  { label: 'tdm', category: 'Text and Data Mining', revisions: [1] },
  { label: 'ai', category: 'AI Training', revisions: [1] },
  { label: 'genai', category: 'Generative AI Training', revisions: [1] },
  { label: 'inference', category: 'AI Inference', revisions: [1] },
] satisfies VocabularyLabel[]);

/** The labels of the current revision, in the draft's order. */
export const CURRENT_LABELS: readonly string[] = USAGE_VOCABULARY.filter((l) =>
  l.revisions.includes(CURRENT_VOCAB_REVISION),
).map((l) => l.label);

/** The label's row, or undefined for a label no revision defined. */
export function vocabularyLabel(label: string): VocabularyLabel | undefined {
  return USAGE_VOCABULARY.find((l) => l.label === label);
}

/** `draft-ietf-aipref-vocab-05`, for messages. */
export function vocabRevisionName(revision: number): string {
  return `draft-ietf-aipref-vocab-${String(revision).padStart(2, '0')}`;
}

/** How a Content-Signal key relates to a vocabulary category. */
export type SignalRelation =
  /** The same use: the signal's answer is the category's. */
  | 'same'
  /** The signal's use contains the category's: its answer holds for the category too. */
  | 'contains'
  /** The uses overlap without one containing the other: shown side by side, not mapped. */
  | 'overlaps'
  /** No vocabulary category corresponds. */
  | 'none';

/** One key of Cloudflare's Content-Signal line. */
export interface ContentSignalKey {
  readonly key: string;
  /** The values Cloudflare defines for it. */
  readonly values: readonly string[];
  /** The vocabulary label it relates to, null when none. */
  readonly label: string | null;
  readonly relation: SignalRelation;
  /** Why, in one sentence. */
  readonly note: string;
}

export const CONTENT_SIGNAL_KEYS: readonly ContentSignalKey[] = frozenRows([
  {
    key: 'search',
    values: ['yes', 'no'],
    label: 'search',
    relation: 'same',
    note: 'both mean a search index with links and short excerpts, without AI-generated summaries',
  },
  {
    key: 'ai-train',
    values: ['yes', 'no'],
    label: 'train-ai',
    relation: 'contains',
    note: 'ai-train covers training or fine-tuning any AI model; train-ai only generative models',
  },
  {
    key: 'ai-input',
    values: ['yes', 'no'],
    label: 'ai-use',
    relation: 'overlaps',
    note: 'ai-input is real-time input to AI models (RAG, grounding); ai-use is any input to a generative model not given by the user',
  },
  {
    key: 'use',
    values: ['immediate', 'reference', 'full'],
    label: null,
    relation: 'none',
    note: 'how much of the content may be kept: immediate (nothing), reference (excerpts with a link), full',
  },
] satisfies ContentSignalKey[]);

/** The row of a Content-Signal key (compared as written: keys are lower-case). */
export function contentSignalKey(key: string): ContentSignalKey | undefined {
  return CONTENT_SIGNAL_KEYS.find((k) => k.key === key);
}

/**
 * The `Content-Usage` and `Content-Signal` lines of a file, read from its bytes: the model keeps an extension's value
 * as decoded text, while a preference expression is processed as bytes (draft-ietf-aipref-attach, "Processing
 * Content-Usage Rules"). So the lines are found again with the parser's own scan, once per file and only for files
 * that have such lines.
 */

import { normalizePatternBin } from '../match/pattern.js';
import type { SourceText } from '../model/source-text.js';
import { Field } from '../parse/fields.js';
import { scanLines } from '../parse/lines.js';
import { parseSfDictionary, type SfResult } from './structured-fields.js';

/** A `Content-Usage: <path> <preferences>` line. */
export interface ContentUsageLine {
  readonly line: number;
  /** The path pattern as the matcher reads it (non-ASCII bytes percent-encoded, escapes upper-cased); null without a path. */
  readonly pattern: string | null;
  /** The whole value, as written. */
  readonly value: string;
  /** The preference expression as written (after the path and its whitespace). */
  readonly expression: string;
  /** The expression parsed; an unparsable one states nothing. */
  readonly parsed: SfResult;
}

/** A `Content-Signal: key=value, …` line. */
export interface ContentSignalLine {
  readonly line: number;
  readonly value: string;
  /** The pairs as written, in order; null when the value is not a list of `key=value` pairs. */
  readonly pairs: readonly (readonly [key: string, value: string])[] | null;
}

/** The usage lines of one file, by line. */
export interface UsageLines {
  readonly usage: ReadonlyMap<number, ContentUsageLine>;
  readonly signals: ReadonlyMap<number, ContentSignalLine>;
}

const SP = 0x20;
const TAB = 0x09;

function readUsage(text: SourceText, line: number, vs: number, ve: number): ContentUsageLine {
  const bin = text.source.bin;
  const value = text.slice(vs, ve);
  if (vs >= ve || bin.charCodeAt(vs) !== 0x2f) {
    return { line, pattern: null, value, expression: value, parsed: parseSfDictionary(bin, vs, ve) };
  }
  let pe = vs;
  while (pe < ve && bin.charCodeAt(pe) !== SP && bin.charCodeAt(pe) !== TAB) pe++;
  let es = pe;
  while (es < ve && (bin.charCodeAt(es) === SP || bin.charCodeAt(es) === TAB)) es++;
  return {
    line,
    pattern: normalizePatternBin(bin, vs, pe),
    value,
    expression: text.slice(es, ve),
    parsed: parseSfDictionary(bin, es, ve),
  };
}

/** Reads `key=value` pairs separated by commas, whitespace around each part allowed; null when one is not a pair. */
function signalPairs(value: string): [string, string][] | null {
  if (value.trim() === '') return null;
  const pairs: [string, string][] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return null;
    const key = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (key === '' || v === '') return null;
    pairs.push([key, v]);
  }
  return pairs;
}

/** Whether a lower-cased key is one of the two fields. */
function usageField(name: string): 'usage' | 'signal' | null {
  return name === 'content-usage' ? 'usage' : name === 'content-signal' ? 'signal' : null;
}

/** Finds and reads every `Content-Usage` and `Content-Signal` line of `text` (in or outside groups). */
export function readUsageLines(text: SourceText): UsageLines {
  const usage = new Map<number, ContentUsageLine>();
  const signals = new Map<number, ContentSignalLine>();
  const bin = text.source.bin;
  scanLines(bin, (facts) => {
    if (facts.field !== Field.Unknown) return;
    // Both keys are 13 and 14 ASCII bytes; a cheap length test skips every other unknown field.
    const length = facts.keyEnd - facts.keyStart;
    if (length !== 13 && length !== 14) return;
    const kind = usageField(bin.slice(facts.keyStart, facts.keyEnd).toLowerCase());
    if (kind === 'usage') usage.set(facts.line, readUsage(text, facts.line, facts.valueStart, facts.valueEnd));
    else if (kind === 'signal') {
      const value = text.slice(facts.valueStart, facts.valueEnd);
      signals.set(facts.line, { line: facts.line, value, pairs: signalPairs(value) });
    }
  });
  return { usage, signals };
}

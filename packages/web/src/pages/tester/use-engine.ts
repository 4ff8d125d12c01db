/**
 * The tester's requests to its engine worker: one after each short pause in typing, the answers to the newest kept
 * (verdicts first, then the file's lint and differences), the catalogue's names for the crawler chooser.
 */

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { EngineClient, type RequestInput } from '../../engine/client.js';
import type { FileAnswer, VerdictsAnswer, WorkerAnswer } from '../../engine/protocol.js';

/** Pause in typing before a request is sent, in milliseconds. */
const PAUSE_MS = 60;

/** What the worker answered for the newest request. */
interface EngineAnswers {
  readonly verdicts: VerdictsAnswer | null;
  /** The file's lint and differences: of the newest text once they arrive, of an older text until then. */
  readonly facts: FileAnswer | null;
  /** The catalogue's crawler names, for suggestions. */
  readonly crawlerNames: readonly string[];
  /** The engine's message when it failed on the newest request. */
  readonly engineError: string | null;
}

/** Asks the worker about `request` whenever a field of it changes (after a pause), answering with the newest results. */
export function useEngine({ text, bytes, urls, crawlers, dialect, matrix, purpose }: RequestInput): EngineAnswers {
  const [verdicts, setVerdicts] = useState<VerdictsAnswer | null>(null);
  const [facts, setFacts] = useState<FileAnswer | null>(null);
  const [crawlerNames, setCrawlerNames] = useState<readonly string[]>([]);
  const [engineError, setEngineError] = useState<string | null>(null);
  const latest = useRef(0);

  const client = useMemo(
    () =>
      new EngineClient((answer: WorkerAnswer) => {
        if (answer.type === 'catalogue') {
          setCrawlerNames(answer.names);
          return;
        }
        if (answer.id !== latest.current) return;
        if (answer.type === 'verdicts') {
          setVerdicts(answer);
          setEngineError(null);
        } else if (answer.type === 'file') {
          setFacts(answer);
        } else {
          setEngineError(answer.message);
        }
      }),
    [],
  );
  useEffect(() => () => client.dispose(), [client]);

  // The worker keeps only the newest waiting request.
  useEffect(() => {
    const timer = setTimeout(() => {
      latest.current = client.request({
        text,
        bytes: bytes ?? null,
        urls,
        crawlers,
        dialect,
        matrix,
        purpose: purpose ?? null,
      });
    }, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [client, text, bytes, urls, crawlers, dialect, matrix, purpose]);

  return { verdicts, facts, crawlerNames, engineError };
}

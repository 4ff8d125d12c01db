/**
 * Recrawl: asks the service to fetch the file now, then follows it through three steps (requested, fetching, done)
 * by polling the file until a new fetch is recorded, and says what came of it. When this process runs no workers
 * it says who will fetch the file (a `robotskit worker` on the same database).
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, apiGet, apiSend, toApiError } from '../../api.js';
import type { FileDetail, RobotsFile } from '../../api-types.js';
import { ApiErrorNotice } from '../../components/api-error.js';
import { formatBytes } from '../../components/format.js';

type Step = 'idle' | 'requesting' | 'queued' | 'fetching' | 'done';

const POLL_MS = 500;
/** After this long in the queue, say that no worker seems to be taking it. */
const SLOW_MS = 20_000;

/** What the last fetch found, in a sentence. */
function outcomeSentence(file: FileDetail, previousVersion: number | null): string {
  const fetch = file.lastFetch;
  if (!fetch) return 'Done.';
  const changed = file.latestVersionId !== previousVersion;
  if (fetch.status === 'fetched') {
    return `Fetched: ${fetch.reply === null ? '' : `${fetch.reply}, `}${formatBytes(fetch.size ?? 0)}, ${
      changed ? 'a new version' : 'unchanged'
    }.`;
  }
  if (fetch.status === 'not-found') return `No file: ${fetch.summary ?? 'not found'}${changed ? ', a change' : ''}.`;
  return `Failed: ${fetch.summary ?? fetch.reply ?? 'no answer'}.`;
}

export function Recrawl(props: {
  file: FileDetail;
  /** Whether workers run in this process (from /api/health). */
  fetching: boolean | null;
  /** Told when the new fetch is recorded, with the file as it is now. */
  onDone: (file: FileDetail) => void;
}) {
  const { file } = props;
  const initialStep: Step = file.fetchingSince !== null ? 'fetching' : file.recrawlPending ? 'queued' : 'idle';
  const [step, setStep] = useState<Step>(initialStep);
  const [error, setError] = useState<ApiError | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [slow, setSlow] = useState(false);
  const baseline = useRef({ fetchId: file.lastFetch?.id ?? null, version: file.latestVersionId });
  const since = useRef(Date.now());
  const onDone = useRef(props.onDone);
  onDone.current = props.onDone;

  useEffect(() => {
    if (step !== 'queued' && step !== 'fetching') return;
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const poll = async () => {
      try {
        const now = await apiGet<FileDetail>(`/api/files/${file.id}?content=false`);
        if (!live) return;
        const newFetch = (now.lastFetch?.id ?? null) !== baseline.current.fetchId;
        if (newFetch && !now.recrawlPending && now.fetchingSince === null) {
          setResult(outcomeSentence(now, baseline.current.version));
          setStep('done');
          onDone.current(now);
          return;
        }
        setStep(now.fetchingSince !== null ? 'fetching' : 'queued');
        setSlow(Date.now() - since.current > SLOW_MS);
      } catch (cause) {
        if (!live) return;
        if (cause instanceof ApiError && cause.status === 0) setSlow(true);
      }
      if (live) timer = setTimeout(poll, POLL_MS);
    };
    timer = setTimeout(poll, POLL_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [step === 'queued' || step === 'fetching', file.id]);

  const request = async () => {
    setError(null);
    setResult(null);
    setSlow(false);
    setStep('requesting');
    baseline.current = { fetchId: file.lastFetch?.id ?? null, version: file.latestVersionId };
    since.current = Date.now();
    try {
      await apiSend<RobotsFile>('POST', `/api/files/${file.id}/recrawl`);
      setStep('queued');
    } catch (cause) {
      setError(toApiError(cause));
      setStep('idle');
    }
  };

  const running = step === 'requesting' || step === 'queued' || step === 'fetching';
  const reached = (s: Step) => {
    const order: Step[] = ['requesting', 'queued', 'fetching', 'done'];
    return order.indexOf(step) >= order.indexOf(s);
  };
  return (
    <div class="recrawl">
      <button type="button" onClick={() => void request()} disabled={running}>
        {running ? 'Recrawling…' : 'Recrawl now'}
      </button>
      {step !== 'idle' && (
        <div class="recrawl-progress">
          <ol class="steps" aria-hidden="true">
            <li class={reached('queued') ? 'step-done' : 'step-now'}>Requested</li>
            <li class={reached('done') || step === 'fetching' ? (reached('done') ? 'step-done' : 'step-now') : ''}>
              Fetching
            </li>
            <li class={reached('done') ? 'step-done' : ''}>Done</li>
          </ol>
          <p class="recrawl-status" role="status">
            {step === 'requesting' && 'Asking the service…'}
            {step === 'queued' &&
              (slow
                ? props.fetching === false
                  ? 'Requested. This process runs no fetch workers: a robotskit worker on the same database will fetch it.'
                  : 'Requested, still waiting for a worker (they may be busy).'
                : 'Requested, waiting for a worker…')}
            {step === 'fetching' && `Fetching ${file.url}…`}
            {step === 'done' && result}
          </p>
        </div>
      )}
      {error && <ApiErrorNotice error={error} onRetry={() => void request()} />}
    </div>
  );
}

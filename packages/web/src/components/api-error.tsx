/**
 * How a failed API call is shown: the service's message in a notice, a retry when one makes sense, and, when the
 * service wants an access token (`--token`), a field to type it (kept in this browser, see `api.ts`).
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import { type ApiError, apiToken, setApiToken } from '../api.js';

/**
 * An API error in words, with a retry button; for a refused access token, the prompt to type one (saved, then retried).
 * With `focus`, keyboard focus moves to it when it appears (to the token field for the prompt), for an error that
 * answers what the user just asked.
 */
export function ApiErrorNotice(props: {
  error: ApiError;
  onRetry?: (() => void) | undefined;
  context?: string;
  focus?: boolean;
}) {
  const { error, onRetry, context } = props;
  const focus = props.focus ?? false;
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (focus) notice.current?.focus();
  }, [error]);
  if (error.code === 'unauthorized') return <TokenPrompt onSaved={onRetry} focus={focus} />;
  return (
    <div class="notice notice-error" role="alert" ref={notice} tabIndex={focus ? -1 : undefined}>
      <span>
        {context ? `${context}: ` : ''}
        {error.message}
      </span>
      {onRetry && (
        <button type="button" class="small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

function TokenPrompt({ onSaved, focus }: { onSaved?: (() => void) | undefined; focus: boolean }) {
  const [value, setValue] = useState('');
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focus) field.current?.focus();
  }, []);
  const hadToken = apiToken() !== null;
  return (
    <form
      class="notice notice-info token-prompt"
      aria-label="Access token needed"
      onSubmit={(event) => {
        event.preventDefault();
        setApiToken(value.trim());
        onSaved?.();
      }}
    >
      <span role="alert">
        {hadToken
          ? 'The access token saved in this browser was refused. Type the current one.'
          : 'This service needs an access token for changes (it was started with --token).'}
      </span>
      <span class="token-fields">
        <label class="visually-hidden" for="access-token">
          Access token
        </label>
        <input
          id="access-token"
          ref={field}
          class="token-input"
          type="password"
          autocomplete="current-password"
          placeholder="Access token"
          value={value}
          onInput={(event) => setValue(event.currentTarget.value)}
          required
        />
        <button type="submit" class="small">
          Save and retry
        </button>
      </span>
    </form>
  );
}

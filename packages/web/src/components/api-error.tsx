/**
 * How a failed API call is shown: the service's message in a notice, a retry when one makes sense, and, when the
 * service wants an access token (`--token`), a field to type it (kept in this browser, see `api.ts`).
 */

import { useState } from 'preact/hooks';
import { type ApiError, apiToken, setApiToken } from '../api.js';

/**
 * An API error in words, with a retry button; for a refused access token, the prompt to type one (saved, then retried).
 */
export function ApiErrorNotice(props: { error: ApiError; onRetry?: (() => void) | undefined; context?: string }) {
  const { error, onRetry, context } = props;
  if (error.code === 'unauthorized') return <TokenPrompt onSaved={onRetry} />;
  return (
    <div class="notice notice-error" role="alert">
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

function TokenPrompt({ onSaved }: { onSaved?: (() => void) | undefined }) {
  const [value, setValue] = useState('');
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

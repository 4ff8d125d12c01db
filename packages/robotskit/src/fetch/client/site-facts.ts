/**
 * What of a fetch history is a fact about the site, and so may go to a store other processes read. A retrieval this
 * process refused on its own (its SSRF guard refused the address, it has no client for the scheme, its caller
 * cancelled it) says nothing about the site: it applies in this process (a refused site stays disallowed here), but a
 * shared store must never hold it, or every process reading that store would answer a healthy site as unreachable.
 */

import type { RetrievalResult } from '../shared/types.js';

/**
 * Whether a retrieval is this process's own refusal rather than the site's answer: `blocked` (the injected `fetch`
 * or FTP client refused to connect, or no client for the scheme was given) or `aborted` (the caller cancelled).
 */
export function isLocalRefusal(result: RetrievalResult): boolean {
  const kind = result.error?.kind;
  return kind === 'blocked' || kind === 'aborted';
}

/** The history without this process's own refusals: what a shared store may be given. */
export function siteHistory(history: readonly RetrievalResult[]): readonly RetrievalResult[] {
  return history.some(isLocalRefusal) ? history.filter((r) => !isLocalRefusal(r)) : history;
}

/**
 * Control tokens: robots.txt user-agent tokens that never fetch. A group for one says what another crawler's fetches
 * may be used for (Google-Extended: whether what Google's crawlers fetch may train Gemini models and ground their
 * answers; Applebot-Extended: whether what Applebot fetched may train Apple's foundation models). Data, so that a newly
 * confirmed token (a training-preference policy token, say) is one more row.
 */

/** What a control token's group governs: use for training AI models, or for grounding AI answers. */
export type ControlUse = 'training' | 'grounding';

/** A robots.txt token that never fetches and governs the use of what other crawlers fetch. */
export interface ControlToken {
  /** The token as its operator writes it. */
  readonly token: string;
  readonly operator: string;
  /** The uses a group for this token allows or disallows. */
  readonly governs: readonly ControlUse[];
  /** The catalogue crawlers whose fetches it governs (they obey their own groups for fetching). */
  readonly fetchedBy: readonly string[];
  /** The operator's documentation. */
  readonly source: string;
  /** When it was recorded from the source (`YYYY-MM-DD`). */
  readonly date: string;
}

/** Every known control token. */
export const CONTROL_TOKENS: readonly ControlToken[] = Object.freeze(
  [
    {
      token: 'Google-Extended',
      operator: 'Google',
      governs: ['training', 'grounding'],
      fetchedBy: ['Googlebot', 'Googlebot-Image', 'Googlebot-News', 'Googlebot-Video', 'GoogleOther'],
      source: 'https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers',
      date: '2026-11-28',
    },
    {
      token: 'Applebot-Extended',
      operator: 'Apple',
      governs: ['training'],
      fetchedBy: ['Applebot'],
      source: 'https://support.apple.com/en-us/119829',
      date: '2026-11-28',
    },
  ].map((t) => Object.freeze({ ...t, governs: Object.freeze(t.governs), fetchedBy: Object.freeze(t.fetchedBy) })),
) as readonly ControlToken[];

/**
 * The control token a user-agent name is, ASCII case-insensitively (as robots.txt compares product tokens); undefined
 * for a name that is not one (a crawler that fetches, or an unknown name).
 * @example controlToken('applebot-extended')?.governs // ['training']
 */
export function controlToken(name: string): ControlToken | undefined {
  const lower = name.toLowerCase();
  return CONTROL_TOKENS.find((t) => t.token.toLowerCase() === lower);
}

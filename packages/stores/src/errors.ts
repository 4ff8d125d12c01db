/** The stores' one error class: a store that cannot start, or a call its database did not answer in time. */

/**
 * The error a store throws when it cannot start (its database cannot be reached or does not answer, or its options
 * are wrong), and when a call got no answer in time or is refused because the database stalled.
 */
export class RobotsStoreError extends Error {
  override readonly name = 'RobotsStoreError';
}

/** The stores' one error class, for what a caller can fix: a store that cannot start. */

/** The error a store throws when it cannot start: its database cannot be reached, or its options are wrong. */
export class RobotsStoreError extends Error {
  override readonly name = 'RobotsStoreError';
}

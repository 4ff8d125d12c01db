/** The error a store throws when it cannot start: its database cannot be reached, or its options are wrong. */
export class RobotsStoreError extends Error {
  override readonly name = 'RobotsStoreError';
}

/** A log's inputs refused: a range file that is not one. The message names the file; the caller adds its own words. */
export class LogInputError extends Error {
  override readonly name = 'LogInputError';
}

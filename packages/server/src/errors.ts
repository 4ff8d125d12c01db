/**
 * The service's one base error class: every error it throws on purpose carries a stable kebab-case `code` (what a
 * program checks) and, when it wraps another failure, that failure as `cause`. The message is for people.
 * `AddressRefusedError` is the one exception: it is a `TypeError`, as fetch's network errors are, and carries the same
 * `code` field.
 */

export class RobotskitServerError extends Error {
  /** A stable kebab-case code, such as `invalid-property` or `database-unavailable`. */
  readonly code: string;

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

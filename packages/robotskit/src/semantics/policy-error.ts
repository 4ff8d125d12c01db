/** The error of a policy that cannot be turned into robots.txt (`generateRobots`), in its own module so both parts of the policy's reading throw it. */

/** A policy that cannot be turned into robots.txt; the message says where (`groups[1].disallow[0]: …`). */
export class PolicyError extends Error {
  override readonly name = 'PolicyError';
}

/**
 * Checks of numeric options, shared by every stage so that a bad value is refused with the same one-line `RangeError`
 * wherever it is given.
 */

/** `value` when it is a positive, finite number of milliseconds; `fallback` when it is undefined. */
export function positiveMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`${name} must be a positive number of milliseconds`);
  }
  return value;
}

/** `value` when it is a non-negative, finite number of milliseconds; `fallback` when it is undefined. */
export function nonNegativeMs(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) {
    throw new RangeError(`${name} must be a non-negative number of milliseconds`);
  }
  return value;
}

/** `value` when it is an integer of at least 0; `fallback` when it is undefined. */
export function nonNegativeInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a non-negative integer`);
  return value;
}

/** `value` when it is an integer of at least 1; `fallback` when it is undefined. */
export function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

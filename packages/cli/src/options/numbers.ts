/**
 * Numeric options as typed on the command line (`--timeout`, `--concurrency`, `--port`…): read into numbers, or a
 * one-line error naming the option and what was typed.
 */

import { CliError } from '../io.js';

/** Reads `--timeout <seconds>` into milliseconds (at least 1). */
export function parseTimeout(text: string): number {
  const seconds = Number(text);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new CliError(`--timeout must be a positive number of seconds, not '${text}'`);
  return Math.max(1, Math.round(seconds * 1000));
}

/** Reads a positive integer option (`name` as the user typed it, e.g. `--window`). */
export function parsePositive(text: string, name: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${name} must be a positive integer, not '${text}'`);
  return n;
}

/** Reads an integer option `--<name>` that must lie from `min` to `max` (digits only: no sign, no exponent). */
export function integerOption(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(value) || value < min || value > max) {
    throw new CliError(`--${name} must be an integer from ${min} to ${max} (got '${text}')`);
  }
  return value;
}

/**
 * Text for people: whether to colour a stream (FORCE_COLOR, NO_COLOR, a terminal), the painter, and control
 * characters made visible so a line from a file can be printed on a terminal safely.
 */

import type { Io } from '../io.js';

/**
 * Whether to colour output written to `stream`. `FORCE_COLOR` decides when set (`0` or `false` turn colour off, any
 * other value, empty included, on, as Node reads it); else a non-empty `NO_COLOR` turns it off (no-color.org: an
 * empty one is ignored); else colour on a terminal other than `TERM=dumb`.
 */
export function useColor(io: Io, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io[stream].isTTY === true && io.env.TERM !== 'dumb';
}

const CODES = {
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  dim: [2, 22],
  bold: [1, 22],
} as const;

/** A colouring function, or the identity when colour is off. */
export type Paint = (style: keyof typeof CODES, text: string) => string;

/** Returns a painter that colours only when `enabled`. */
export function painter(enabled: boolean): Paint {
  if (!enabled) return (_style, text) => text;
  return (style, text) => `\u001b[${CODES[style][0]}m${text}\u001b[${CODES[style][1]}m`;
}

/** Shows control characters and invisible text visibly, so a line can be printed safely on a terminal. */
export function visible(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: replacing control characters is the point.
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200b\ufeff]/g, (c) => {
    const code = c.charCodeAt(0);
    return code === 0xfeff ? '<BOM>' : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}

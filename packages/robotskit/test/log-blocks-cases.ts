/**
 * The case table of a log's bytes cut into blocks of whole lines, run through both readers that answer it: the
 * engine's `logBlocksOf` (streams: the service's uploads) and the CLI's `logBlocks` (files and standard input). Each
 * case gives the chunks as they arrive and the lines a reader then walks (the blocks joined by line feeds, split at
 * them): a BOM dropped, CR kept for the reader to drop, a character cut between chunks joined, a line over 1 MiB
 * replaced by the overlong note.
 */

const MiB = 1 << 20;
const encoder = new TextEncoder();
const OVERLONG = '\u0000line over 1 MiB';

export interface BlockCase {
  readonly name: string;
  readonly chunks: readonly Uint8Array[];
  /** The lines the blocks hold, in order. */
  readonly lines: readonly string[];
}

function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** `text`'s bytes cut every `size` bytes. */
function cut(text: string | Uint8Array, size: number): Uint8Array[] {
  const all = typeof text === 'string' ? bytes(text) : text;
  const parts: Uint8Array[] = [];
  for (let i = 0; i < all.length; i += size) parts.push(all.slice(i, i + size));
  return parts;
}

const long = 'x'.repeat(MiB + MiB / 2);
const almost = 'y'.repeat(MiB - 10);

export const BLOCK_CASES: readonly BlockCase[] = [
  { name: 'two lines in one chunk', chunks: [bytes('a b\nc d\n')], lines: ['a b', 'c d'] },
  { name: 'a last line without its end', chunks: [bytes('a\nb')], lines: ['a', 'b'] },
  { name: 'CRLF ends kept for the reader', chunks: [bytes('a\r\nb\r\n')], lines: ['a\r', 'b\r'] },
  { name: 'a BOM before the first line', chunks: [bytes('\uFEFFa\nb\n')], lines: ['a', 'b'] },
  { name: 'empty lines in a row', chunks: [bytes('a\n\n\nb\n')], lines: ['a', '', '', 'b'] },
  { name: 'a line end alone', chunks: [bytes('\n')], lines: [''] },
  {
    name: 'a character cut between chunks',
    chunks: cut('caf\u00e9 1\ncaf\u00e9 2\n', 4),
    lines: ['caf\u00e9 1', 'caf\u00e9 2'],
  },
  {
    name: 'a line over many chunks',
    chunks: cut(`head\n${'z'.repeat(5000)}\ntail\n`, 1000),
    lines: ['head', 'z'.repeat(5000), 'tail'],
  },
  {
    name: 'a line over 1 MiB across chunks becomes the note',
    chunks: cut(`a\n${long}\nb\n`, 64 * 1024),
    lines: ['a', OVERLONG, 'b'],
  },
  {
    name: 'a line just under 1 MiB across chunks is kept',
    chunks: cut(`a\n${almost}\nb\n`, 64 * 1024),
    lines: ['a', almost, 'b'],
  },
  {
    name: 'a byte that is no UTF-8 is the replacement character',
    chunks: [new Uint8Array([0x61, 0xff, 0x62, 0x0a])],
    lines: ['a\uFFFDb'],
  },
];

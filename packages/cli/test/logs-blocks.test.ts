/**
 * The CLI's reader of a log's bytes (`logBlocks`, standard input here, chunk by chunk) on the case table the engine's
 * `logBlocksOf` runs too (`robotskit/test/log-blocks-cases.ts`): both cut the same bytes into the same lines.
 */

import { describe, expect, it } from 'vitest';
import { BLOCK_CASES } from '../../robotskit/test/log-blocks-cases.js';
import { processIo } from '../src/io.js';
import { logBlocks } from '../src/logs/input.js';

describe('logBlocks (standard input)', () => {
  it.each(BLOCK_CASES)('$name', async ({ chunks, lines }) => {
    const io = {
      ...processIo,
      stdinStream: () => ({
        async *[Symbol.asyncIterator]() {
          for (const chunk of chunks) yield chunk;
        },
      }),
    };
    const blocks: string[] = [];
    for await (const block of logBlocks(io, '-')) blocks.push(block);
    expect(blocks.join('\n').split('\n')).toEqual(lines);
  });
});

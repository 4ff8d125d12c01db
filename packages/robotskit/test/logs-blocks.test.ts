/** `robotskit/logs`' `logBlocksOf`: a log's streamed bytes cut into blocks of whole lines (the shared case table). */

import { describe, expect, it } from 'vitest';
import { logBlocksOf } from '../src/logs/blocks.js';
import { BLOCK_CASES } from './log-blocks-cases.js';

async function* stream(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

describe('logBlocksOf', () => {
  it.each(BLOCK_CASES)('$name', async ({ chunks, lines }) => {
    const blocks: string[] = [];
    for await (const block of logBlocksOf(stream(chunks))) blocks.push(block);
    expect(blocks.join('\n').split('\n')).toEqual(lines);
  });

  it('yields nothing for no bytes', async () => {
    const blocks: string[] = [];
    for await (const block of logBlocksOf(stream([]))) blocks.push(block);
    expect(blocks).toEqual([]);
  });
});

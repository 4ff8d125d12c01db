/**
 * `robotskit format [--check]`: the canonical layout on standard output; --check exits 1 when it would change.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { run } from './helpers.js';

const dir = tempDir('format');
const write = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const messy = write('messy.txt', 'useragent: *\n\ndisalow: /a\nDisallow: /a\n# end\n');
const tidy = write('tidy.txt', 'User-agent: *\nDisallow: /a\n# end\n');

describe('robotskit format', () => {
  it('prints the canonical layout', async () => {
    expect(await run(['format', messy])).toEqual({
      code: 0,
      stdout: 'User-agent: *\nDisallow: /a\n# end\n',
      stderr: '',
    });
    expect((await run(['format', '-'], { stdin: 'user-agent: *\nallow: /\n' })).stdout).toBe(
      'User-agent: *\nAllow: /\n',
    );
  });

  it('--check: exit 1 when formatting would change the file, 0 when not', async () => {
    expect(await run(['format', '--check', messy])).toEqual({
      code: 1,
      stdout: `${messy}: would be reformatted (1 repeated rule removed)\n`,
      stderr: '',
    });
    expect(await run(['format', '--check', tidy])).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('exits 2 with one line for I/O errors', async () => {
    const result = await run(['format', join(dir, 'missing.txt')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^robotskit: cannot read robots\.txt file '.*missing\.txt': no such file\n$/);
  });
});

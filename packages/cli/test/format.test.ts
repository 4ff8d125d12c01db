/**
 * `robotskit format [--check]`: the canonical layout on standard output, byte for byte where it does not reformat;
 * --check exits 1 when it would change; exit 3 and nothing printed when the layout cannot be proven.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { BIN, plainEnv, run } from './helpers.js';

/** The command as a process, its output as bytes. */
function runBytes(argv: string[]): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...argv],
      { encoding: 'buffer', env: plainEnv(), timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr: stderr.toString('utf8') });
      },
    );
  });
}

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

  it('keeps bytes that are not UTF-8 (issue 33: Latin-1 `\\xe9`), and --check compares them as bytes', async () => {
    const latin1 = join(dir, 'latin1.txt');
    writeFileSync(latin1, Buffer.from('User-agent: *\nDisallow: /caf\xe9\n', 'latin1'));
    const formatted = await runBytes(['format', latin1]);
    expect(formatted.code).toBe(0);
    expect(formatted.stderr).toBe('');
    expect(formatted.stdout.toString('latin1')).toBe('User-agent: *\nDisallow: /caf\xe9\n');
    expect((await runBytes(['format', '--check', latin1])).code).toBe(0);
    // A layout to fix around the byte: fixed, the byte kept.
    const messyLatin1 = join(dir, 'messy-latin1.txt');
    writeFileSync(messyLatin1, Buffer.from('useragent: *\r\n\r\ndisalow: /caf\xe9   # \xe9t\xe9\r\n', 'latin1'));
    const fixed = await runBytes(['format', messyLatin1]);
    expect(fixed.stdout.toString('latin1')).toBe('User-agent: *\nDisallow: /caf\xe9 # \xe9t\xe9\n');
    expect((await runBytes(['format', '--check', messyLatin1])).code).toBe(1);
  });

  it('exits 3 and prints nothing when the layout cannot be proven to mean the same (a file over the parse limit)', async () => {
    const big = write(
      'big.txt',
      `User-agent: *\n${'Disallow: /aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n'.repeat(12_000)}`,
    );
    for (const argv of [
      ['format', big],
      ['format', '--check', big],
    ]) {
      const result = await run(argv);
      expect(result.code).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `robotskit: ${big}: not formatted, nothing printed: the file is longer than the parse limit, and only what is parsed can be laid out\n`,
      );
    }
  });

  it('exits 2 with one line for I/O errors', async () => {
    const result = await run(['format', join(dir, 'missing.txt')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^robotskit: cannot read robots\.txt file '.*missing\.txt': no such file\n$/);
  });
});

/**
 * The command line as a new user meets it: a misspelt `--ua` is named, `test`/`explain` refuse what is not a URL and
 * point a URL given for a file at `check` and `lint <url>`, one `--json` shape per command, `lint --fix`,
 * `format --write`, `--quiet`, every help with its exit statuses, and bare `robotskit` a usage error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { lint } from 'robotskit/lint';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cleanup.js';
import { run, spawn } from './helpers.js';

const dir = tempDir('native');
const write = (name: string, text: string | Uint8Array): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const googlebotBlocked = write('gb.txt', 'User-agent: Googlebot\nDisallow: /\n');

describe('--ua names close to a catalogue name', () => {
  it('warns on one line, "did you mean", and still decides for the name as typed', async () => {
    const typo = await run(['explain', googlebotBlocked, 'https://example.com/x', '--ua', 'Googelbot']);
    expect(typo.code).toBe(0);
    expect(typo.stderr).toBe(
      "robotskit: warning: --ua: 'Googelbot' is not in the catalogue (used as typed, a token no group may name): did you mean Googlebot?\n",
    );
    const right = await run(['explain', googlebotBlocked, 'https://example.com/x', '--ua', 'Googlebot']);
    expect(right).toMatchObject({ code: 1, stderr: '' });
    // A name far from every catalogue name, and a catalogue name in another case, get no warning.
    for (const ua of ['MyOwnCrawler', 'GOOGLEBOT', 'googlebot-image', '*']) {
      const result = await run(['explain', googlebotBlocked, 'https://example.com/x', '--ua', ua]);
      expect(result.stderr, ua).toBe('');
    }
  });

  it('warns for each misspelt name of a list, in check, batch and diff too', async () => {
    const list = await run(['explain', googlebotBlocked, 'https://example.com/x', '--ua', 'Bingbott,Googlebot']);
    expect(list.stderr).toContain('did you mean bingbot?');
    expect(list.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    const diff = await run(['diff', googlebotBlocked, googlebotBlocked, '--ua', 'Googlebto']);
    expect(diff.stderr).toContain("--ua: 'Googlebto' is not in the catalogue");
    expect(diff.stderr).toContain('did you mean Googlebot?');
    // Checked before anything is fetched: an invalid URL still gets its own error after the warning.
    const check = await run(['check', 'notaurl', '--ua', 'Googelbot']);
    expect(check.code).toBe(2);
    expect(check.stderr.split('\n')[0]).toContain('did you mean Googlebot?');
    const batch = await run(['batch', '--ua', 'Googelbot'], { stdin: '' });
    expect(batch.code).toBe(0);
    expect(batch.stderr.split('\n')[0]).toContain('did you mean Googlebot?');
  });

  it('test warns on a terminal only: piped, the exit status is the whole answer, as for the runner', async () => {
    const piped = await run(['test', googlebotBlocked, 'Googelbot', 'https://example.com/x']);
    expect(piped).toEqual({ code: 0, stdout: '', stderr: '' });
    const tty = await run(['test', googlebotBlocked, 'Googelbot', 'https://example.com/x'], { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stderr).toContain('did you mean Googlebot?');
  });
});

describe('test and explain take a URL', () => {
  it('refuse what is not one with one line, and exit 2', async () => {
    const cases: [string, string][] = [
      [
        'notaurl',
        "robotskit: 'notaurl' is not a URL: give one such as https://example.com/page, or a path such as /page\n",
      ],
      [
        'example.com/x',
        "robotskit: 'example.com/x' is not a URL: it has no scheme (did you mean 'https://example.com/x'?)\n",
      ],
      [
        'https:example.com/x',
        "robotskit: 'https:example.com/x' is not a URL: a URL has '//' after its scheme (https://example.com/page)\n",
      ],
      [' https://e.com/', "robotskit: ' https://e.com/' is not a URL: remove the surrounding whitespace\n"],
    ];
    for (const [url, message] of cases) {
      expect(await run(['test', googlebotBlocked, 'Googlebot', url]), url).toEqual({
        code: 2,
        stdout: '',
        stderr: message,
      });
      expect(await run(['explain', googlebotBlocked, url]), url).toEqual({ code: 2, stdout: '', stderr: message });
    }
  });

  it('take URLs of any scheme, paths, and the empty URL of the conformance suite as the reference reads them', async () => {
    for (const url of ['https://example.com/x', 'ftp://example.com/x', '/x', '//example.com/x', '']) {
      expect((await run(['test', googlebotBlocked, 'Googlebot', url])).code, url).toBe(1);
    }
  });

  it('point a URL given for the file at check and lint <url>, as a process', async () => {
    const hint =
      "robotskit: 'https://example.com/page' is a URL, not a robots.txt file: to decide URLs by a site\u2019s live robots.txt use robotskit check <url>; to lint that file, robotskit lint <url>\n";
    expect(await spawn(['explain', 'https://example.com/page'])).toEqual({ code: 2, stdout: '', stderr: hint });
    expect(await spawn(['explain', 'https://example.com/page', 'https://example.com/x'])).toEqual({
      code: 2,
      stdout: '',
      stderr: hint,
    });
    expect(await spawn(['test', 'https://example.com/page', 'Googlebot', 'https://example.com/x'])).toEqual({
      code: 2,
      stdout: '',
      stderr: hint,
    });
    // Without a URL and without a URL for the file, the plain usage error.
    expect(await run(['explain', googlebotBlocked])).toEqual({
      code: 2,
      stdout: '',
      stderr: "robotskit: missing required argument 'url'\n",
    });
  });
});

describe('one --json shape per command', () => {
  it('lint prints an array of files for one file as for several, with the fixes text shows', async () => {
    const typo = write('typo.txt', 'User-agent: *\nDisalow: /x\n');
    const one = JSON.parse((await run(['lint', typo, '--json'])).stdout);
    const two = JSON.parse((await run(['lint', typo, googlebotBlocked, '--json'])).stdout);
    expect(Array.isArray(one)).toBe(true);
    expect(one).toEqual([two[0]]);
    const withFix = one[0].diagnostics.find((d: { code: string }) => d.code === 'field-name-typo');
    expect(withFix.fix).toEqual({
      description: 'Replace "Disalow" with "Disallow"',
      edits: [{ line: 2, column: 1, endLine: 2, endColumn: 8, text: 'Disallow' }],
    });
    const text = (await run(['lint', typo])).stdout;
    expect(text).toContain(`fix: ${withFix.fix.description}`);
  });

  it('format --json: { file, proven, reason, changed, removedLines, text, base64 } in every mode', async () => {
    const messy = write('messy.txt', 'user-agent:*\ndisallow:/x\n');
    const printed = await run(['format', messy, '--json']);
    const checked = await run(['format', messy, '--json', '--check']);
    expect(printed.code).toBe(0);
    expect(checked.code).toBe(1);
    const doc = JSON.parse(printed.stdout);
    expect(Object.keys(doc)).toEqual(['file', 'proven', 'reason', 'changed', 'removedLines', 'text', 'base64']);
    expect(doc).toEqual(JSON.parse(checked.stdout));
    expect(doc).toMatchObject({
      file: messy,
      proven: true,
      reason: null,
      changed: true,
      removedLines: [],
      base64: null,
    });
    expect(doc.text).toBe((await run(['format', messy])).stdout);
  });

  it('format --json of a file that is not UTF-8: the bytes in base64, kept as they were', async () => {
    const latin1 = join(dir, 'latin1.txt');
    writeFileSync(latin1, Buffer.from('user-agent:*\ndisallow:/caf\xe9\n', 'latin1'));
    const printed = await run(['format', latin1, '--json']);
    expect(printed.code).toBe(0);
    const doc = JSON.parse(printed.stdout);
    expect(doc).toMatchObject({ proven: true, changed: true, text: null });
    expect(Buffer.from(doc.base64, 'base64').toString('latin1')).toBe('User-agent: *\nDisallow: /caf\xe9\n');
  });

  it('generate --json: { verified, text, unverified, check } with and without --check', async () => {
    const policy = write('policy.json', JSON.stringify({ groups: [{ crawlers: ['*'], disallow: ['/private/'] }] }));
    const made = await run(['generate', policy, '--json']);
    expect(made.code).toBe(0);
    const doc = JSON.parse(made.stdout);
    expect(doc).toEqual({
      verified: true,
      text: (await run(['generate', policy])).stdout,
      unverified: [],
      check: null,
    });
    const follows = write('follows.txt', doc.text);
    const other = write('other.txt', 'User-agent: *\nDisallow: /\n');
    const yes = await run(['generate', policy, '--json', '--check', follows]);
    expect(yes.code).toBe(0);
    expect(JSON.parse(yes.stdout).check).toEqual({ file: follows, followsPolicy: true, crawlers: [] });
    const no = await run(['generate', policy, '--json', '--check', other]);
    expect(no.code).toBe(1);
    const check = JSON.parse(no.stdout).check;
    expect(check).toMatchObject({ file: other, followsPolicy: false });
    expect(check.crawlers[0].crawler).toBe('*');
    expect(check.crawlers[0].regions.length).toBeGreaterThan(0);
  });
});

describe('fixing and formatting in place', () => {
  it('lint --fix writes the fixes into the file and reports what is left', async () => {
    const file = write('fix-me.txt', 'User-agent: *\nDisalow: /x\nAlow: /x/y\nSitemap: https://example.com/s.xml\n');
    const before = lint(readFileSync(file));
    expect(before.filter((d) => d.fix !== undefined).length).toBeGreaterThanOrEqual(2);
    const result = await run(['lint', file, '--fix', '--json']);
    expect(result.stderr).toBe(
      `robotskit: ${file}: fixed ${before.filter((d) => d.fix !== undefined).length} problems\n`,
    );
    const after = readFileSync(file, 'utf8');
    expect(after).toBe('User-agent: *\nDisallow: /x\nAllow: /x/y\nSitemap: https://example.com/s.xml\n');
    // The report is of the file as it is now.
    expect(JSON.parse(result.stdout)[0].diagnostics).toEqual(
      JSON.parse((await run(['lint', file, '--json'])).stdout)[0].diagnostics,
    );
    expect(result.code).toBe(0);
    // Nothing to fix: the file is left alone and nothing is said.
    const again = await run(['lint', file, '--fix']);
    expect(again.stderr).toBe('');
  });

  it('lint --fix keeps every byte it does not fix, and refuses standard input and URLs', async () => {
    const latin = Uint8Array.from([
      ...new TextEncoder().encode('User-agent: *\nDisalow: /caf'),
      0xe9,
      ...new TextEncoder().encode('\n'),
    ]);
    const file = write('latin.txt', latin);
    await run(['lint', file, '--fix']);
    expect([...readFileSync(file)]).toEqual([...new TextEncoder().encode('User-agent: *\nDisallow: /caf'), 0xe9, 10]);
    expect(await run(['lint', '-', '--fix'], { stdin: 'Disalow: /\n' })).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'robotskit: --fix writes the fixes into files: standard input cannot be fixed in place (save it to a file first)\n',
    });
    expect((await run(['lint', 'https://example.invalid/', '--fix'])).stderr).toBe(
      "robotskit: --fix writes the fixes into files: 'https://example.invalid/', a URL, cannot be fixed in place (save it to a file first)\n",
    );
  });

  it('format --write rewrites a file that changes, says so, and leaves a formatted one alone', async () => {
    const messy = write('write.txt', 'user-agent:*\ndisallow:/x\n');
    const expected = (await run(['format', messy])).stdout;
    expect(await run(['format', messy, '--write'])).toEqual({
      code: 0,
      stdout: `${messy}: reformatted\n`,
      stderr: '',
    });
    expect(readFileSync(messy, 'utf8')).toBe(expected);
    expect(await run(['format', messy, '--write'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await run(['format', messy, '--check'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await run(['format', '-', '--write'], { stdin: 'user-agent:*\n' })).stderr).toBe(
      'robotskit: --write rewrites a file: standard input has none to rewrite\n',
    );
    expect((await run(['format', messy, '--write', '--check'])).stderr).toBe(
      'robotskit: --check and --write ask for two things: give one\n',
    );
  });
});

describe('--quiet', () => {
  it('prints nothing on standard output; the exit status is the answer, errors still said', async () => {
    const typo = write('quiet.txt', 'user-agent:*\nAlow: /x\n');
    const cases: [string[], number][] = [
      [['lint', typo, '--quiet'], 1],
      [['lint', googlebotBlocked, '-q', '--json'], 0],
      [['explain', googlebotBlocked, 'https://example.com/x', '-q'], 1],
      [['test', googlebotBlocked, 'Googlebot', 'https://example.com/x', '--json', '-q'], 1],
      [['format', typo, '--check', '-q'], 1],
      [['diff', googlebotBlocked, typo, '-q'], 1],
    ];
    for (const [argv, code] of cases) {
      expect(await run(argv), argv.join(' ')).toEqual({ code, stdout: '', stderr: '' });
    }
    expect(await run(['lint', join(dir, 'missing.txt'), '-q'])).toEqual({
      code: 2,
      stdout: '',
      stderr: `robotskit: cannot read robots.txt file '${join(dir, 'missing.txt')}': no such file\n`,
    });
  });
});

describe('help', () => {
  it('gives the exit statuses of every command', async () => {
    const top = await run(['--help']);
    const commands = [...top.stdout.matchAll(/^ {2}([a-z]+) \[(?:options|command)\]/gm)]
      .map((m) => m[1]!)
      .filter((c) => c !== 'help');
    expect(commands).toEqual([
      'test',
      'explain',
      'lint',
      'check',
      'batch',
      'audit',
      'diff',
      'format',
      'generate',
      'crawlers',
      'sitemaps',
      'mcp',
      'logs',
      'serve',
      'worker',
    ]);
    expect(top.stdout).toContain('Exit status:');
    for (const command of commands) {
      const help = await run([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(/\nExit status:\n( {2}\d+ {2}\S.*\n)+/);
    }
  });
});

describe('one timeout, worded one way', () => {
  it('a sitemap that trickles past --timeout is cut short by the timeout, in the engine words, not at a limit', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      const timer = setInterval(() => res.write('<url><loc>http://127.0.0.1/page</loc></url>'), 50);
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sitemap.xml`;
      const result = await run(['sitemaps', '--sitemap', url, '--timeout', '0.5', '--scope', 'none']);
      expect(result.code).toBe(1);
      const [tree, problem] = result.stdout.split('\n');
      expect(tree).toMatch(/ urlset, \d+ URLs?, cut short: no complete response within 0\.5 s, 1 problem$/);
      expect(tree).not.toContain('limit');
      expect(problem).toBe(
        '  error: line 1: no complete response within 0.5 s: the rest of the file was not read [fetch-failed]',
      );
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

/**
 * `robotskit lint` on files and standard input: text like a compiler's, JSON, SARIF 2.1.0, the severity threshold and
 * exit codes, one-line errors. (URLs: lint-url.test.ts.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LINT_DOCS_BASE, LINT_RULES } from 'robotskit/lint';
import { describe, expect, it } from 'vitest';
import { artifactUri } from '../src/commands/lint.js';
import { SARIF_SCHEMA } from '../src/output/lint/sarif.js';
import { tempDir } from './cleanup.js';
import { run, spawn } from './helpers.js';

const dir = tempDir('lint');
const write = (name: string, content: string | Uint8Array): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

const problems = write('problems.txt', 'User-agent: *\nAlow: /x\nDisallow: /ä$ö\nSitemap: https://example.com/s.xml\n');
const clean = write('clean.txt', 'User-agent: *\nDisallow: /private/\nSitemap: https://example.com/s.xml\n');
const infoOnly = write('info.txt', 'User-agent: *\nDisallow: /private/\n');
const warningOnly = write('warning.txt', 'User-agent: *\nDisallow: /a$b\nSitemap: https://example.com/s.xml\n');

describe('robotskit lint: text', () => {
  it('prints each diagnostic like a compiler: location, severity, message, code, the line and a caret', async () => {
    const result = await run(['lint', problems]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(
      [
        `${problems}:2:1: error: Google ignores this line: "Alow" is not a field it knows (did you mean "Allow"?) [unknown-field]`,
        '2 | Alow: /x',
        '  | ^^^^',
        '  = fix: Replace "Alow" with "Allow"',
        '',
        // Crawlers following the 1994 convention decode escapes before comparing; Google does not.
        `${problems}:3:1: info: percent-encoding: Google compares \`/%C3%A4$%C3%B6\` (line 3) with URLs as written: \`%C3\`, \`%A4\`, \`%C3\`, \`%B6\` matches only the same escape, not the character it stands for. The 1994 convention decodes escapes in the rule and in the URL before comparing: \`/%C3%A4$%C3%B6\` matches the same URLs whether they spell those characters escaped or not. [dialect-difference]`,
        '3 | Disallow: /ä$ö',
        '  | ^^^^^^^^^^^^^^',
        '',
        `${problems}:3:13: warning: "$" anchors the end of the URL only as the last character of a pattern; in "/ä$ö" it is a literal "$", which URLs rarely contain [dollar-not-at-end]`,
        '3 | Disallow: /ä$ö',
        '  |             ^',
        '',
        `${problems}: 1 error, 1 warning, 1 info`,
        '',
      ].join('\n'),
    );
  });

  it('says so when there is nothing to report', async () => {
    expect(await run(['lint', clean])).toEqual({ code: 0, stdout: `${clean}: no problems found\n`, stderr: '' });
  });

  it('shows control characters visibly, keeps carets aligned, and cuts very long lines around the problem', async () => {
    const file = write('odd.txt', `User-agent: *\nDisallow: /a\u0000b\n\tAlow: /x\nDisallow: /${'a'.repeat(300)}$b\n`);
    const { stdout } = await run(['lint', file]);
    expect(stdout).toContain('2 | Disallow: /a\\x00b\n  |             ^^^^^\n');
    expect(stdout).toContain('3 |  Alow: /x\n  |  ^^^^\n');
    const long = stdout.split('\n').find((l) => l.startsWith('4 | '))!;
    expect(long.length).toBeLessThan(130);
    expect(long).toMatch(/^4 \| …a+\$b$/);
  });

  it('colours only on a TTY, and never with NO_COLOR', async () => {
    const plain = await run(['lint', problems], { tty: true });
    expect(plain.stdout).not.toContain('\u001b[');
    const coloured = await run(['lint', problems], { tty: true, env: { NO_COLOR: undefined } });
    expect(coloured.stdout).toContain('\u001b[31merror\u001b[39m');
    expect(coloured.stdout).toContain('\u001b[33mwarning\u001b[39m');
    const piped = await run(['lint', problems], { env: { NO_COLOR: undefined } });
    expect(piped.stdout).not.toContain('\u001b[');
  });

  it('reads standard input with -', async () => {
    const result = await run(['lint', '-'], { stdin: 'User-agent: *\nDisalow: /x\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('<stdin>:2:1: warning:');
  });
});

describe('robotskit lint: severity threshold and exit codes', () => {
  const cases: [string, string[], number][] = [
    ['clean file, default threshold', [clean], 0],
    ['clean file, info threshold', [clean, '--severity', 'info'], 0],
    ['info only, default threshold', [infoOnly], 0],
    ['info only, warning threshold', [infoOnly, '--severity', 'warning'], 0],
    ['info only, info threshold', [infoOnly, '--severity', 'info'], 1],
    ['a warning, default threshold', [warningOnly], 0],
    ['a warning, warning threshold', [warningOnly, '--severity', 'warning'], 1],
    ['an error, default threshold', [problems], 1],
    ['an error, JSON', [problems, '--format', 'json'], 1],
  ];
  for (const [name, args, code] of cases) {
    it(`${name}: exit ${code}`, async () => expect((await run(['lint', ...args])).code).toBe(code));
  }

  it('exits 2 with one line on usage and I/O errors, never a stack trace', async () => {
    const results = [
      await run(['lint']),
      await run(['lint', problems, '--format', 'xml']),
      await run(['lint', problems, '--severity', 'fatal']),
      await run(['lint', join(dir, 'missing.txt')]),
      await run(['lint', dir]),
      await run(['lint', 'ftp://example.com/robots.txt']),
      await run(['lint', 'http://[bad/robots.txt']),
      await run(['lint', 'http://127.0.0.1:9/robots.txt', '--timeout', 'soon']),
    ];
    for (const r of results) {
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(results[0]!.stderr).toContain("missing required argument 'robots'");
    expect(results[1]!.stderr).toContain("argument 'xml' is invalid. Allowed choices are text, json, sarif.");
    expect(results[2]!.stderr).toContain('Allowed choices are error, warning, info.');
    expect(results[3]!.stderr).toBe(
      `robotskit: cannot read robots.txt file '${join(dir, 'missing.txt')}': no such file\n`,
    );
    expect(results[4]!.stderr).toContain('it is a directory');
    expect(results[5]!.stderr).toBe(
      "robotskit: cannot fetch 'ftp://example.com/robots.txt': only http and https URLs are supported\n",
    );
    expect(results[6]!.stderr).toBe("robotskit: invalid URL 'http://[bad/robots.txt'\n");
    expect(results[7]!.stderr).toBe("robotskit: --timeout must be a positive number of seconds, not 'soon'\n");
  });

  it('works as an installed command', async () => {
    const result = await spawn(['lint', problems, '--format', 'json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)[0].diagnostics).toHaveLength(3);
  });
});

describe('robotskit lint --format json', () => {
  it('prints exactly the documented fields, with UTF-16 columns and the fixes, as an array of files even for one', async () => {
    const { stdout } = await run(['lint', problems, '--format', 'json']);
    expect(JSON.parse(stdout)).toEqual([
      {
        file: problems,
        diagnostics: [
          {
            code: 'unknown-field',
            severity: 'error',
            line: 2,
            column: 1,
            endLine: 2,
            endColumn: 5,
            message: 'Google ignores this line: "Alow" is not a field it knows (did you mean "Allow"?)',
            fix: {
              description: 'Replace "Alow" with "Allow"',
              edits: [{ line: 2, column: 1, endLine: 2, endColumn: 5, text: 'Allow' }],
            },
          },
          {
            code: 'dialect-difference',
            severity: 'info',
            line: 3,
            column: 1,
            endLine: 3,
            endColumn: 15,
            message:
              'percent-encoding: Google compares `/%C3%A4$%C3%B6` (line 3) with URLs as written: `%C3`, `%A4`, `%C3`, `%B6` matches only the same escape, not the character it stands for. The 1994 convention decodes escapes in the rule and in the URL before comparing: `/%C3%A4$%C3%B6` matches the same URLs whether they spell those characters escaped or not.',
            fix: null,
          },
          {
            code: 'dollar-not-at-end',
            severity: 'warning',
            line: 3,
            column: 13,
            endLine: 3,
            endColumn: 14,
            message:
              '"$" anchors the end of the URL only as the last character of a pattern; in "/ä$ö" it is a literal "$", which URLs rarely contain',
            fix: null,
          },
        ],
      },
    ]);
    for (const d of JSON.parse(stdout)[0].diagnostics) {
      expect(Object.keys(d)).toEqual(['code', 'severity', 'line', 'column', 'endLine', 'endColumn', 'message', 'fix']);
    }
  });

  it('gives the columns lint() gives for the decoded text, across a BOM, CRLF and astral characters', async () => {
    const text = '\uFEFFUser-agent: 𝒳bot\r\nDisallow: /😀$x\r\n';
    const file = write('astral.txt', text);
    const [{ diagnostics }] = JSON.parse((await run(['lint', file, '--format', 'json'])).stdout);
    const { lint } = await import('robotskit/lint');
    expect(diagnostics).toEqual(
      lint(text).map((d) => ({
        code: d.code,
        severity: d.severity,
        line: d.line,
        column: d.column,
        endLine: d.endLine,
        endColumn: d.endColumn,
        message: d.message,
        fix: d.fix === undefined ? null : expect.objectContaining({ description: d.fix.description }),
      })),
    );
  });
});

describe('robotskit lint --format sarif', () => {
  it('is a SARIF 2.1.0 log with every rule, its help URI, and results pointing at regions', async () => {
    const result = await run(['lint', problems, '--format', 'sarif']);
    expect(result.code).toBe(1);
    const log = JSON.parse(result.stdout);
    expect(log.version).toBe('2.1.0');
    expect(log.$schema).toBe(SARIF_SCHEMA);
    expect(log.runs).toHaveLength(1);
    const run0 = log.runs[0];
    expect(run0.tool.driver.name).toBe('robotskit');
    expect(run0.columnKind).toBe('utf16CodeUnits');
    const rules = run0.tool.driver.rules;
    expect(rules.map((r: { id: string }) => r.id)).toEqual(LINT_RULES.map((r) => r.code));
    for (const rule of rules) {
      expect(rule.helpUri).toBe(`${LINT_DOCS_BASE}${rule.id}.md`);
      expect(rule.shortDescription.text.length).toBeGreaterThan(0);
      expect(['error', 'warning', 'note']).toContain(rule.defaultConfiguration.level);
    }
    expect(run0.artifacts).toEqual([
      { location: { uri: expect.stringMatching(/^file:\/\/.*problems\.txt$/) }, length: 75, mimeType: 'text/plain' },
    ]);
    expect(run0.results).toHaveLength(3);
    const [first, info, second] = run0.results;
    expect(info).toMatchObject({ ruleId: 'dialect-difference', level: 'note' });
    expect(first).toMatchObject({
      ruleId: 'unknown-field',
      level: 'error',
      message: { text: expect.stringContaining('"Alow"') },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: run0.artifacts[0].location.uri, index: 0 },
            region: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 5 },
          },
        },
      ],
      fixes: [
        {
          description: { text: 'Replace "Alow" with "Allow"' },
          artifactChanges: [
            {
              replacements: [
                {
                  deletedRegion: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 5 },
                  insertedContent: { text: 'Allow' },
                },
              ],
            },
          ],
        },
      ],
    });
    expect(rules[first.ruleIndex].id).toBe('unknown-field');
    expect(second).toMatchObject({ ruleId: 'dollar-not-at-end', level: 'warning' });
    expect(rules[second.ruleIndex].id).toBe('dollar-not-at-end');
    expect(second.fixes).toBeUndefined();
  });

  it('maps info to note and names standard input and relative paths as relative URIs', async () => {
    const stdin = JSON.parse(
      (await run(['lint', '-', '--format', 'sarif'], { stdin: 'User-agent: *\nDisallow: /x' })).stdout,
    );
    expect(stdin.runs[0].artifacts[0].location.uri).toBe('stdin');
    expect(artifactUri(join('site', 'my robots.txt'))).toBe('site/my%20robots.txt');
    expect(artifactUri('/srv/site/robots.txt')).toBe('file:///srv/site/robots.txt');
    expect(stdin.runs[0].results.map((r: { ruleId: string; level: string }) => [r.ruleId, r.level])).toEqual([
      ['no-sitemap', 'note'],
    ]);
  });
});

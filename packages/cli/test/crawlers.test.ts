/**
 * `robotskit crawlers` and `robotskit crawlers update --from <robots.json>`, run as a process: the catalogue with its
 * purposes, the merge of a newer ai.robots.txt list into the user data file (and `generate` reading it), and bad input
 * as a one-line error with exit 2.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir, tracked } from './cleanup.js';
import { BIN, plainEnv, type RunResult } from './helpers.js';

const dir = tempDir('crawlers');
const shipped = join(dirname(fileURLToPath(import.meta.url)), '../../robotskit/data/ai-robots-txt/robots.json');

/**
 * Runs the real command with its data folder in `dataDir` (never the user's own); `xdg`: through XDG_DATA_HOME
 * instead of ROBOTSKIT_DATA_DIR.
 */
function robotskit(argv: string[], dataDir: string, input?: string, xdg = false): Promise<RunResult> {
  return new Promise((resolve) => {
    const env = plainEnv(xdg ? { XDG_DATA_HOME: dataDir } : { ROBOTSKIT_DATA_DIR: dataDir });
    delete env[xdg ? 'ROBOTSKIT_DATA_DIR' : 'XDG_DATA_HOME'];
    const child = tracked(
      execFile(process.execPath, [BIN, ...argv], { encoding: 'utf8', env }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 2) : 0, stdout, stderr });
      }),
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}

const write = (name: string, content: string): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** The shipped list with Scrapy removed, GPTBot's `respect` changed and two crawlers added. */
function newerList(): string {
  const json = JSON.parse(readFileSync(shipped, 'utf8')) as Record<string, Record<string, string>>;
  delete json.Scrapy;
  json.GPTBot = { ...json.GPTBot!, respect: 'No' };
  const entry = { operator: 'Example', respect: 'Yes', frequency: 'Daily', description: 'New.' };
  json.NewSearchBot = { ...entry, function: 'AI Search Crawlers' };
  json.NewTrainBot = { ...entry, function: 'AI Data Scrapers' };
  return JSON.stringify(json);
}

describe('robotskit crawlers', () => {
  it('lists the catalogue with purposes, operators, tokens and sources; --purpose filters', async () => {
    const data = join(dir, 'empty');
    const all = await robotskit(['crawlers'], data);
    expect(all.code).toBe(0);
    expect(all.stderr).toBe('');
    const lines = all.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^name +purpose +operator +tokens +source$/);
    expect(lines.find((l) => l.startsWith('Googlebot-Image '))).toMatch(
      /^Googlebot-Image +search-engine +Google +Googlebot-Image, Googlebot +https:\/\/developers\.google\.com\//,
    );
    expect(lines.find((l) => l.startsWith('Scrapy '))).toMatch(/^Scrapy +scraping-tool +Zyte /);

    const tokens = await robotskit(['crawlers', '--purpose', 'control-token'], data);
    expect(tokens.code).toBe(0);
    expect(
      tokens.stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((l) => l.split(/ +/)[0]),
    ).toEqual(['Google-Extended', 'Applebot-Extended']);

    const json = await robotskit(['crawlers', '--purpose', 'ai-search', '--json'], data);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout) as { aiRobotsTxt: unknown; crawlers: Record<string, unknown>[] };
    expect(doc.aiRobotsTxt).toBeNull();
    expect(doc.crawlers.every((c) => c.purpose === 'ai-search')).toBe(true);
    expect(doc.crawlers.find((c) => c.name === 'OAI-SearchBot')).toMatchObject({
      operator: 'OpenAI',
      tokens: ['OAI-SearchBot'],
      source: 'https://platform.openai.com/docs/bots',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      blocking: expect.stringContaining('removes you from ChatGPT search answers'),
    });
    expect(existsSync(data)).toBe(false);
  });

  it('refuses an unknown purpose with the known ones, exit 2', async () => {
    const r = await robotskit(['crawlers', '--purpose', 'robots'], join(dir, 'empty'));
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "robotskit: --purpose: unknown purpose 'robots' (known: search-engine, ai-training, ai-search, ai-assistant, control-token, seo-tool, archiver, preview, scraping-tool, other)\n",
    });
  });
});

describe('robotskit crawlers update', () => {
  it('merges a newer list into the user data file, says what changed, and every command reads it', async () => {
    const data = join(dir, 'merged');
    const from = write('newer.json', newerList());
    const r = await robotskit(['crawlers', 'update', '--from', from], data);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const file = join(data, 'ai-robots-txt.json');
    expect(r.stdout.split('\n').slice(0, 6)).toEqual([
      `merged '${from}' (167 crawlers) into ${file}: 2 added, 1 removed, 1 changed`,
      '  added    NewSearchBot (ai-search)',
      '  added    NewTrainBot (ai-training)',
      '  removed  Scrapy',
      "  changed  GPTBot: respect 'Yes' -> 'No'",
      'added crawlers have the purpose their ai.robots.txt category gives (robotskit crawlers lists them)',
    ]);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { updated: string; from: string; robots: object };
    expect(stored.from).toBe(from);
    expect(stored.updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Object.keys(stored.robots)).toContain('NewTrainBot');

    // The listing reads the merged list, and says so on standard error.
    const list = await robotskit(['crawlers', '--json'], data);
    expect(list.code).toBe(0);
    expect(list.stderr).toBe('');
    const doc = JSON.parse(list.stdout) as { aiRobotsTxt: unknown; crawlers: { name: string; date: string }[] };
    expect(doc.aiRobotsTxt).toEqual({ file, updated: stored.updated });
    const names = doc.crawlers.map((c) => c.name);
    expect(names).toContain('NewSearchBot');
    expect(names).not.toContain('Scrapy');
    expect(doc.crawlers.find((c) => c.name === 'NewTrainBot')?.date).toBe(stored.updated);
    const text = await robotskit(['crawlers', '--purpose', 'ai-training'], data);
    expect(text.stderr).toBe(`robotskit: with the ai.robots.txt list merged on ${stored.updated} (${file})\n`);
    expect(text.stdout).toMatch(
      /^NewTrainBot +ai-training +Example +NewTrainBot +https:\/\/github\.com\/ai-robots-txt/m,
    );

    // generate reads names and categories in the merged catalogue.
    const policy = write('policy.json', JSON.stringify({ groups: [{ crawlers: ['NewSearchBot'], disallow: ['/'] }] }));
    expect(await robotskit(['generate', policy], data)).toEqual({
      code: 0,
      stdout: 'User-agent: NewSearchBot\nDisallow: /\n',
      stderr: '',
    });

    // The same list again: no change; --json says the same as data.
    const again = await robotskit(['crawlers', 'update', '--from', from, '--json'], data);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ file, crawlers: 167, added: [], removed: [], changed: [] });
    // Back to the shipped list: the difference is said the other way round, the purposes as curated.
    const back = await robotskit(['crawlers', 'update', '--from', '-', '--json'], data, readFileSync(shipped, 'utf8'));
    expect(back.code).toBe(0);
    expect(JSON.parse(back.stdout)).toMatchObject({
      added: [{ name: 'Scrapy', purpose: 'scraping-tool' }],
      removed: ['NewSearchBot', 'NewTrainBot'],
      changed: [{ name: 'GPTBot', fields: [{ field: 'respect', before: 'No', after: 'Yes' }] }],
    });
  });

  it('--ua and diff know crawlers only the merged list has', async () => {
    const data = join(dir, 'ua');
    const robots = write('ua-robots.txt', 'User-agent: NewTrainBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n');
    const other = write('ua-other.txt', 'User-agent: NewTrainBot\nDisallow: /private/\n\nUser-agent: *\nAllow: /\n');
    // Before the merge: NewTrainBot is a bare token, and a typo of it is not caught.
    const before = await robotskit(['explain', robots, 'https://a.invalid/x', '--ua', 'NewTrainBot', '--json'], data);
    expect(before.code).toBe(1);
    expect((JSON.parse(before.stdout) as { crawler?: unknown }).crawler).toBeUndefined();
    expect((await robotskit(['explain', robots, 'https://a.invalid/x', '--ua', 'NewTrainBt'], data)).stderr).toBe('');

    expect((await robotskit(['crawlers', 'update', '--from', write('ua.json', newerList())], data)).code).toBe(0);
    const after = await robotskit(['explain', robots, 'https://a.invalid/x', '--ua', 'newtrainbot', '--json'], data);
    expect(after.code).toBe(1);
    expect(JSON.parse(after.stdout)).toMatchObject({ allowed: false, crawler: { name: 'NewTrainBot' } });
    const text = await robotskit(['explain', robots, 'https://a.invalid/x', '--ua', 'NewTrainBot'], data);
    expect(text.stdout).toContain('crawler   NewTrainBot (profile: NewTrainBot)');
    const typo = await robotskit(['explain', robots, 'https://a.invalid/x', '--ua', 'NewTrainBt'], data);
    expect(typo.code).toBe(0);
    expect(typo.stderr).toContain('did you mean NewTrainBot?');
    // diff: the merged crawlers are among the default ones, and --ua names them.
    const diff = await robotskit(['diff', robots, other, '--json'], data);
    expect(diff.code).toBe(1);
    const doc = JSON.parse(diff.stdout) as { crawlers: { crawler: string; equivalent: boolean }[] };
    expect(doc.crawlers.find((c) => c.crawler === 'NewTrainBot')?.equivalent).toBe(false);
    expect(doc.crawlers.some((c) => c.crawler === 'Scrapy')).toBe(false);
    const named = await robotskit(['diff', robots, other, '--ua', 'NewTrainBt'], data);
    expect(named.stderr).toContain('did you mean NewTrainBot?');
  });

  it('bad input is one line on standard error, exit 2, and writes nothing', async () => {
    const data = join(dir, 'bad');
    const cases: [string[], RegExp][] = [
      [
        ['--from', join(dir, 'missing.json')],
        /^robotskit: cannot read robots\.json file '.*missing\.json': no such file\n$/,
      ],
      [
        ['--from', write('bad.json', '{"GPTBot": ')],
        /^robotskit: '.*bad\.json' is not an ai\.robots\.txt robots\.json: not JSON: /,
      ],
      [
        ['--from', write('array.json', '[1]')],
        /is not an ai\.robots\.txt robots\.json: expected an object of crawlers by name/,
      ],
      [
        ['--from', write('shape.json', '{"GPTBot": {"operator": "OpenAI"}}')],
        /is not an ai\.robots\.txt robots\.json: "GPTBot": "respect" is missing\n$/,
      ],
      [['--from', write('latin1.json', '\u00e9')], /^robotskit: .* is not an ai\.robots\.txt robots\.json: not JSON/],
      [[], /^robotskit: required option '--from <robots\.json>' not specified\n/],
      [
        ['--from', shipped, '--purpose', 'ai-training'],
        /^robotskit: --purpose filters the list: crawlers update takes none\n$/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await robotskit(['crawlers', 'update', ...args], data);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stderr).not.toMatch(/\n {4}at /);
    }
    expect(existsSync(data)).toBe(false);
  });

  it('keeps the list under XDG_DATA_HOME/robotskit when ROBOTSKIT_DATA_DIR is not set', async () => {
    const data = join(dir, 'xdg');
    const r = await robotskit(['crawlers', 'update', '--from', shipped, '--json'], data, undefined, true);
    expect(r.code).toBe(0);
    const file = join(data, 'robotskit', 'ai-robots-txt.json');
    expect(JSON.parse(r.stdout)).toMatchObject({ file, added: [], removed: [], changed: [] });
    expect(existsSync(file)).toBe(true);
  });

  it('a damaged merged list is said, with how to mend it; update replaces it', async () => {
    const data = join(dir, 'damaged');
    await robotskit(['crawlers', 'update', '--from', shipped], data);
    writeFileSync(join(data, 'ai-robots-txt.json'), '{"updated": "2026-01-01", "robots": 3}');
    const r = await robotskit(['crawlers'], data);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^robotskit: the merged crawler list '.*ai-robots-txt\.json' is damaged \(expected an object of crawlers by name .*\): run robotskit crawlers update --from <robots\.json> again, or delete it to use the list the package ships\n$/,
    );
    const mended = await robotskit(['crawlers', 'update', '--from', shipped], data);
    expect(mended.code).toBe(0);
    expect(mended.stdout).toMatch(/: no change\n$/);
    expect((await robotskit(['crawlers'], data)).code).toBe(0);
  });
});

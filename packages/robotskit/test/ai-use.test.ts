/**
 * aiUse: what a file gives the catalogue's crawlers of each purpose (access, usage preferences, control tokens), in
 * sets of crawlers the groups select alike, with the words every surface shows.
 */

import { describe, expect, it } from 'vitest';
import { AI_PURPOSES, CRAWLER_PURPOSES, CRAWLERS, PURPOSE_WORDS, parseRobotsTxt } from '../src/index.js';
import { AI_USE_PURPOSES, aiUse } from '../src/semantics/index.js';

const DRAFT = [
  'User-Agent: *',
  'Allow: /',
  'Disallow: /never/',
  'Content-Usage: / train-ai=n',
  'Content-Usage: /ai-ok/ train-ai=y',
  '',
  'User-Agent: GPTBot',
  'Allow: /',
  'Content-Usage: / train-ai=y',
  '',
].join('\n');

function purpose(use: ReturnType<typeof aiUse>, name: string) {
  const found = use.purposes.find((p) => p.purpose === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found;
}

describe('aiUse', () => {
  it('covers every catalogue crawler of each purpose once, in sets the groups select alike', () => {
    const use = aiUse(parseRobotsTxt(DRAFT));
    expect(use.purposes.map((p) => p.purpose)).toEqual([...AI_USE_PURPOSES]);
    for (const p of use.purposes) {
      const names = p.sets.flatMap((s) => s.crawlers);
      expect(names).toHaveLength(p.crawlers);
      expect(new Set(names)).toEqual(new Set(CRAWLERS.filter((c) => c.purpose === p.purpose).map((c) => c.name)));
      expect(p.blocked + p.allowed + p.some).toBe(p.crawlers);
    }
    const training = purpose(use, 'ai-training');
    // GPTBot reads its own group; every other training crawler the * group.
    expect(training.sets.map((s) => [s.match, s.groupLines, s.crawlers.includes('GPTBot')])).toEqual([
      ['global', [1], false],
      ['specific', [7], true],
    ]);
  });

  it('gives the draft’s table: train-ai disallowed from /, allowed under /ai-ok/, nothing for /never/', () => {
    const training = purpose(aiUse(parseRobotsTxt(DRAFT)), 'ai-training');
    const [star, gpt] = training.sets;
    expect(star).toMatchObject({ access: 'some', blocked: [{ pattern: '/never/', line: 3 }], blockedTotal: 1 });
    expect(star!.text).toBe('some paths blocked: /never/ (line 3)');
    expect(star!.statements).toEqual([
      {
        source: 'content-usage',
        category: 'train-ai',
        value: 'disallow',
        pattern: '/',
        lines: [4],
        text: 'AI Training (train-ai): disallowed for / (line 4)',
      },
      {
        source: 'content-usage',
        category: 'train-ai',
        value: 'allow',
        pattern: '/ai-ok/',
        lines: [5],
        text: 'AI Training (train-ai): allowed for /ai-ok/ (line 5)',
      },
    ]);
    expect(gpt!.access).toBe('everything');
    expect(gpt!.statements.map((s) => s.text)).toEqual(['AI Training (train-ai): allowed for / (line 9)']);
    expect(training.text).toBe(
      `AI training: ${training.crawlers} crawlers: ${training.some} blocked on some paths, 1 allowed`,
    );
  });

  it('says a rule under a disallowed path applies to nothing, and rules of one length combine most restrictively', () => {
    const use = aiUse(
      parseRobotsTxt(
        'User-agent: *\nDisallow: /x/\nContent-Usage: /x/ train-ai=y\nContent-Usage: /a/ train-ai=y\nContent-Usage: /a/ train-ai=n, search=y\n',
      ),
      { purposes: ['ai-search'] },
    );
    const [set] = use.purposes[0]!.sets;
    expect(set!.notes).toEqual(['line 3 does not apply: the crawler may not fetch /x/']);
    expect(set!.statements.map((s) => s.text)).toEqual([
      'Search (search): allowed for /a/ (lines 4, 5)',
      'AI Training (train-ai): disallowed for /a/ (lines 4, 5)',
    ]);
  });

  it('reads Content-Signal beside the vocabulary: carried over where the use is the same, else as written', () => {
    const use = aiUse(
      parseRobotsTxt('User-agent: *\nContent-Signal: search=yes, ai-input=no, use=reference\nAllow: /\n'),
      {
        purposes: ['search-engine'],
      },
    );
    const [set] = use.purposes[0]!.sets;
    expect(set!.statements.map((s) => [s.source, s.category, s.value, s.lines])).toEqual([
      ['content-signal', 'search', 'allow', [2]],
      ['content-signal', 'content-signal:ai-input', 'no', [2]],
      ['content-signal', 'content-signal:use', 'reference', [2]],
    ]);
    expect(set!.statements[1]!.text).toMatch(
      /^Content-Signal ai-input=no \(line 2\): no vocabulary category of the same use \(ai-input is real-time input/,
    );
    expect(use.statesPreferences).toBe(true);
  });

  it('reads Content-Signal where the crawler may fetch, even where no rule names such a path', () => {
    // `/` is disallowed, and `/x` (the only path the rules name) too: `/*x$` is longer than `/*x`. `/xy` is allowed.
    const use = aiUse(
      parseRobotsTxt(
        'User-agent: *\nDisallow: /\nAllow: /*x\nDisallow: /*x$\nContent-Signal: ai-train=no, search=yes\n',
      ),
      { purposes: ['ai-training'] },
    );
    const [set] = use.purposes[0]!.sets;
    expect(set!.access).toBe('some');
    expect(set!.statements.map((s) => [s.source, s.category, s.value, s.lines])).toEqual([
      ['content-signal', 'train-ai', 'disallow', [5]],
      ['content-signal', 'search', 'allow', [5]],
    ]);
  });

  it('says what a control token’s group asks of the uses it governs, and a blocked crawler has no preferences', () => {
    const use = aiUse(
      parseRobotsTxt(
        'User-agent: *\nContent-Usage: / train-ai=n\nAllow: /\n\nUser-agent: Google-Extended\nUser-agent: GPTBot\nDisallow: /news/\nDisallow: /\n',
      ),
    );
    const tokens = purpose(use, 'control-token');
    // Each token is a set of its own (what each governs differs), even where they read the same groups.
    expect(tokens.sets.map((s) => s.crawlers)).toEqual([['Google-Extended'], ['Applebot-Extended']]);
    expect(tokens.sets[0]!.statements.filter((s) => s.source === 'control-token').map((s) => s.text)).toEqual([
      "training (Google-Extended, on what Google's crawlers fetch): disallowed for every URL (lines 7, 8)",
      "grounding (Google-Extended, on what Google's crawlers fetch): disallowed for every URL (lines 7, 8)",
    ]);
    expect(tokens.sets[1]!.statements.map((s) => s.text)).toEqual([
      'AI Training (train-ai): disallowed for / (line 2)',
      "training (Applebot-Extended, on what Apple's crawlers fetch): allowed (no rule disallows Applebot-Extended)",
    ]);
    const gpt = purpose(use, 'ai-training').sets.find((s) => s.crawlers.includes('GPTBot'))!;
    expect(gpt).toMatchObject({ access: 'nothing', statements: [], notes: [] });
    expect(gpt.text).toBe('blocked: every URL (lines 7, 8)');
  });

  it('without usage lines states nothing, and takes another catalogue and bounds', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
    const use = aiUse(robots, { crawlers: CRAWLERS.filter((c) => c.name === 'GPTBot'), purposes: ['ai-training'] });
    expect(use).toMatchObject({ statesPreferences: false, complete: true });
    expect(use.purposes[0]).toMatchObject({
      crawlers: 1,
      some: 1,
      text: 'AI training: 1 crawler: 1 blocked on some paths',
    });
    expect(use.purposes[0]!.sets[0]!.statements).toEqual([]);
    const cut = aiUse(parseRobotsTxt('User-agent: *\nDisallow: /*a*b*c*d\nAllow: /*e*f*g$\n'), {
      purposes: ['ai-search'],
      maxStates: 1,
    });
    expect(cut.complete).toBe(false);
    expect(cut.purposes[0]!.sets[0]!.text).toMatch(/\(the comparison was cut short: more may be blocked\)$/);
  });

  it('has words for every purpose, and the AI purposes are among them', () => {
    expect(Object.keys(PURPOSE_WORDS).sort()).toEqual([...CRAWLER_PURPOSES].sort());
    expect(AI_PURPOSES.every((p) => CRAWLER_PURPOSES.includes(p))).toBe(true);
    expect(PURPOSE_WORDS['ai-assistant']).toBe('user-triggered AI assistant');
  });

  it('reads a Content-Usage path as the matcher does: non-ASCII and escapes, not the text as written', () => {
    const file = new TextEncoder().encode(
      'User-Agent: *\nAllow: /\nContent-Usage: /caf\u00e9/ train-ai=n\nContent-Usage: /a%2fb train-ai=y\n',
    );
    const [set] = purpose(aiUse(parseRobotsTxt(file)), 'ai-training').sets;
    expect(set!.statements.map((s) => [s.category, s.value, s.pattern, s.lines])).toEqual([
      ['train-ai', 'allow', '/a%2Fb', [4]],
      ['train-ai', 'disallow', '/caf%C3%A9/', [3]],
    ]);
  });
});

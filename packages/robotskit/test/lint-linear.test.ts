/**
 * Lint work grows linearly with the file, for hostile shapes: long rules, many rules, many user-agents, long runs
 * of merged groups, many non-group lines. The service lints every fetched body, so a quadratic rule lets one site
 * freeze it (32 rules of 16,000 characters took seconds before the dialect-difference rule indexed prefixes).
 *
 * Work is counted, not timed: the string, array, map and regular-expression methods the rules read with are
 * instrumented, each call counting the characters or elements it passes over, so the figure does not depend on the
 * machine. Each shape is linted at two sizes ten times apart; linear work grows about ten times, quadratic a hundred.
 */
import { describe, expect, it } from 'vitest';
import { LINT_RULES, lint } from '../src/lint/index.js';

const rules = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join('\n');

const SHAPES: Record<string, (n: number) => string> = {
  'few long rules': (n) => `User-agent: *\n${rules(32, () => `Disallow: /${'x'.repeat(n / 32)}`)}`,
  'few long rules of both kinds': (n) =>
    `User-agent: *\n${rules(32, (i) => `${i % 2 ? 'Allow' : 'Disallow'}: /${'x'.repeat(n / 32 - i)}`)}`,
  'many short rules': (n) =>
    `User-agent: *\n${rules(n / 12, (i) => `${i % 2 ? 'Allow' : 'Disallow'}: /${i.toString(36)}`)}`,
  'many equal rules': (n) => `User-agent: *\n${'Disallow: /a\n'.repeat(n / 12)}`,
  'many empty rules': (n) => `User-agent: *\n${'Disallow:\n'.repeat(n / 10)}Disallow: /x\n`,
  'many wildcard rules': (n) => `User-agent: *\n${rules(n / 14, (i) => `Disallow: /*${i.toString(36)}*$`)}`,
  'one wildcard rule': (n) => `User-agent: *\nDisallow: /${'*a'.repeat(n / 2)}`,
  'user-agents, then Content-Usage lines': (n) =>
    `${rules(n / 32, (i) => `User-agent: a${i.toString(36)}`)}\nDisallow: /\n${'Content-Usage: / train-ai=y\n'.repeat(n / 56)}`,
  'groups of their own, then Content-Signal lines': (n) =>
    `${rules(n / 64, (i) => `User-agent: a${i}\nDisallow: /x`)}\nUser-agent: *\n${rules(n / 64, (i) => `User-agent: a${i}`)}\nDisallow: /\n${'Content-Signal: ai-train=yes\n'.repeat(n / 58)}`,
  'many user-agents': (n) => `${'User-agent: bot\n'.repeat(n / 16)}Disallow: /\n`,
  'many groups, one crawler': (n) => 'User-agent: a\nDisallow: /x\n'.repeat(n / 27),
  'many * groups': (n) => 'User-agent: *\nDisallow: /x\n\n'.repeat(n / 28),
  'blank lines in a group': (n) => `User-agent: *\n${'Disallow: /x\n\n'.repeat(n / 13)}`,
  'merged groups (crawl-delay only)': (n) => `${'User-agent: a\nCrawl-delay: 1\n'.repeat(n / 29)}Disallow: /\n`,
  'user-agents, then crawl-delays': (n) =>
    `${'User-agent: a\n'.repeat(n / 30)}${'Crawl-delay: 1\n'.repeat(n / 30)}Disallow: /\n`,
  'misspelt fields': (n) => 'Disalow: /x\n'.repeat(n / 12),
  'one long line': (n) => `Disallow: /${'a'.repeat(n)}`,
  'many sitemaps': (n) => 'Sitemap: https://a.invalid/s.xml\n'.repeat(n / 33),
  'percent escapes': (n) => `User-agent: *\nDisallow: /${'%aa'.repeat(n / 3)}`,
};

describe('lint is linear', () => {
  for (const [name, make] of Object.entries(SHAPES)) {
    it(`${name}: ten times the input, about ten times the work`, () => {
      const work = [10_000, 100_000].map((size) => countWork(() => lint(make(size))));
      expect(work[1]! / work[0]!).toBeLessThan(15);
    });
  }

  it('every rule runs on every shape (none is off)', () => {
    expect(LINT_RULES.length).toBeGreaterThan(30);
  });
});

/** Counts the characters and elements the linter passes over while `fn` runs. */
function countWork(fn: () => unknown): number {
  let work = 0;
  const patched: [object, string, unknown][] = [];
  const patch = <T extends object>(
    proto: T,
    name: string,
    cost: (self: never, args: never, result: unknown) => number,
  ) => {
    const original = (proto as Record<string, (...a: unknown[]) => unknown>)[name]!;
    patched.push([proto, name, original]);
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value: function (this: never, ...args: unknown[]) {
        const result = original.apply(this, args);
        work += 1 + cost(this, args as never, result);
        return result;
      },
    });
  };
  const own = (self: { length: number }) => self.length;
  const out = (_: unknown, __: unknown, result: unknown) => (result as { length: number }).length;
  // A search from a position passes over the characters from there to the hit (or to the end).
  patch(String.prototype, 'indexOf', (self: string, args: [string, number?], at) => {
    const from = args[1] ?? 0;
    return ((at as number) < 0 ? self.length : (at as number) + args[0].length) - from;
  });
  patch(String.prototype, 'lastIndexOf', (self: string, args: [string, number?], at) => {
    const from = args[1] ?? self.length;
    return from - ((at as number) < 0 ? 0 : (at as number));
  });
  patch(String.prototype, 'includes', (self: string, args: [string, number?]) => self.length - (args[1] ?? 0));
  for (const name of ['toLowerCase', 'toUpperCase', 'trim', 'split', 'match']) patch(String.prototype, name, own);
  for (const name of ['startsWith', 'endsWith']) patch(String.prototype, name, (_, args: string[]) => args[0]!.length);
  for (const name of ['slice', 'substring', 'repeat', 'padStart', 'padEnd']) patch(String.prototype, name, out);
  for (const name of ['charCodeAt', 'codePointAt']) patch(String.prototype, name, () => 0);
  for (const name of [
    'filter',
    'map',
    'some',
    'every',
    'find',
    'findIndex',
    'forEach',
    'includes',
    'indexOf',
    'join',
    'flatMap',
    'reduce',
  ])
    patch(Array.prototype, name, own);
  patch(Array.prototype, 'slice', out);
  for (const name of ['get', 'set', 'has']) {
    patch(Map.prototype, name, () => 0);
    patch(Set.prototype, name === 'set' ? 'add' : name, () => 0);
  }
  for (const name of ['exec', 'test'])
    patch(RegExp.prototype, name, (self: RegExp, args: string[]) => String(args[0]).length - (self.lastIndex ?? 0));
  try {
    fn();
  } finally {
    for (const [proto, name, original] of patched.reverse())
      Object.defineProperty(proto, name, { configurable: true, writable: true, value: original });
  }
  return work;
}

/**
 * compareRobots is sound for every alphabet: the characters no pattern contains are explored through a stand-in that
 * always exists, even when the patterns use every one of the 40 characters once tried as stand-ins (issue 33). Held to
 * a brute-force comparison of every path up to a length over small alphabets that include characters outside the
 * patterns, for both explorations (the one shipped and the plain reference).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { explainPath } from '../src/robots-txt/robots-txt.js';
import { compareRobotsWith } from '../src/semantics/compare.js';
import { compareRobots, type RobotsComparison } from '../src/semantics/index.js';
import { productOf } from '../src/semantics/product.js';
import { explorePlain } from './reference/explore-plain.js';

/** The 40 characters once tried, in turn, as the stand-in for all others. */
const FORMER_STAND_INS = 'xzqjkvwyabcdefghilmnoprstu0123456789-_~.';
/** A pattern that uses all 40: it takes each of them out of the stand-in's reach. */
const ALL_40 = `/${FORMER_STAND_INS}`;

/** Every path `/` + up to `max` characters of `alphabet`. */
function pathsOver(alphabet: readonly string[], max: number): string[] {
  let level = ['/'];
  const all = [...level];
  for (let n = 0; n < max; n++) {
    level = level.flatMap((p) => alphabet.map((c) => p + c));
    all.push(...level);
  }
  return all;
}

const verdict = (robots: ReturnType<typeof parseRobotsTxt>, path: string) => explainPath(robots, path, '*').allowed;

/** Paths of `paths` whose verdict differs between the two files, for any crawler (`*`). */
function bruteForce(before: string, after: string, paths: readonly string[]): string[] {
  const a = parseRobotsTxt(before);
  const b = parseRobotsTxt(after);
  return paths.filter((p) => verdict(a, p) !== verdict(b, p));
}

function check(before: string, after: string, paths: readonly string[], diff: RobotsComparison): void {
  const differing = bruteForce(before, after, paths);
  const [crawler] = diff.crawlers;
  expect(diff.complete).toBe(true);
  // Sound: a path decided differently is never missed.
  if (differing.length > 0) expect(diff.equivalent, `differs on ${differing.slice(0, 3).join(' ')}`).toBe(false);
  // Every witness is real.
  const a = parseRobotsTxt(before);
  const b = parseRobotsTxt(after);
  for (const region of crawler!.regions) {
    expect(verdict(a, region.witness), region.witness).not.toBe(verdict(b, region.witness));
    expect(region.change).toBe(verdict(b, region.witness) ? 'allowed' : 'blocked');
  }
  // A shortest witness is no longer than the shortest differing path brute force found.
  if (differing.length > 0) {
    const shortest = Math.min(...crawler!.regions.map((r) => r.witness.length));
    expect(shortest).toBeLessThanOrEqual(differing[0]!.length);
  }
}

describe('compareRobots over every alphabet', () => {
  it('finds the change on /A, /Z, /! when the patterns use all 40 former stand-ins (the repro of issue 33)', () => {
    // Every character a pattern writes (the 40 and `/`) is allowed alike after `/`; any other is not.
    const allows = [...`${FORMER_STAND_INS}/`].map((c) => `Allow: /${c}`).join('\n');
    const before = `User-agent: *\nDisallow: /\n${allows}\n`;
    const after = `User-agent: *\nDisallow: /$\n${allows}\n`;
    for (const path of ['/A', '/Z', '/!', '/%20', '/*']) {
      expect(verdict(parseRobotsTxt(before), path), path).toBe(false);
      expect(verdict(parseRobotsTxt(after), path), path).toBe(true);
    }
    const diff = compareRobots(before, after, { crawlers: ['*'] });
    expect(diff.equivalent).toBe(false);
    expect(diff.complete).toBe(true);
    const [region] = diff.crawlers[0]!.regions;
    expect(region).toMatchObject({ change: 'allowed', before: { pattern: '/', line: 2 }, after: null });
    expect(region!.witness).toMatch(/^\/[^xzqjkvwyabcdefghilmnoprstu0-9\-_~./]$/);
    check(before, after, pathsOver(['A', 'Z', '!', 'x', '/'], 2), diff);
  });

  it('finds a stand-in even when the patterns use every printable ASCII character', () => {
    let every = '';
    for (let c = 0x21; c <= 0x7e; c++) if (c !== 0x23 && c !== 0x2a) every += String.fromCharCode(c);
    // `$` is literal inside a pattern, and `#` starts a comment: both lines hold every such character.
    const rules = `Allow: /q${every}\nAllow: /q$${every}`;
    const before = `User-agent: *\nDisallow: /q\n${rules}\n`;
    const after = `User-agent: *\nDisallow: /q$\n${rules}\n`;
    const diff = compareRobots(before, after, { crawlers: ['*'] });
    expect(diff.equivalent).toBe(false);
    // `!` is written in a pattern but, right after `/q`, decided as before: the first shortest witness.
    expect(diff.crawlers[0]!.regions[0]!.witness).toBe('/q!');
    const rulesOf = (text: string) => parseRobotsTxt(text).groups[0]!.rules;
    expect(String.fromCharCode(productOf(rulesOf(before), rulesOf(after)).standIn)).toBe('*');
    check(before, after, pathsOver(['q', '*', 'A', '!'], 2), diff);
  });

  const patternChars = fc.constantFrom('a', 'b', '/', '*', '$', '!');
  const pattern = fc.array(patternChars, { maxLength: 4 }).map((cs) => `/${cs.join('')}`);
  const rules = fc.array(
    fc.tuple(fc.constantFrom('Allow', 'Disallow'), fc.oneof(pattern, pattern, fc.constant(ALL_40))),
    { maxLength: 5 },
  );
  const file = fc
    .tuple(rules, fc.boolean())
    .map(
      ([rs, all40]) =>
        `User-agent: *\n${rs.map(([k, v]) => `${k}: ${v}`).join('\n')}\n${all40 ? `Allow: ${ALL_40}\n` : ''}`,
    );
  // Brute force over the patterns' characters and characters no pattern contains (`A`, `Z`; `!` only sometimes).
  const paths = pathsOver(['a', 'b', '/', '$', '!', 'A', 'Z'], 4);

  it('never misses a path decided differently, and every witness is real, against brute force', () => {
    fc.assert(
      fc.property(file, file, (before, after) => {
        check(before, after, paths, compareRobots(before, after, { crawlers: ['*'] }));
        check(before, after, paths, compareRobotsWith(explorePlain, before, after, { crawlers: ['*'] }));
      }),
      { numRuns: 150 },
    );
  });
});

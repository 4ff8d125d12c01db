/**
 * Google's public conformance suite (google/robotstxt-spec-test): all 400 cases, read from the data file.
 */
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt } from '../src/index.js';
import { specCases } from './helpers.js';

const cases = specCases();

describe('google/robotstxt-spec-test', () => {
  it('has all 400 cases', () => {
    expect(cases).toHaveLength(400);
  });

  for (const c of cases) {
    it(`#${c.id} ${c.suite} (${c.test_type}) ${c.user_agent} ${c.url}`, () => {
      const robots = parseRobotsTxt(Buffer.from(c.robots_b64, 'base64'));
      const verdict = robots.isAllowed(c.url, c.user_agent) ? 'allowed' : 'disallowed';
      expect(verdict, c.explanation).toBe(c.expected);
      expect(robots.explain(c.url, c.user_agent).allowed).toBe(verdict === 'allowed');
    });
  }
});

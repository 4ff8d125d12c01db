/**
 * The `ai-policy-changed` alert: what an edit changes for AI crawlers and AI uses, apart from the general change
 * alert. Two facts, both the engine's: which AI crawlers (the catalogue's purposes: AI training, AI search, AI
 * assistants, control tokens such as Google-Extended) that either file names in a group of their own now decide some
 * URL differently (the meaning check's exact
 * comparison, `compareRobots`), and which AI usage preferences changed (`usageChanges`: `Content-Usage` rules and
 * `Content-Signal` lines, per crawler, found exactly within the meaning check's bounds). A blocked AI search crawler
 * takes the site out of that product's answers: a warning; every other AI policy change is information.
 */

import {
  AI_PURPOSES as AI_PURPOSE_LIST,
  ANY_CRAWLER,
  CRAWLERS,
  type CrawlerPurpose,
  type RobotsTxt,
  resolveCrawler,
} from 'robotskit';
import { type UsageChange, usageChanges } from 'robotskit/semantics';
import { MEANING_MAX_STATES, MEANING_TIMEOUT_MS, type MeaningChange } from '../analysis/meaning.js';
import type { AlertSeverity } from '../storage/alert-kinds.js';

/** The purposes whose crawlers an AI policy is about (the engine's list). */
const AI_PURPOSES: ReadonlySet<CrawlerPurpose> = new Set(AI_PURPOSE_LIST);

const PURPOSE_WORDS: Readonly<Record<string, string>> = {
  'ai-training': 'AI training',
  'ai-search': 'AI search',
  'ai-assistant': 'AI assistant',
  'control-token': 'control token',
};

/** Changes said in the message; the details keep up to {@link DETAIL_CHANGES}. */
const SAID = 4;
const DETAIL_CHANGES = 50;

/** The purpose of a crawler the meaning check named, when it is an AI one. */
function aiPurposeOf(name: string): CrawlerPurpose | null {
  if (name === ANY_CRAWLER) return null;
  const purpose = resolveCrawler(name).profile?.purpose ?? null;
  return purpose !== null && AI_PURPOSES.has(purpose) ? purpose : null;
}

/** `*` and the AI crawlers either file names in a group (by any of their tokens). */
function usageCrawlers(files: readonly RobotsTxt[]): string[] {
  const named = new Set<string>();
  for (const file of files) {
    for (const group of file.groups) for (const agent of group.agents) named.add(agent.token.toLowerCase());
  }
  const chosen = [ANY_CRAWLER];
  for (const profile of CRAWLERS) {
    if (!AI_PURPOSES.has(profile.purpose)) continue;
    if (profile.tokens.some((t) => named.has(t.toLowerCase()))) chosen.push(profile.name);
  }
  return chosen;
}

function who(crawler: string): string {
  return crawler === ANY_CRAWLER ? 'other crawlers (*)' : crawler;
}

function usageText(c: UsageChange): string {
  const what = c.category.startsWith('content-signal:') ? `Content-Signal ${c.category.slice(15)}` : c.category;
  const value = (v: string | null) =>
    v === null ? 'unstated' : v === 'allow' ? 'allowed' : v === 'disallow' ? 'disallowed' : v;
  const lines = c.linesAfter.length > 0 ? ` (line ${c.linesAfter.join(', ')})` : '';
  return `${what} ${value(c.before)} → ${value(c.after)} at ${c.path} for ${who(c.crawler)}${lines}`;
}

/** An `ai-policy-changed` alert's parts, or null when the edit changes nothing for AI crawlers or AI uses. */
export function aiPolicyChange(
  before: RobotsTxt,
  after: RobotsTxt,
  meaning: MeaningChange | null,
): { message: string; details: Record<string, unknown>; severity: AlertSeverity } | null {
  const changes = (meaning?.details.changes ?? []) as {
    crawler: string;
    examples: { change: 'blocked' | 'allowed'; pattern: string }[];
  }[];
  // The AI crawlers either file names: one that follows `*` changes with everyone, which the change alert says.
  const named = usageCrawlers([before, after]);
  const own = new Set(named.map((n) => n.toLowerCase()));
  const crawlers = changes
    .filter((c) => own.has(c.crawler.toLowerCase()))
    .map((c) => ({ ...c, purpose: aiPurposeOf(c.crawler) }))
    .filter((c): c is typeof c & { purpose: CrawlerPurpose } => c.purpose !== null);
  // Within the meaning check's bounds: an alert is made while the fetch that brought the file is being recorded.
  const usage = usageChanges(before, after, named, { maxStates: MEANING_MAX_STATES, timeoutMs: MEANING_TIMEOUT_MS });
  if (crawlers.length === 0 && usage.length === 0) return null;
  const said = [
    ...crawlers.map((c) => {
      const blocked = c.examples.filter((e) => e.change === 'blocked').map((e) => e.pattern);
      const allowed = c.examples.filter((e) => e.change === 'allowed').map((e) => e.pattern);
      const parts = [
        blocked.length > 0
          ? `now blocks ${blocked[0]}${blocked.length > 1 ? ` and ${blocked.length - 1} more` : ''}`
          : null,
        allowed.length > 0
          ? `now allows ${allowed[0]}${allowed.length > 1 ? ` and ${allowed.length - 1} more` : ''}`
          : null,
      ].filter((p) => p !== null);
      return `${c.crawler} (${PURPOSE_WORDS[c.purpose]}) ${parts.join(', ') || 'decides differently'}`;
    }),
    ...usage.map(usageText),
  ];
  const more = said.length > SAID ? `; and ${said.length - SAID} more` : '';
  const searchBlocked = crawlers.some(
    (c) => c.purpose === 'ai-search' && c.examples.some((e) => e.change === 'blocked'),
  );
  return {
    message: `AI policy changed: ${said.slice(0, SAID).join('; ')}${more}`,
    details: {
      crawlers: crawlers.map((c) => ({ crawler: c.crawler, purpose: c.purpose, examples: c.examples })),
      usage: usage.slice(0, DETAIL_CHANGES),
      usageChanges: usage.length,
    },
    severity: searchBlocked ? 'warning' : 'info',
  };
}

/**
 * Two test projects, both run by `npm test` (`vitest run`):
 * - `unit`: the engine's logic, parsers, formats and pure modules; no socket, no process (test/unit-guard.ts makes
 *   listening, connecting and spawning throw there), so `npx vitest run --project unit` answers in seconds;
 * - `integration`: what needs real parts: servers on 127.0.0.1, SQLite and PostgreSQL, Redis, vsftpd, Chromium, the
 *   command as a process, the real-world corpus.
 * - `alone`: the files whose claim is a wait time (the load-and-fault suite: `/api/health` within 500 ms while the
 *   service is attacked). The claim is about the service, not about how busy the machine is with other test files, so
 *   `npm test` (`scripts/test.mjs`) runs this project by itself after the others have ended.
 * A test file is a unit test unless it is listed in INTEGRATION or ALONE.
 * Every run gets a temporary folder of its own and fails when a test leaves anything in it (test/tmp-guard.ts).
 *
 * Four test files at a time: most integration files wait on processes, servers, databases and browsers rather than
 * compute (a whole run kept 0.8 of this 2-core machine busy with Vitest's default, which ran about one file at a
 * time: 1,031 s; three at a time: 593 s locally, 676 s in CI with the package checks beside it), so more files overlap
 * their waits. The tests never depend on speed, so the busier machine only makes them slower, not different.
 */

import { defineConfig } from 'vitest/config';

const INTEGRATION = [
  // The engine: fetching over real servers and FTP, the real-world corpus, the CLI as a process.
  'packages/robotskit/test/corpus.test.ts',
  'packages/robotskit/test/crawlers.test.ts',
  'packages/robotskit/test/dialect-differences.test.ts',
  'packages/robotskit/test/legacy-dialect.test.ts',
  'packages/robotskit/test/lint-corpus.test.ts',
  'packages/robotskit/test/fetch/access.test.ts',
  'packages/robotskit/test/fetch/client.test.ts',
  'packages/robotskit/test/fetch/fleet.test.ts',
  'packages/robotskit/test/fetch/hostile.test.ts',
  'packages/robotskit/test/fetch/outcome-words.test.ts',
  'packages/robotskit/test/fetch/retrieve.test.ts',
  'packages/robotskit/test/fetch/transport.test.ts',
  'packages/robotskit/test/fetch/ftp.test.ts',
  // The command, the service, the stores, the sitemaps reader and the UI: processes, servers, databases, browsers.
  'packages/cli/test/**/*.test.ts',
  'packages/server/test/**/*.test.ts',
  'packages/stores/test/**/*.test.ts',
  'packages/sitemaps/test/**/*.test.ts',
  'packages/web/test/browser/**/*.test.ts',
];

/** Files that measure wait times: run by themselves (see the header). */
const ALONE = ['packages/cli/test/load-fault.test.ts'];

export default defineConfig({
  test: {
    maxWorkers: 4,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['test/tmp-guard.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['packages/*/test/**/*.test.ts'],
          exclude: [...INTEGRATION, ...ALONE],
          setupFiles: ['test/unit-guard.ts'],
        },
      },
      { extends: true, test: { name: 'integration', include: INTEGRATION, exclude: ALONE } },
      { extends: true, test: { name: 'alone', include: ALONE } },
    ],
  },
});

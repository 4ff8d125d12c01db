// One crawler process of the fleet tests and the fleet bench (run with node on the built packages): asks about every
// origin given at once through a shared store, with the client's default fleet settings unless the job gives some,
// then prints its answers, counters and the store failures it was told of as one JSON line.
import { createRobotsClient } from 'robotskit/fetch';
import { createPostgresRobotsStore, createRedisRobotsStore } from 'robotskit-stores';

const job = JSON.parse(process.argv[2]);
const store =
  job.kind === 'redis'
    ? await createRedisRobotsStore({
        url: job.url,
        keyPrefix: job.keyPrefix,
        ...(job.storeTimeoutMs ? { commandTimeoutMs: job.storeTimeoutMs } : {}),
      })
    : await createPostgresRobotsStore({
        url: job.url,
        schema: job.schema,
        ...(job.storeTimeoutMs ? { queryTimeoutMs: job.storeTimeoutMs } : {}),
      });
const storeErrors = [];
const client = createRobotsClient({
  userAgent: 'FleetBot',
  store,
  onStoreError: (error, operation, origin) => storeErrors.push(`${operation} ${origin}: ${error}`),
  ...(job.fleet ? { fleet: job.fleet } : {}),
  ...(job.timeouts ? { retrieval: { timeouts: job.timeouts } } : {}),
});
process.stdout.write('ready\n');
const started = performance.now();
// Each answer that is not what a healthy site's file says (/private/page blocked, /page allowed), with why.
const wrong = [];
const answer = (origin, path, expected) =>
  client.explain(`${origin}${path}`).then((v) => {
    if (v.allowed !== expected) {
      const { mode, reason } = v.policy;
      const { outcome, status, fetchedAt, body } = v.latest;
      const text = body && Buffer.from(body).toString();
      wrong.push({ origin, path, mode, reason, outcome, status, fetchedAt, line: v.line, body: text });
    }
    return v.allowed;
  });
const answers = await Promise.all(
  job.origins.flatMap((origin) => [answer(origin, '/private/page', false), answer(origin, '/page', true)]),
);
// Why an origin is not under its file's rules (from memory: no fetch): policy, latest outcome, status, error kind.
const failures = {};
for (const origin of job.origins) {
  const { policy, latest } = await client.policyFor(origin);
  if (policy.mode === 'rules') continue;
  const why = `${policy.mode} ${policy.reason}: ${latest.outcome} ${latest.status} ${latest.error?.kind ?? ''}`;
  failures[why] = (failures[why] ?? 0) + 1;
}
process.stdout.write(
  `${JSON.stringify({ failures, wrong: wrong.slice(0, 3), answers, stats: client.stats(), storeErrors, ms: Math.round(performance.now() - started), cpuMs: Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000) })}\n`,
);
await store.close();

// One crawler process of the fleet tests (run with node on the built packages): asks about every origin given at once
// through a shared store, then prints its answers and counters as one JSON line.
import { createRobotsClient } from 'robotskit/fetch';
import { createPostgresRobotsStore, createRedisRobotsStore } from 'robotskit-stores';

const job = JSON.parse(process.argv[2]);
const store =
  job.kind === 'redis'
    ? await createRedisRobotsStore({ url: job.url, keyPrefix: job.keyPrefix })
    : await createPostgresRobotsStore({ url: job.url, schema: job.schema });
const client = createRobotsClient({
  userAgent: 'FleetBot',
  store,
  fleet: {
    pollMs: 20,
    ...(job.leaseMs ? { leaseMs: job.leaseMs } : {}),
    ...(job.waitMs ? { waitMs: job.waitMs } : {}),
  },
});
process.stdout.write('ready\n');
const answers = await Promise.all(
  job.origins.flatMap((origin) => [client.isAllowed(`${origin}/private/page`), client.isAllowed(`${origin}/page`)]),
);
process.stdout.write(`${JSON.stringify({ answers, stats: client.stats() })}\n`);
await store.close();

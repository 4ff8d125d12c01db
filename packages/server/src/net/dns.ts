/**
 * The DNS the crawler activity's verifier asks (forward-confirmed reverse DNS, `robotskit/logs`' `Verifier`):
 * node:dns's `Resolver`, one try per question, asking the given servers (`host:port`) or the system's.
 */

import { Resolver } from 'node:dns/promises';
import type { Dns } from 'robotskit/logs';

/** A resolver asking `servers` (the system's when empty), each question bounded by `timeoutMs`. */
export function dnsResolver(servers: readonly string[], timeoutMs: number): Dns {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

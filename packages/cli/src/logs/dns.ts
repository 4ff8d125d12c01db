/**
 * The DNS the engine's `Verifier` (`robotskit/logs`) asks for forward-confirmed reverse DNS: node:dns's `Resolver`,
 * one try per question, bounded by `--dns-timeout`, asking `--dns-server` or the system's servers.
 */

import { Resolver } from 'node:dns/promises';
import type { Dns } from 'robotskit/logs';
import { CliError } from '../io.js';

/**
 * A resolver asking `server` (`host:port`, `[v6]:port` or a bare address), or the system's servers; a server that is
 * not an address is a usage error naming `flag`, the option it came from.
 */
export function dnsResolver(server: string | undefined, timeoutMs: number, flag = '--dns-server'): Dns {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (server !== undefined) {
    try {
      resolver.setServers([server]);
    } catch {
      throw new CliError(`${flag} must be an address with an optional port (127.0.0.1:5353), not '${server}'`);
    }
  }
  return resolver;
}

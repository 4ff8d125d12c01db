/**
 * Said when a property is added (and on its page) if its sites are on addresses this service does not fetch: a
 * loopback or private address typed as a URL prefix (`http://127.0.0.1:18720/`, `http://localhost:3000/`), on a
 * service started without `--allow-private-addresses`. The fetches would all be refused, and the files shown as
 * "Disallow all"; the notice says why and what to do. Names that resolve to such addresses are only known when
 * fetched: the file's status says so then.
 */

import { isIP } from 'node:net';
import { AddressPolicy } from '../net/address-policy.js';

/** Why `hosts` (host or host:port, as stored) cannot be fetched by this service, or null when nothing is known. */
export function privateAddressNotice(hosts: readonly string[], privateAddressesAllowed: boolean): string | null {
  if (privateAddressesAllowed) return null;
  const policy = new AddressPolicy({ allowPrivate: false });
  for (const host of hosts) {
    const name = host.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
    const address = name.toLowerCase() === 'localhost' ? '127.0.0.1' : isIP(name) !== 0 ? name : null;
    if (address === null) continue;
    const refusal = policy.check(address);
    if (refusal === null) continue;
    return (
      `${host} is ${refusal.description}. This service does not fetch loopback or private networks, so that ` +
      'nobody can use it to reach them: its robots.txt files will show as not fetched. To watch local sites, start ' +
      'the service with --allow-private-addresses.'
    );
  }
  return null;
}

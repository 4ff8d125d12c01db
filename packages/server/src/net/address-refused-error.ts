/**
 * The refusal to connect to a forbidden address. It extends `TypeError` because that is what `fetch` rejects with
 * for network failures, so callers written against the WHATWG contract keep working; callers that care test for
 * this class (or `code === 'address-refused'`). Also the check of a connected socket's peer, which HTTP and FTP share.
 */

import type { AddressPolicy } from './address-policy.js';

/** A connection refused by the address policy (SSRF protection). */
export class AddressRefusedError extends TypeError {
  /** Stable code for logs and stored fetch errors. */
  readonly code = 'address-refused';

  constructor(
    /** The host as requested (a name or an IP literal). */
    readonly host: string,
    /** The address it resolved to that was refused. */
    readonly address: string,
    /** The special-use range of ipaddr.js (`loopback`, `private`, `linkLocal`…). */
    readonly range: string,
    description: string,
  ) {
    super(
      host === address
        ? `refused to connect to ${address}: ${description}`
        : `refused to connect to ${host}: it resolves to ${address}, ${description}`,
    );
    this.name = 'AddressRefusedError';
  }
}

/**
 * The refusal for a connected socket's peer, or null. A socket that reports no peer address (it closed meanwhile,
 * or is not an IP socket) is refused too: an unchecked connection must not be used.
 */
export function peerRefusal(
  policy: AddressPolicy,
  host: string,
  socket: { readonly remoteAddress?: string | undefined },
): AddressRefusedError | null {
  const peer = socket.remoteAddress;
  if (peer === undefined || peer === '') {
    return new AddressRefusedError(host, '(unknown)', 'invalid', 'a connection whose peer address is unknown');
  }
  const refusal = policy.check(peer);
  return refusal ? new AddressRefusedError(host, peer, refusal.range, refusal.description) : null;
}

/**
 * Which IP addresses the service may connect to when it fetches a host a user typed. Only global unicast addresses
 * are allowed by default; every special-use range (loopback, RFC 1918, CGNAT, link-local with the cloud metadata
 * address, ULA, multicast, broadcast, unspecified, documentation, benchmarking, reserved, NAT64/6to4/Teredo forms
 * that embed an IPv4 address…) is refused. IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 * Range classification comes from ipaddr.js (the IANA special-purpose registries, kept up to date there); on top of
 * it, an IPv6 address is global unicast only inside 2000::/3 (RFC 4291): ipaddr.js calls every address it has no
 * range for `unicast`, which would let through the deprecated IPv4-compatible form `::127.0.0.1` (routed to the
 * embedded IPv4 address on hosts with automatic tunnels) and the unassigned rest of the space.
 */

import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Ranges `allowPrivate` lets through: a private network's own servers. Link-local (metadata) stays refused. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'carrierGradeNat', 'uniqueLocal']);

/**
 * Cloud instance-metadata (and instance-service) addresses outside link-local: refused even with `allowPrivate`,
 * which would otherwise open them as ULA or CGNAT addresses. The link-local ones (169.254.169.254 for AWS, Azure,
 * GCP, Oracle, OpenStack; 169.254.170.2 for ECS task credentials; fe80::…) are refused as link-local already.
 * Only an `allowAddresses` entry naming the exact address opens one.
 */
const METADATA: readonly [range: string, bits: number, name: string][] = [
  ['fd00:ec2::', 64, 'the AWS instance metadata (IPv6)'],
  ['100.100.100.200', 32, 'the Alibaba Cloud instance metadata'],
];
const METADATA_RANGES = METADATA.map(([range, bits, name]) => [ipaddr.parse(range), bits, name] as const);

/** Words for a range name of ipaddr.js, for error messages. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified',
  broadcast: 'a broadcast',
  multicast: 'a multicast',
  linkLocal: 'a link-local (or cloud metadata)',
  loopback: 'a loopback',
  carrierGradeNat: 'a carrier-grade NAT (100.64.0.0/10)',
  private: 'a private (RFC 1918)',
  uniqueLocal: 'a unique local (fc00::/7)',
  reserved: 'a reserved (documentation, benchmarking or future use)',
  rfc6052: 'a NAT64 (64:ff9b::/96)',
  rfc6145: 'an IPv4-translated',
  '6to4': 'a 6to4 (2002::/16)',
  teredo: 'a Teredo (2001::/32)',
  discard: 'a discard-only (100::/64)',
  ipv4Compatible: 'an IPv4-compatible (::/96, deprecated)',
  unassigned: 'an IPv6 (outside global unicast 2000::/3)',
  invalid: 'an invalid',
};

/** Options of {@link AddressPolicy}. */
export interface AddressPolicyOptions {
  /**
   * Also allow loopback, private (RFC 1918), CGNAT and unique local addresses: for a service that watches its own
   * network, and for tests against local servers. Link-local (169.254.0.0/16, fe80::/10, the metadata address),
   * the cloud metadata addresses inside those ranges (fd00:ec2::/64, 100.100.100.200) and the other special ranges
   * stay refused.
   * @default false
   */
  readonly allowPrivate?: boolean;
  /**
   * Addresses or CIDR ranges allowed whatever their kind (`127.0.0.1`, `10.1.0.0/16`, `::1`).
   * @default []
   */
  readonly allowAddresses?: readonly string[];
}

/** The verdict on one address: null when allowed, else the range it belongs to and words for it. */
interface AddressRefusal {
  readonly range: string;
  readonly description: string;
}

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** The range of an address: ipaddr.js's name, with IPv6 `unicast` narrowed to 2000::/3. */
function rangeOf(address: Parsed): string {
  const range = address.range();
  if (range !== 'unicast' || address.kind() === 'ipv4') return range;
  const v6 = address as ipaddr.IPv6;
  if (v6.match(GLOBAL_UNICAST_V6)) return range;
  return v6.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : 'unassigned';
}

function unmap(address: Parsed): Parsed {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/** Decides whether the service may connect to an address. */
export class AddressPolicy {
  readonly #allowPrivate: boolean;
  readonly #allowed: [Parsed, number][];
  /** The single addresses of `allowAddresses` (what opens a metadata address). */
  readonly #exact: Set<string>;

  constructor(options: AddressPolicyOptions = {}) {
    this.#allowPrivate = options.allowPrivate ?? false;
    this.#allowed = (options.allowAddresses ?? []).map((entry) => {
      if (entry.includes('/')) return ipaddr.parseCIDR(entry);
      const address = unmap(ipaddr.parse(entry));
      return [address, address.kind() === 'ipv4' ? 32 : 128];
    });
    this.#exact = new Set(
      this.#allowed
        .filter(([a, bits]) => bits === (a.kind() === 'ipv4' ? 32 : 128))
        .map(([a]) => a.toNormalizedString()),
    );
  }

  /** Null when `address` (an IP literal) may be connected to; otherwise why not. */
  check(address: string): AddressRefusal | null {
    if (isIP(address) === 0) return { range: 'invalid', description: `${RANGE_WORDS.invalid} address` };
    const parsed = unmap(ipaddr.parse(address));
    const metadata = METADATA_RANGES.find(
      ([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits),
    );
    if (metadata !== undefined && !this.#exact.has(parsed.toNormalizedString())) {
      return { range: 'metadata', description: `${metadata[2]} address (${parsed})` };
    }
    if (this.#allowed.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return null;
    const range = rangeOf(parsed);
    if (range === 'unicast') return null;
    if (this.#allowPrivate && PRIVATE_RANGES.has(range)) return null;
    const words = RANGE_WORDS[range] ?? `a special-use (${range})`;
    const mapped = parsed.toString() !== address.replace(/^\[|\]$/g, '').toLowerCase() ? ` (${parsed})` : '';
    return { range, description: `${words} address${mapped}` };
  }
}

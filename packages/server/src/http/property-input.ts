/**
 * What a user types as a property, validated and put in canonical form. Two kinds, as in Search Console:
 * - a domain (`example.com`, `bücher.de`, `m.example.com`): every host of the domain; watched are the domain itself
 *   and its `www.` host (plus hosts added later), each over http and https;
 * - a host-level URL prefix (`https://example.com/`, `http://127.0.0.1:8080/`, `ftp://ftp.example.com/`): exactly one
 *   origin (robots.txt is read over FTP as Google reads it: an anonymous login and `RETR /robots.txt`).
 * Names are converted to punycode (IDNA, by the WHATWG URL parser), lowercased; paths other than `/`, queries,
 * fragments, credentials and schemes other than http, https and ftp are refused with a message that says what to
 * type instead.
 * A domain must be one that can be registered: a public suffix itself (`co.uk`, `github.io`), as the Public Suffix
 * List (tldts) names them, ICANN's and private ones alike, is refused.
 */

import { parse as parseDomainName } from 'tldts';
import { RobotskitServerError } from '../errors.js';
import type { HostSource, PropertyKind, RobotsScheme } from '../storage/schema.js';

/** A validated property. */
interface PropertyInput {
  readonly kind: PropertyKind;
  /** Canonical name: `example.com` or `https://example.com/`. */
  readonly name: string;
  /** The hosts to watch at first, most important first. */
  readonly hosts: readonly { readonly host: string; readonly source: HostSource }[];
  /** The schemes watched for every host: both for a domain, the prefix's own for a URL prefix. */
  readonly schemes: readonly RobotsScheme[];
}

/** A property the user typed that cannot be watched; `message` says why and what to do. */
export class PropertyInputError extends RobotskitServerError {
  declare readonly code: 'invalid-property';
  constructor(message: string) {
    super('invalid-property', message);
  }
}

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Checks a punycode hostname is a domain name with at least two labels (not an IP address). */
function checkDomainName(hostname: string, typed: string): void {
  if (hostname.startsWith('[') || IPV4.test(hostname)) {
    throw new PropertyInputError(
      `'${typed}' is an IP address, not a domain; watch it as a URL prefix such as http://${hostname}/`,
    );
  }
  const labels = hostname.split('.');
  if (labels.length < 2 || hostname.length > 253 || !labels.every((label) => LABEL.test(label))) {
    throw new PropertyInputError(
      `'${typed}' is not a domain name; type a name such as example.com, or a URL prefix such as https://example.com/`,
    );
  }
}

/** The schemes a URL prefix may have, by the URL parser's protocol. */
const SCHEMES: Readonly<Record<string, RobotsScheme>> = { 'http:': 'http', 'https:': 'https', 'ftp:': 'ftp' };

function parseUrlPrefix(typed: string): PropertyInput {
  let url: URL;
  try {
    url = new URL(typed);
  } catch {
    throw new PropertyInputError(`'${typed}' is not a valid URL`);
  }
  const scheme = SCHEMES[url.protocol];
  if (scheme === undefined) {
    throw new PropertyInputError(
      `'${typed}' uses ${url.protocol}; only http://, https:// and ftp:// sites have robots.txt`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new PropertyInputError(`'${typed}' contains credentials; type the URL without user name or password`);
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') {
    throw new PropertyInputError(
      `'${typed}' has a path, query or fragment; robots.txt belongs to a whole origin, so type ${url.origin}/`,
    );
  }
  if (url.hostname === '') throw new PropertyInputError(`'${typed}' has no host`);
  return {
    kind: 'url-prefix',
    name: `${url.protocol}//${url.host}/`,
    hosts: [{ host: url.host, source: 'property' }],
    schemes: [scheme],
  };
}

/** A domain with a port (`127.0.0.1:18720`, `example.com:8080`): the URL prefix to type instead, else null. */
function prefixForHostAndPort(typed: string): string | null {
  const m = /^([^/?#@\\\s:]+|\[[0-9a-f:.]+\]):(\d{1,5})\/?$/i.exec(typed);
  if (!m) return null;
  const host = m[1]!;
  // A local or IP-addressed server on a port is usually plain http; a named site, https.
  const local = /^(localhost|\d{1,3}(\.\d{1,3}){3}|\[.*\])$/i.test(host);
  return `${local ? 'http' : 'https'}://${host}:${m[2]}/`;
}

function parseDomain(typed: string): PropertyInput {
  const prefix = prefixForHostAndPort(typed);
  if (prefix !== null) {
    throw new PropertyInputError(
      `'${typed}' has a port, and a domain property covers a whole domain; watch that one site as a URL prefix: type ${prefix}`,
    );
  }
  if (/[/?#@\\\s]/.test(typed) || typed.includes(':')) {
    throw new PropertyInputError(
      `'${typed}' is neither a domain (example.com) nor a URL prefix (https://example.com/)`,
    );
  }
  let hostname: string;
  try {
    // A fully qualified name's final dot (`example.com.`) names the same domain.
    hostname = new URL(`http://${typed}/`).hostname.replace(/(?<=[^.])\.$/, '');
  } catch {
    throw new PropertyInputError(`'${typed}' is not a valid domain name`);
  }
  checkDomainName(hostname, typed);
  if (parseDomainName(hostname, { allowPrivateDomains: true }).domain === null) {
    throw new PropertyInputError(
      `'${typed}' is a public suffix (on the Public Suffix List): names under it belong to different owners, so it is ` +
        `not one site; type a domain registered under it, such as example.${hostname}`,
    );
  }
  const hosts: { host: string; source: HostSource }[] = [{ host: hostname, source: 'property' }];
  if (!hostname.startsWith('www.')) hosts.push({ host: `www.${hostname}`, source: 'www' });
  return { kind: 'domain', name: hostname, hosts, schemes: ['https', 'http'] };
}

/** Validates and canonicalises what the user typed. Throws {@link PropertyInputError} with a clear message. */
export function parsePropertyInput(typed: string): PropertyInput {
  const trimmed = typed.trim();
  if (trimmed === '') throw new PropertyInputError('the property is empty; type a domain or a URL prefix');
  if (trimmed.length > 2048) throw new PropertyInputError('the property is longer than 2048 characters');
  // A scheme (`https://…`, but also `mailto:…`) makes it a URL; `host:8080` is a domain with a port, refused there.
  const hasScheme = trimmed.includes('://') || /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(trimmed);
  return hasScheme ? parseUrlPrefix(trimmed) : parseDomain(trimmed);
}

/**
 * Validates a host a user adds to a domain property: it must be the domain or one of its subdomains. Returns the
 * punycode host.
 */
export function parseAddedHost(domain: string, typed: string): string {
  const trimmed = typed.trim();
  if (trimmed === '' || /[/?#@\\\s:]/.test(trimmed)) {
    throw new PropertyInputError(`'${typed}' is not a host name; type a name such as shop.${domain}`);
  }
  let hostname: string;
  try {
    hostname = new URL(`http://${trimmed}/`).hostname.replace(/(?<=[^.])\.$/, '');
  } catch {
    throw new PropertyInputError(`'${typed}' is not a valid host name`);
  }
  checkDomainName(hostname, typed);
  if (hostname !== domain && !hostname.endsWith(`.${domain}`)) {
    throw new PropertyInputError(`'${typed}' is not part of ${domain}; add a separate property for it`);
  }
  return hostname;
}

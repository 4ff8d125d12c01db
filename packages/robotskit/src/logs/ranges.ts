/**
 * Published address ranges of crawlers, in the format Google publishes (`googlebot.json`) and OpenAI, Bing and
 * Perplexity use too, `{ "creationTime": …, "prefixes": [{ "ipv4Prefix": "66.249.64.0/27" }, { "ipv6Prefix": … }] }`,
 * and its extension in the JAFAR draft (draft-illyes-webbotauth-jafar: "A JSON-Based Format for Publishing IP Ranges
 * of Automated HTTP Clients"): a prefix object may name the `services` it is used by, an object with both or neither
 * prefix is ignored, other members are ignored, and where prefixes overlap the most specific one (longest prefix)
 * decides. Matching is `cidr.ts` (subnets of both families, no `node:net`: the engine runs in browsers too).
 *
 * `--ranges FILE|URL` applies a file to the crawlers whose operator publishes a file of that name (the catalogue's
 * `CRAWLER_VERIFICATION`: `googlebot.json` → Googlebot and Google's other common crawlers), or, for a file whose
 * prefixes name services, to the catalogue crawlers those services name; `--ranges NAME=FILE|URL` to the catalogue
 * crawler NAME, whatever the file is called. A URL is fetched with the user cache of `range-cache.ts`.
 */

import { crawlerByName } from '../crawlers/catalogue.js';
import { CRAWLER_VERIFICATION } from '../crawlers/verification.js';
import { type IpFamily, parseIp, SubnetList } from './cidr.js';
import { LogInputError } from './errors.js';

/** What decides whether an address is in a crawler's ranges (a `SubnetList` is one). */
interface AddressCheck {
  check(address: string, family: IpFamily): boolean;
}

/** One range file as applied to one crawler: its name (as violations and rows cite it) and its subnets. */
export interface RangeFile {
  readonly label: string;
  readonly list: AddressCheck;
  readonly prefixes: number;
}

/** Range files by lower-cased catalogue crawler name. */
export type RangesByCrawler = ReadonlyMap<string, readonly RangeFile[]>;

/** One prefix of a file, with the services it names (empty: every crawler the file applies to). */
interface Prefix {
  readonly family: IpFamily;
  readonly bits: number;
  readonly list: SubnetList;
  readonly services: readonly string[];
}

/** A file as read, before it is applied to crawlers. */
export interface ParsedRanges {
  readonly label: string;
  /** Every prefix of the file. */
  readonly all: SubnetList;
  /** Longest first: the first that holds an address is the one that decides. */
  readonly prefixes: readonly Prefix[];
  /** Prefix objects the JAFAR draft says to ignore (both or neither of ipv4Prefix and ipv6Prefix). */
  readonly ignored: number;
  /** The catalogue crawlers the prefixes' services name (lower-cased), with the services that name each. */
  readonly serviceCrawlers: ReadonlyMap<string, readonly string[]>;
}

/** An address as `SubnetList` checks it: IPv4-mapped IPv6 (`::ffff:1.2.3.4`) as IPv4; null when not an address. */
export function addressOf(ip: string): { address: string; family: IpFamily } | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped === null ? ip : mapped[1]!;
  const parsed = parseIp(address);
  return parsed === null ? null : { address, family: parsed.family };
}

function prefixOf(entry: unknown, label: string): Prefix | null {
  const e = (entry ?? {}) as { ipv4Prefix?: unknown; ipv6Prefix?: unknown; services?: unknown };
  if ((e.ipv4Prefix === undefined) === (e.ipv6Prefix === undefined)) return null;
  const family = e.ipv4Prefix === undefined ? 'ipv6' : 'ipv4';
  const cidr = e.ipv4Prefix ?? e.ipv6Prefix;
  const m = typeof cidr === 'string' ? /^([^/]+)\/(\d{1,3})$/.exec(cidr) : null;
  const bits = m === null ? -1 : Number(m[2]);
  const list = new SubnetList();
  if (m === null || !list.addSubnet(m[1]!, bits, family)) {
    throw new LogInputError(`'${label}': ${JSON.stringify(entry)} is not an ipv4Prefix or ipv6Prefix CIDR`);
  }
  const services = Array.isArray(e.services) ? e.services.filter((s): s is string => typeof s === 'string') : [];
  return { family, bits, list, services };
}

/** Reads one range file (`label` names it in errors). */
export function parseRanges(text: string, label: string): ParsedRanges {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new LogInputError(`'${label}' is not JSON (expected { "prefixes": [{ "ipv4Prefix": … }] })`);
  }
  const entries = (doc as { prefixes?: unknown } | null)?.prefixes;
  if (!Array.isArray(entries)) {
    throw new LogInputError(
      `'${label}' has no "prefixes" list (expected Google's or the JAFAR format: { "prefixes": [{ "ipv4Prefix": … }] })`,
    );
  }
  const all = new SubnetList();
  const prefixes: Prefix[] = [];
  let ignored = 0;
  const serviceCrawlers = new Map<string, string[]>();
  for (const entry of entries as unknown[]) {
    const prefix = prefixOf(entry, label);
    if (prefix === null) {
      ignored++;
      continue;
    }
    const [address, bits] = (entry as Record<string, string>)[`${prefix.family}Prefix`]!.split('/') as [string, string];
    all.addSubnet(address, Number(bits), prefix.family);
    prefixes.push(prefix);
    for (const service of prefix.services) {
      const crawler = crawlerByName(service);
      if (crawler === undefined) continue;
      const key = crawler.name.toLowerCase();
      const named = serviceCrawlers.get(key) ?? [];
      if (!named.includes(service)) serviceCrawlers.set(key, [...named, service]);
    }
  }
  prefixes.sort((a, b) => (a.family === b.family ? b.bits - a.bits : a.family === 'ipv4' ? -1 : 1));
  return { label, all, prefixes, ignored, serviceCrawlers };
}

/**
 * The file as applied to one crawler, named by `services` (the file's service names for it; empty when the file
 * names none for it): an address is in its ranges when the most specific prefix holding it names no service, or
 * names one of these.
 */
function applied(parsed: ParsedRanges, services: readonly string[]): RangeFile {
  const anyServices = parsed.prefixes.some((p) => p.services.length > 0);
  const list: AddressCheck = !anyServices
    ? parsed.all
    : {
        check(address, family) {
          if (!parsed.all.check(address, family)) return false;
          const decides = parsed.prefixes.find((p) => p.family === family && p.list.check(address, family))!;
          return decides.services.length === 0 || decides.services.some((s) => services.includes(s));
        },
      };
  return { label: parsed.label, list, prefixes: parsed.prefixes.length };
}

/** Reads one range file as Google's format and applies it to every crawler (the verifier's tests use it alone). */
export function parseRangeFile(text: string, label: string): RangeFile {
  return applied(parseRanges(text, label), []);
}

function basename(path: string): string {
  return path.split(/[\\/]/).pop()!;
}

/** The file names of the range files operators publish (`googlebot.json`, `gptbot.json`, …). */
export function publishedRangeFiles(): string[] {
  return CRAWLER_VERIFICATION.flatMap((v) => v.ranges.map(basename));
}

/**
 * Which catalogue crawlers a parsed file applies to (lower-cased names), each with the file as applied to it:
 * `named` (a catalogue crawler) when given; else the crawlers whose operator publishes a file of the file's name
 * (`googlebot.json` → Googlebot and Google's other common crawlers), and those its prefixes' services name. Empty
 * when the file applies to none.
 */
export function rangesFor(parsed: ParsedRanges, named: string | null): [string, RangeFile][] {
  const of = (name: string, services = parsed.serviceCrawlers.get(name.toLowerCase()) ?? []) =>
    [name.toLowerCase(), applied(parsed, services)] as [string, RangeFile];
  if (named !== null) return [of(named)];
  const found: [string, RangeFile][] = [];
  const entries = CRAWLER_VERIFICATION.filter((v) => v.ranges.some((u) => basename(u) === parsed.label));
  for (const entry of entries) for (const name of entry.crawlers) found.push(of(name));
  for (const [name, services] of parsed.serviceCrawlers) {
    if (!entries.some((e) => e.crawlers.some((c) => c.toLowerCase() === name))) found.push(of(name, services));
  }
  return found;
}

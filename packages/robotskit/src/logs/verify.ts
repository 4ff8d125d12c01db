/**
 * Is a request in a crawler's name from that crawler? Each operator's documented way (the engine's
 * `crawlerVerification`): its published address ranges (`--ranges`), else forward-confirmed reverse DNS: the
 * address's PTR name must be under one of the operator's domains and resolve (A/AAAA) back to the address. Verdicts:
 * `verified`; `spoofed` (outside the ranges and no operator name, a name not the operator's, or one that does not
 * resolve back); `unverifiable` (the operator documents no way, the needed check is off, or DNS failed or timed out).
 * Answers are cached per crawler and address for `ttl` (DNS failures for a minute at most), at most `maxEntries`
 * of them (the oldest dropped first, a sixteenth at a time), and every DNS question is bounded in time.
 */

import type { IdentifiedCrawler } from '../crawlers/identify.js';
import { crawlerVerification, isOperatorHostname } from '../crawlers/verification.js';
import { addressOf, type RangesByCrawler } from './ranges.js';

export type VerificationStatus = 'verified' | 'spoofed' | 'unverifiable';

/** A verdict and why. */
export interface Verification {
  readonly status: VerificationStatus;
  readonly reason: string;
}

/**
 * The DNS questions verification asks (node:dns's `Resolver` has them), injected as the engine's fetch takes an
 * injected `fetch`. A failure's `code` says what happened: `ENOTFOUND`/`ENODATA` no such name, else a DNS failure.
 */
export interface Dns {
  /** PTR records of an `in-addr.arpa` / `ip6.arpa` name (`reverse` would report a timeout as "not found"). */
  resolvePtr(name: string): Promise<string[]>;
  resolve4(hostname: string): Promise<string[]>;
  resolve6(hostname: string): Promise<string[]>;
}

export interface VerifierOptions {
  /** null: no DNS (only range files verify). */
  readonly dns: Dns | null;
  readonly ranges: RangesByCrawler;
  /** How long an answer is kept (ms). */
  readonly ttl: number;
  /** How long one DNS question may take (ms). */
  readonly timeout: number;
  readonly maxEntries?: number;
  /** DNS checks in flight at most (default 16): a log's first minutes must not flood the resolver. */
  readonly concurrency?: number;
  readonly now?: () => number;
  /**
   * What the caller's user can do about a check that is off, appended to the reason: after "verified by Google's
   * published ranges" (`: give them with --ranges`) and after "reverse DNS is off".
   */
  readonly hints?: { readonly ranges?: string; readonly dns?: string };
}

/** The reverse DNS name of an address: `4.3.2.1.in-addr.arpa`, or the 32 nibbles of an IPv6 one under `ip6.arpa`. */
export function arpaName(ip: string, family: 'ipv4' | 'ipv6'): string {
  if (family === 'ipv4') return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  let text = ip.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted !== null) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const nibbles = all.map((g) => g.padStart(4, '0')).join('');
  return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
}

const NO_NAME = new Set(['ENOTFOUND', 'ENODATA']);

/** The `code` of a DNS failure (node:dns names them `ENOTFOUND`, `ENODATA`, `ETIMEOUT`, …), '' when none. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

class DnsTimeout extends Error {}

/** What `checkNow` says of an answer that takes reverse DNS. */
const DNS = Symbol('dns');

export class Verifier {
  private readonly cache = new Map<
    string,
    { expires: number; answer: Promise<Verification>; value: Verification | undefined }
  >();
  private readonly maxEntries: number;
  private readonly now: () => number;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: VerifierOptions) {
    this.maxEntries = options.maxEntries ?? 100_000;
    this.now = options.now ?? Date.now;
  }

  /** Runs `work` when fewer than `concurrency` DNS checks are in flight (a finished one hands its slot on). */
  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.inFlight >= (this.options.concurrency ?? 16)) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.inFlight++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.inFlight--;
      else next();
    }
  }

  /**
   * The verdict {@link verify} has already reached for `ip` in the name of `crawler` and still keeps, else undefined
   * (not asked yet, still being checked, expired or dropped): a caller with many answers to read awaits only the rest.
   */
  settled(crawler: IdentifiedCrawler, ip: string): Verification | undefined {
    const known = this.cache.get(`${crawler.name}\u0000${ip}`);
    return known !== undefined && known.expires > this.now() ? known.value : undefined;
  }

  /** The verdict for a request from `ip` in the name of `crawler` (cached). */
  verify(crawler: IdentifiedCrawler, ip: string): Promise<Verification> {
    const key = `${crawler.name}\u0000${ip}`;
    const now = this.now();
    const known = this.cache.get(key);
    if (known !== undefined && known.expires > now) return known.answer;
    if (known !== undefined) this.cache.delete(key);
    const entry = {
      expires: now + this.options.ttl,
      answer: Promise.resolve<Verification>({ status: 'unverifiable', reason: '' }),
      value: undefined as Verification | undefined,
    };
    entry.answer = this.check(crawler, ip).then((answer) => {
      if (answer.status === 'unverifiable' && answer.reason.startsWith('DNS')) {
        entry.expires = Math.min(entry.expires, this.now() + 60_000);
      }
      entry.value = answer;
      return answer;
    });
    this.cache.set(key, entry);
    if (this.cache.size > this.maxEntries) this.evict();
    return entry.answer;
  }

  /**
   * Drops the oldest sixteenth of the answers in one walk. Dropping one at a time (`keys().next()` per insertion) walks
   * over every entry deleted since the map last compacted its table: with 100,000 answers kept and more addresses than
   * that, it was tens of microseconds per address.
   */
  private evict(): void {
    let drop = Math.max(1, this.cache.size - this.maxEntries + (this.maxEntries >> 4));
    for (const key of this.cache.keys()) {
      this.cache.delete(key);
      if (--drop === 0) break;
    }
  }

  /**
   * The verdict for a request from `ip` in the name of `crawler` when reaching it asks no DNS question (a range file
   * decides it, or nothing can): the same answer {@link verify} gives, at once and not cached (it costs a lookup in
   * the ranges). Null when the answer needs reverse DNS: ask {@link verify}.
   */
  verifyNow(crawler: IdentifiedCrawler, ip: string): Verification | null {
    const answer = this.checkNow(crawler, ip);
    return answer === DNS ? null : answer;
  }

  private async check(crawler: IdentifiedCrawler, ip: string): Promise<Verification> {
    const answer = this.checkNow(crawler, ip);
    if (answer !== DNS) return answer;
    const how = crawlerVerification(crawler.profile!)!;
    const address = addressOf(ip)!;
    const dns = this.options.dns!;
    return this.limited(() =>
      this.reverseDns(dns, address.address, address.family, how.hostnames, how.operator, (name) =>
        isOperatorHostname(name, how),
      ),
    );
  }

  /** The verdict without DNS, or {@link DNS} when it takes reverse DNS. */
  private checkNow(crawler: IdentifiedCrawler, ip: string): Verification | typeof DNS {
    if (crawler.profile === null) return { status: 'unverifiable', reason: 'not a crawler of the catalogue' };
    const how = crawlerVerification(crawler.profile);
    const address = addressOf(ip);
    if (address === null) return { status: 'unverifiable', reason: `'${ip}' is not an IP address` };
    const files = this.options.ranges.get(crawler.profile.name.toLowerCase()) ?? [];
    for (const file of files) {
      if (file.list.check(address.address, address.family)) return { status: 'verified', reason: `in ${file.label}` };
    }
    const dns = this.options.dns;
    if (how === null || how.hostnames.length === 0 || dns === null) {
      if (files.length > 0) return { status: 'spoofed', reason: `not in ${files.map((f) => f.label).join(', ')}` };
      if (how === null) return { status: 'unverifiable', reason: `its operator documents no way to verify it` };
      if (how.hostnames.length === 0) {
        return {
          status: 'unverifiable',
          reason: `verified by ${how.operator}'s published ranges${this.options.hints?.ranges ?? ', and none were given'}`,
        };
      }
      return { status: 'unverifiable', reason: `reverse DNS is off${this.options.hints?.dns ?? ''}` };
    }
    return DNS;
  }

  private async reverseDns(
    dns: Dns,
    ip: string,
    family: 'ipv4' | 'ipv6',
    domains: readonly string[],
    operator: string,
    isOperators: (name: string) => boolean,
  ): Promise<Verification> {
    try {
      const names = await this.bounded(dns.resolvePtr(arpaName(ip, family)));
      const name = names.find(isOperators);
      if (name === undefined) {
        return {
          status: 'spoofed',
          reason: `reverse DNS ${names.length === 0 ? 'has no name' : `is ${names[0]}`}, not under ${domains.join(' or ')} (${operator})`,
        };
      }
      const back = await this.bounded(family === 'ipv4' ? dns.resolve4(name) : dns.resolve6(name)).catch(
        (error: unknown) => {
          if (NO_NAME.has(errorCode(error))) return [] as string[];
          throw error;
        },
      );
      const same = back.some((a) => addressOf(a)?.address.toLowerCase() === ip.toLowerCase());
      if (!same) return { status: 'spoofed', reason: `${name} does not resolve back to ${ip}` };
      return { status: 'verified', reason: `${name} (resolves back)` };
    } catch (error) {
      const code = errorCode(error);
      if (NO_NAME.has(code)) {
        return { status: 'spoofed', reason: `no reverse DNS name, not under ${domains.join(' or ')} (${operator})` };
      }
      const what =
        error instanceof DnsTimeout || code === 'ETIMEOUT'
          ? 'timed out'
          : `failed (${code || (error as Error).message})`;
      return { status: 'unverifiable', reason: `DNS ${what}` };
    }
  }

  /** The answer, or DnsTimeout after the timeout (and a second's grace for the resolver's own). */
  private bounded<T>(answer: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new DnsTimeout()), this.options.timeout + 1000);
      // Node's timers can be told not to hold the process open; a browser's are numbers.
      (timer as { unref?: () => void }).unref?.();
    });
    return Promise.race([answer, limit]).finally(() => clearTimeout(timer));
  }
}

import { BlockList, isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';

/** Which header the trusted proxies in front of the gateway append the client's address to. */
export type ProxyHeader = 'x-forwarded-for' | 'forwarded';
export const PROXY_HEADERS: readonly ProxyHeader[] = ['x-forwarded-for', 'forwarded'];

/**
 * Hops read from the right of the header at most. A chain of trusted proxies is a handful long;
 * the cap keeps a client's padded header (up to the server's 16 KiB of headers) from costing
 * more than this many small parses per request.
 */
export const MAX_HOPS = 16;
/** Entries of TRUSTED_PROXIES at most (each is one range checked per hop). */
const MAX_RANGES = 64;

export class TrustedProxiesError extends Error {}

/**
 * Who the client is, given the proxies the operator trusts. The TCP peer when it is not a trusted
 * proxy; otherwise the right-most hop of the proxies' header that is not itself a trusted proxy:
 * everything right of it was written by proxies we trust, everything left of it by the client
 * (and may be forged). Only one header is read, the one the operator's proxies append to: a
 * proxy that appends to `X-Forwarded-For` passes a client's `Forwarded` through untouched, so
 * reading both would let a client choose its own address.
 */
export class ClientAddressResolver {
  private readonly trusted: BlockList | undefined;

  constructor(
    ranges: readonly string[],
    private readonly header: ProxyHeader = 'x-forwarded-for',
  ) {
    if (ranges.length > MAX_RANGES) throw new TrustedProxiesError(`at most ${MAX_RANGES} ranges`);
    if (ranges.length === 0) return;
    this.trusted = new BlockList();
    for (const range of ranges) addRange(this.trusted, range);
  }

  /** Whether proxies are configured at all (else the address is always the TCP peer). */
  get trustsProxies(): boolean {
    return this.trusted !== undefined;
  }

  of(req: IncomingMessage): string {
    const peer = normalizeAddress(req.socket.remoteAddress ?? '') ?? 'unknown';
    if (!this.trusted || !this.isTrusted(peer)) return peer;
    const raw = req.headers[this.header];
    if (raw === undefined) return peer;
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    let client = peer;
    for (const hop of lastHops(value, MAX_HOPS)) {
      const address = this.header === 'forwarded' ? forwardedFor(hop) : normalizeAddress(hop);
      // A hop that is no address (`unknown`, an obfuscated id, garbage) ends the chain: the proxy
      // right of it is the last party we can name.
      if (address === undefined) return client;
      if (!this.isTrusted(address)) return address;
      client = address;
    }
    return client;
  }

  private isTrusted(address: string): boolean {
    return this.trusted!.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
}

/** Parses TRUSTED_PROXIES: comma-separated addresses or CIDR ranges, IPv4 or IPv6; empty: none. */
export function parseTrustedProxies(value: string | undefined): string[] {
  const entries = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const entry of entries) addRange(new BlockList(), entry); // throws naming the entry
  if (entries.length > MAX_RANGES) throw new TrustedProxiesError(`at most ${MAX_RANGES} entries`);
  return entries;
}

function addRange(list: BlockList, entry: string): void {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0)
    throw new TrustedProxiesError(`'${entry.slice(0, 64)}' is not an IP address or CIDR range`);
  const max = family === 4 ? 32 : 128;
  const prefixText = slash === -1 ? String(max) : entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max)
    throw new TrustedProxiesError(`'${entry.slice(0, 64)}' has a prefix length outside 0-${max}`);
  // Addresses are compared after normalizeAddress, so an IPv4-mapped peer meets its IPv4 range.
  list.addSubnet(address, Number(prefixText), family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The last `max` comma-separated items of `value`, right-most first, found by scanning from the
 * right: linear in what is read, however long the header.
 */
export function lastHops(value: string, max: number): string[] {
  const hops: string[] = [];
  let end = value.length;
  // Empty elements count towards the cap too, so a header of commas is not scanned to its start.
  let elements = 0;
  for (let i = value.length - 1; i >= -1 && elements < max; i--) {
    if (i === -1 || value.charCodeAt(i) === 44 /* , */) {
      const hop = value.slice(i + 1, end).trim();
      if (hop !== '') hops.push(hop);
      elements++;
      end = i;
    }
  }
  return hops;
}

/** A hop of `X-Forwarded-For` (or a `for=` value) as a plain address, or undefined. */
export function normalizeAddress(raw: string): string | undefined {
  if (raw.length > 64) return undefined;
  let s = raw.trim();
  if (s.startsWith('[')) {
    // `[v6]` or `[v6]:port`
    const close = s.indexOf(']');
    if (close === -1) return undefined;
    s = s.slice(1, close);
  } else if (s.includes('.') && s.indexOf(':') === s.lastIndexOf(':') && s.includes(':')) {
    s = s.slice(0, s.indexOf(':')); // `v4:port`
  }
  const family = isIP(s);
  if (family === 0) return undefined;
  if (family === 4) return s;
  const lower = s.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  return mapped && isIP(mapped[1]!) === 4 ? mapped[1]! : lower;
}

/** The `for=` of one element of RFC 7239 `Forwarded` (`for=192.0.2.1;proto=https`), as an address. */
export function forwardedFor(element: string): string | undefined {
  for (const pair of element.split(';', 8)) {
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq).trim().toLowerCase() !== 'for') continue;
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"')) {
      if (!value.endsWith('"') || value.length < 2) return undefined;
      value = value.slice(1, -1);
    }
    return normalizeAddress(value);
  }
  return undefined;
}

/**
 * What the auth-failure throttle counts a client address under: an IPv4 address as it is (an
 * IPv4-mapped IPv6 address, dotted or in hex, as its IPv4 address), an IPv6 address as its /64 —
 * one subscriber's network, from which a host can take a new address for every request.
 * Anything else (`unknown`) as it is.
 */
export function throttleSubject(address: string): string {
  const family = isIP(address);
  if (family !== 6) return address;
  const groups = ipv6Groups(address);
  if (!groups) return address;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff)
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of an IPv6 address (`isIP` said 6), zone dropped; undefined if odd. */
function ipv6Groups(address: string): number[] | undefined {
  let s = address.toLowerCase();
  const zone = s.indexOf('%');
  if (zone !== -1) s = s.slice(0, zone);
  const tail: number[] = [];
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    s = s.slice(0, dotted.index);
    if (s.endsWith(':') && !s.endsWith('::')) s = s.slice(0, -1);
  }
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const gap = s.indexOf('::');
  let groups: number[];
  if (gap === -1) groups = [...parse(s), ...tail];
  else {
    const head = parse(s.slice(0, gap));
    const rest = [...parse(s.slice(gap + 2)), ...tail];
    groups = [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  }
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? groups
    : undefined;
}

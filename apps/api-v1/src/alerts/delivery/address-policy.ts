import { lookup as dnsLookup, Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Which rule of the webhook URL policy refused a URL or its host. */
export type UrlRefusalRule =
  'url_syntax' | 'https_required' | 'credentials' | 'port' | 'private_address' | 'unresolvable';

/** Why a webhook URL is refused; `message` says what would be accepted, for the subscriber. */
export interface UrlRefusal {
  readonly rule: UrlRefusalRule;
  readonly message: string;
}

/** One address a webhook host resolved to, and checked. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** `dns.promises.lookup(hostname, { all: true })`, or a stand-in for it (tests, a custom resolver). */
export type LookupAll = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/** Longer URLs are refused: no real receiver needs them, and they end up in logs and rows. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
/** How long resolvePublicAddresses waits for DNS by default. */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 2000;

/**
 * IANA's global unicast block. ipaddr.js calls every IPv6 address outside its special ranges
 * `unicast`, the unallocated and deprecated ones included (such as the IPv4-compatible ::/96,
 * where `::127.0.0.1` would reach the loopback on some stacks), so only this block is let through.
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether a webhook may be sent to this address: true only for a globally routable unicast one.
 * Everything ipaddr.js puts in a special range is refused: loopback, private, link-local (cloud
 * metadata endpoints), carrier-grade NAT, unspecified, broadcast, multicast, reserved, benchmarking,
 * documentation, unique-local, and the anycast blocks (AS112, AMT) no receiver sits behind. So is
 * every IPv6 form that embeds an IPv4 address (mapped, translated, NAT64, 6to4, Teredo), whatever
 * that address: no receiver needs one, and each is a way to reach a refused IPv4 address.
 * Only canonical text is accepted (what DNS and the WHATWG URL parser give): `127.1` or `0x7f.0.0.1`
 * read differently by different parsers, so they count as not public.
 */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0 || !ipaddr.isValid(ip)) return false;
  if (family === 4) return ipaddr.IPv4.parse(ip).range() === 'unicast';
  const address = ipaddr.IPv6.parse(ip);
  // A zone names a local interface: only link-local addresses have a use for one.
  if (address.zoneId !== undefined) return false;
  return address.range() === 'unicast' && address.match(GLOBAL_UNICAST_V6);
}

function refusal(rule: UrlRefusalRule, message: string): UrlRefusal {
  return { rule, message };
}

const REFUSED_RANGES =
  'loopback, private, link-local, shared (CGNAT), multicast and reserved addresses are refused';
const PRIVATE_MESSAGE = `url host must be a public internet address; ${REFUSED_RANGES}`;
const privateNameMessage = (host: string) =>
  `url host ${host} must resolve to public internet addresses only; ${REFUSED_RANGES}`;

/** Whether this is a URL refusal rather than an accepted URL or a list of addresses. */
export function isUrlRefusal(value: unknown): value is UrlRefusal {
  return typeof value === 'object' && value !== null && 'rule' in value && 'message' in value;
}

/** The host of a URL as an address or a name: an IPv6 literal's brackets removed. */
function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Names that resolve to the loopback by definition (RFC 6761), refused before any DNS. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Checks a webhook URL as a subscriber registers it, and returns it parsed (WHATWG), its fragment
 * dropped. Accepted: at most 2048 characters, `https:` (`http:` too when `allowPrivate`), no
 * username or password, any explicit port from 1 to 65535 (receivers behind a gateway on 8443 and
 * the like are common; the address is what the policy guards, not the port). An IP host, in
 * whatever form the URL parser reads as one (`2130706433`, `0x7f.1`, `[::ffff:127.0.0.1]`), must
 * be public unless `allowPrivate`; a name is resolved and checked only at send time
 * (resolvePublicAddresses), since its addresses can change.
 */
export function checkWebhookUrl(raw: string, allowPrivate: boolean): URL | UrlRefusal {
  if (raw.length > MAX_WEBHOOK_URL_LENGTH)
    return refusal('url_syntax', `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refusal('url_syntax', 'url must be an absolute URL such as https://hooks.example.com/tcg');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    return refusal(
      'https_required',
      allowPrivate
        ? 'url must use https or http'
        : 'url must use https; http is accepted only when private addresses are allowed',
    );
  if (url.username !== '' || url.password !== '')
    return refusal(
      'credentials',
      'url must not contain a username or password; authenticate with the signature',
    );
  const host = bareHost(url.hostname);
  if (host === '') return refusal('url_syntax', 'url must name a host');
  // The parser already refuses ports above 65535; 0 is the one left that cannot be connected to.
  if (url.port === '0') return refusal('port', 'url port must be from 1 to 65535');
  if (!allowPrivate) {
    if (isIP(host) !== 0 ? !isPublicAddress(host) : isLocalhostName(host))
      return refusal('private_address', PRIVATE_MESSAGE);
  }
  url.hash = '';
  return url;
}

/** Resolves within `timeoutMs`, or gives `undefined`; the lookup itself cannot be cancelled. */
async function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, timeoutMs, undefined);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The address lookup of public hosts: DNS itself (c-ares), A and AAAA side by side, each query
 * abandoned after `timeoutMs` and cancelled with its resolver. Not `dns.lookup`: getaddrinfo runs
 * on libuv's four pool threads and cannot be cancelled, so hosts whose name servers never answer
 * (any attacker's subdomain) would hold them for their whole timeout, stalling what else needs
 * them (zlib, the file system) for every request of the service.
 */
export function dnsQuery(timeoutMs: number, servers?: readonly string[]): LookupAll {
  return async (hostname) => {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (servers) resolver.setServers([...servers]);
    const timer = setTimeout(() => resolver.cancel(), timeoutMs);
    try {
      const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const found = answers.flatMap((a, i) =>
        a.status === 'fulfilled' ? a.value.map((address) => ({ address, family: i === 0 ? 4 : 6 })) : [],
      );
      if (found.length === 0 && answers[0].status === 'rejected') throw answers[0].reason;
      return found;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** With private addresses allowed (tests, one private network), the system's: /etc/hosts counts. */
const systemLookup: LookupAll = (hostname) => dnsLookup(hostname, { all: true });

/**
 * The addresses to connect to for a webhook host (a URL's `hostname`, brackets allowed), each
 * checked: refused as `private_address` if ANY of them is not public (unless `allowPrivate`), since
 * the connection may go to any of them; `unresolvable` if DNS fails, finds nothing, or takes longer
 * than `timeoutMs` (default 2000 ms). An IP literal is checked as it is, without DNS.
 */
export async function resolvePublicAddresses(
  hostname: string,
  allowPrivate: boolean,
  options: { lookup?: LookupAll; timeoutMs?: number } = {},
): Promise<ResolvedAddress[] | UrlRefusal> {
  const host = bareHost(hostname);
  const literal = isIP(host);
  if (literal === 4 || literal === 6) {
    if (!allowPrivate && !isPublicAddress(host)) return refusal('private_address', PRIVATE_MESSAGE);
    return [{ address: host, family: literal }];
  }
  if (host === '') return refusal('unresolvable', 'url host is empty');
  if (!allowPrivate && isLocalhostName(host)) return refusal('private_address', privateNameMessage(host));

  const timeoutMs = options.timeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
  let found: readonly { address: string; family: number }[] | undefined;
  try {
    const lookup = options.lookup ?? (allowPrivate ? systemLookup : dnsQuery(timeoutMs));
    found = await withDeadline(lookup(host), timeoutMs);
  } catch {
    return refusal('unresolvable', `url host ${host} does not resolve to any address`);
  }
  if (found === undefined)
    return refusal('unresolvable', `url host ${host} did not resolve within ${timeoutMs} ms`);

  const addresses: ResolvedAddress[] = [];
  for (const { address } of found) {
    // The family is read from the address itself: a stand-in lookup could mislabel it.
    const family = isIP(address);
    if (family !== 4 && family !== 6)
      return refusal('unresolvable', `url host ${host} resolved to an invalid address`);
    if (!allowPrivate && !isPublicAddress(address))
      return refusal('private_address', privateNameMessage(host));
    addresses.push({ address, family });
  }
  if (addresses.length === 0)
    return refusal('unresolvable', `url host ${host} does not resolve to any address`);
  return addresses;
}

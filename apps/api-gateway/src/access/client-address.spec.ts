import fc from 'fast-check';
import type { IncomingMessage } from 'node:http';
import {
  ClientAddressResolver,
  throttleSubject,
  forwardedFor,
  lastHops,
  MAX_HOPS,
  normalizeAddress,
  parseTrustedProxies,
  type ProxyHeader,
} from './client-address';

const requestFrom = (peer: string, headers: Record<string, string | string[]> = {}): IncomingMessage =>
  ({ socket: { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

describe('the client address behind trusted proxies', () => {
  const ingress = new ClientAddressResolver(parseTrustedProxies('10.0.0.0/8, fd00::/8'));

  it.each<[string, string, Record<string, string | string[]>, string]>([
    [
      'no proxies trusted: the peer, whatever the header says',
      '',
      { 'x-forwarded-for': '1.2.3.4' },
      '10.1.1.1',
    ],
    ['untrusted peer: its own address', '10.0.0.0/8', {}, '10.1.1.1'],
  ])('%s', (_, ranges, headers, expected) => {
    const resolver = new ClientAddressResolver(parseTrustedProxies(ranges));
    expect(resolver.of(requestFrom('10.1.1.1', headers))).toBe(expected);
    expect(resolver.trustsProxies).toBe(ranges !== '');
  });

  it.each<[string, string, Record<string, string | string[]>, string]>([
    ['an untrusted peer is the client', '203.0.113.9', { 'x-forwarded-for': '1.2.3.4' }, '203.0.113.9'],
    ['a trusted peer without the header is the client', '10.0.0.5', {}, '10.0.0.5'],
    ['one hop', '10.0.0.5', { 'x-forwarded-for': '198.51.100.7' }, '198.51.100.7'],
    [
      'a forged left part is ignored: the right-most untrusted hop wins',
      '10.0.0.5',
      { 'x-forwarded-for': '1.1.1.1, 2.2.2.2, 198.51.100.7, 10.0.0.9' },
      '198.51.100.7',
    ],
    ['every hop trusted: the left-most', '10.0.0.5', { 'x-forwarded-for': '10.0.0.2, 10.0.0.3' }, '10.0.0.2'],
    [
      'garbage ends the chain at the last proxy',
      '10.0.0.5',
      { 'x-forwarded-for': 'nonsense, 10.0.0.3' },
      '10.0.0.3',
    ],
    [
      'several header lines join in order',
      '10.0.0.5',
      { 'x-forwarded-for': ['1.1.1.1', '198.51.100.8'] },
      '198.51.100.8',
    ],
    [
      'an IPv4-mapped peer meets its IPv4 range',
      '::ffff:10.0.0.5',
      { 'x-forwarded-for': '198.51.100.7' },
      '198.51.100.7',
    ],
    ['IPv6 hops are lower-cased', 'fd00::1', { 'x-forwarded-for': '2001:DB8::1' }, '2001:db8::1'],
    ['a hop with a port', '10.0.0.5', { 'x-forwarded-for': '198.51.100.7:4711' }, '198.51.100.7'],
  ])('X-Forwarded-For: %s', (_, peer, headers, expected) => {
    expect(ingress.of(requestFrom(peer, headers))).toBe(expected);
  });

  it.each<[string, string, string]>([
    [
      'for= of the right-most untrusted element',
      'for=1.1.1.1, for=198.51.100.7;proto=https, for=10.0.0.2',
      '198.51.100.7',
    ],
    ['quoted IPv6 with a port', 'for="[2001:db8:cafe::17]:4711"', '2001:db8:cafe::17'],
    ['case-insensitive parameter name', 'For=198.51.100.7', '198.51.100.7'],
    ['an obfuscated node ends the chain', 'for=_hidden, for=10.0.0.3', '10.0.0.3'],
    ['an element without for=', 'proto=https', '10.0.0.5'],
  ])('Forwarded: %s', (_, forwarded, expected) => {
    const resolver = new ClientAddressResolver(parseTrustedProxies('10.0.0.0/8'), 'forwarded');
    expect(resolver.of(requestFrom('10.0.0.5', { forwarded, 'x-forwarded-for': '9.9.9.9' }))).toBe(expected);
  });

  it('reads only the configured header: a client-sent Forwarded does not move an X-Forwarded-For setup', () => {
    const req = requestFrom('10.0.0.5', { forwarded: 'for=1.1.1.1', 'x-forwarded-for': '198.51.100.7' });
    expect(ingress.of(req)).toBe('198.51.100.7');
  });

  it('reads at most MAX_HOPS hops from the right, however long the header', () => {
    const trustedChain = Array.from({ length: 40 }, (_, i) => `10.0.${i}.1`).join(', ');
    const req = requestFrom('10.0.0.5', { 'x-forwarded-for': `198.51.100.7, ${trustedChain}` });
    // The client hop sits past the cap: the answer is the last trusted hop read, not the forged far left.
    expect(ingress.of(req)).toBe(`10.0.${40 - MAX_HOPS}.1`);
    expect(lastHops('a,b,c , d', 3)).toEqual(['d', 'c', 'b']);
    expect(lastHops(`1.1.1.1${','.repeat(10_000)}`, 3)).toEqual([]);
  });

  it('never answers an address the trusted proxies did not write, for any header a client sends', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.ipV4(), fc.string({ maxLength: 20 })), { maxLength: 30 }), (left) => {
        const header: ProxyHeader = 'x-forwarded-for';
        const resolver = new ClientAddressResolver(['10.0.0.0/8'], header);
        const req = requestFrom('10.0.0.5', { [header]: [...left, '198.51.100.7', '10.0.0.4'].join(',') });
        expect(resolver.of(req)).toBe('198.51.100.7');
      }),
    );
  });

  it.each([
    ['10.0.0.0/8', ['10.0.0.0/8']],
    ['', []],
    [' 192.0.2.1 , ::1/128 ', ['192.0.2.1', '::1/128']],
  ])('parses TRUSTED_PROXIES %j', (value, expected) => {
    expect(parseTrustedProxies(value)).toEqual(expected);
  });

  it.each(['10.0.0.0/33', 'host.example', '10.0.0.0/', '10.0.0.0/8/8', '::/129', '10.0.0.0/-1'])(
    'refuses TRUSTED_PROXIES entry %j, naming it',
    (entry) => {
      expect(() => parseTrustedProxies(`192.0.2.1,${entry}`)).toThrow(entry.slice(0, 10));
    },
  );

  it.each([
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['[2001:db8::1]:80', '2001:db8::1'],
    ['192.0.2.1:80', '192.0.2.1'],
    ['unknown', undefined],
    ['x'.repeat(100), undefined],
  ])('normalizes %j', (raw, expected) => {
    expect(normalizeAddress(raw)).toBe(expected);
  });

  it('takes for= from a Forwarded element only', () => {
    expect(forwardedFor('by=10.0.0.1;for=192.0.2.60;proto=http')).toBe('192.0.2.60');
    expect(forwardedFor('for="192.0.2.60')).toBeUndefined();
  });
});

describe('throttleSubject', () => {
  it.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::ffff:c000:207', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002::', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.7', '64:ff9b:0:0::/64'],
    ['unknown', 'unknown'],
  ])('counts %s as %s', (address, subject) => {
    expect(throttleSubject(address)).toBe(subject);
  });
});

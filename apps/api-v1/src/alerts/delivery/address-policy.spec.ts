import {
  checkWebhookUrl,
  isPublicAddress,
  isUrlRefusal,
  type LookupAll,
  resolvePublicAddresses,
  type UrlRefusal,
} from './address-policy';

describe('isPublicAddress', () => {
  it.each([
    // IPv4
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', '"this network" 0/8'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback (end of 127/8)'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8 (end)'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12 (end)'],
    ['192.168.1.1', 'private 192.168/16'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['169.254.0.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT 100.64/10'],
    ['100.127.255.254', 'carrier-grade NAT (end)'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast (SSDP)'],
    ['240.0.0.1', 'reserved 240/4'],
    ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.51.100.7', 'documentation TEST-NET-2'],
    ['203.0.113.9', 'documentation TEST-NET-3'],
    ['198.18.0.1', 'benchmarking 198.18/15'],
    ['198.19.255.255', 'benchmarking (end)'],
    ['192.88.99.1', '6to4 relay anycast'],
    ['192.175.48.1', 'AS112 anycast'],
    ['192.52.193.1', 'AMT anycast'],
    // IPv6
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['febf::1', 'link-local (end of fe80::/10)'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fec0::1', 'deprecated site-local'],
    ['fc00::1', 'unique-local fc00::/7'],
    ['fd00::1', 'unique-local'],
    ['fd00:ec2::254', 'unique-local (AWS metadata)'],
    ['ff02::1', 'multicast'],
    ['ff0e::1', 'multicast (global scope)'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, even of a public address'],
    ['::ffff:0:7f00:1', 'IPv4-translated (RFC 6145)'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::8.8.8.8', 'IPv4-compatible'],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
    ['64:ff9b::808:808', 'NAT64, even of a public address'],
    ['64:ff9b:1::1', 'local-use NAT64 64:ff9b:1::/48'],
    ['2002:7f00:1::1', '6to4 of 127.0.0.1'],
    ['2002:808:808::1', '6to4, even of a public address'],
    ['2001::1', 'Teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:db8::1', 'documentation 2001:db8::/32'],
    ['3fff::1', 'documentation 3fff::/20'],
    ['2001:2::1', 'benchmarking'],
    ['2001:3::1', 'AMT'],
    ['2001:10::1', 'ORCHID'],
    ['2001:20::1', 'ORCHIDv2'],
    ['100::1', 'discard-only 100::/64'],
    ['5f00::1', 'segment routing'],
    ['4000::1', 'unallocated, outside 2000::/3'],
    // Not canonical text or not an address at all
    ['127.1', 'short IPv4 form'],
    ['0x7f.0.0.1', 'hexadecimal IPv4 form'],
    ['017700000001', 'octal IPv4 number'],
    ['2130706433', 'decimal IPv4 number'],
    ['010.0.0.1', 'leading-zero (octal) octet'],
    ['[::1]', 'bracketed IPv6'],
    ['1.2.3.4.5', 'five octets'],
    ['hooks.example.com', 'a name'],
    ['', 'empty'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '9.9.9.9',
    '93.184.216.34',
    '11.0.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '169.253.255.255',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '223.255.255.254',
    '2606:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:80b::200e',
    '2620:fe::fe',
  ])('accepts the public address %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

const refusedBy = (rule: UrlRefusal['rule']) =>
  expect.objectContaining({ rule, message: expect.any(String) });

describe('checkWebhookUrl', () => {
  it.each([
    ['https://hooks.example.com/tcg', 'https://hooks.example.com/tcg'],
    ['https://hooks.example.com:8443/x?y=1#fragment', 'https://hooks.example.com:8443/x?y=1'],
    ['https://hooks.example.com:443/', 'https://hooks.example.com/'],
    ['https://hooks.example.com:1/', 'https://hooks.example.com:1/'],
    ['https://hooks.example.com:65535/', 'https://hooks.example.com:65535/'],
    ['HTTPS://Hooks.Example.COM/Path', 'https://hooks.example.com/Path'],
    ['https://8.8.8.8/hook', 'https://8.8.8.8/hook'],
    ['https://[2606:4700::1111]/hook', 'https://[2606:4700::1111]/hook'],
    ['https://hooks.example.com./', 'https://hooks.example.com./'],
  ])('accepts %s as %s', (raw, href) => {
    const url = checkWebhookUrl(raw, false);
    expect(url).toBeInstanceOf(URL);
    expect((url as URL).href).toBe(href);
  });

  it.each([
    ['', 'url_syntax'],
    ['not a url', 'url_syntax'],
    ['/relative/path', 'url_syntax'],
    ['https://', 'url_syntax'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, 'url_syntax'],
    ['https://hooks.example.com:65536/', 'url_syntax'],
    ['https://hooks.example.com:https/', 'url_syntax'],
    ['https://[fe80::1%25eth0]/', 'url_syntax'],
    ['http://hooks.example.com/', 'https_required'],
    ['ftp://hooks.example.com/', 'https_required'],
    ['file:///etc/passwd', 'https_required'],
    ['javascript:alert(1)', 'https_required'],
    ['wss://hooks.example.com/', 'https_required'],
    ['https://user:secret@hooks.example.com/', 'credentials'],
    ['https://user@hooks.example.com/', 'credentials'],
    ['https://:secret@hooks.example.com/', 'credentials'],
    ['https://hooks.example.com:0/', 'port'],
    ['https://127.0.0.1/', 'private_address'],
    ['https://2130706433/', 'private_address'],
    ['https://0x7f.1/', 'private_address'],
    ['https://017700000001/', 'private_address'],
    ['https://127.1/', 'private_address'],
    ['https://0/', 'private_address'],
    ['https://10.0.0.1/', 'private_address'],
    ['https://169.254.169.254/latest/meta-data/', 'private_address'],
    ['https://[::1]/', 'private_address'],
    ['https://[::ffff:127.0.0.1]/', 'private_address'],
    ['https://[fd00:ec2::254]/', 'private_address'],
    ['https://localhost/', 'private_address'],
    ['https://LOCALHOST:8443/', 'private_address'],
    ['https://api.localhost./', 'private_address'],
  ] as const)('refuses %s by %s', (raw, rule) => {
    expect(checkWebhookUrl(raw, false)).toEqual(refusedBy(rule));
  });

  it('accepts exactly 2048 characters and refuses 2049', () => {
    const base = 'https://hooks.example.com/';
    expect(checkWebhookUrl(base + 'a'.repeat(2048 - base.length), false)).toBeInstanceOf(URL);
    expect(checkWebhookUrl(base + 'a'.repeat(2049 - base.length), false)).toEqual(refusedBy('url_syntax'));
  });

  it('names what is accepted', () => {
    expect(checkWebhookUrl('http://hooks.example.com/', false)).toEqual({
      rule: 'https_required',
      message: 'url must use https; http is accepted only when private addresses are allowed',
    });
    expect(checkWebhookUrl('ftp://hooks.example.com/', true)).toEqual({
      rule: 'https_required',
      message: 'url must use https or http',
    });
    expect((checkWebhookUrl('https://10.1.2.3/', false) as UrlRefusal).message).toMatch(
      /public internet address/,
    );
  });

  it.each([
    ['http://127.0.0.1:3000/hook', 'http://127.0.0.1:3000/hook'],
    ['http://localhost/', 'http://localhost/'],
    ['https://[::1]:8443/', 'https://[::1]:8443/'],
    ['http://10.0.0.5/hook#x', 'http://10.0.0.5/hook'],
  ])('with private addresses allowed, accepts %s', (raw, href) => {
    expect((checkWebhookUrl(raw, true) as URL).href).toBe(href);
  });

  it.each([
    ['ftp://127.0.0.1/', 'https_required'],
    ['http://user:pw@127.0.0.1/', 'credentials'],
    ['http://127.0.0.1:0/', 'port'],
    ['nonsense', 'url_syntax'],
  ] as const)('with private addresses allowed, still refuses %s by %s', (raw, rule) => {
    expect(checkWebhookUrl(raw, true)).toEqual(refusedBy(rule));
  });

  it('tells refusals from URLs', () => {
    expect(isUrlRefusal(checkWebhookUrl('http://x/', false))).toBe(true);
    expect(isUrlRefusal(checkWebhookUrl('https://x/', false))).toBe(false);
  });
});

describe('resolvePublicAddresses', () => {
  const answering =
    (...addresses: { address: string; family: number }[]): LookupAll =>
    async () =>
      addresses;

  it.each([
    ['8.8.8.8', [{ address: '8.8.8.8', family: 4 }]],
    ['[2606:4700::1111]', [{ address: '2606:4700::1111', family: 6 }]],
    ['2606:4700::1111', [{ address: '2606:4700::1111', family: 6 }]],
  ])('takes the IP literal %s as it is, without DNS', async (host, expected) => {
    const lookup = jest.fn<ReturnType<LookupAll>, Parameters<LookupAll>>();
    await expect(resolvePublicAddresses(host, false, { lookup })).resolves.toEqual(expected);
    expect(lookup).not.toHaveBeenCalled();
  });

  it.each(['127.0.0.1', '[::1]', '10.0.0.1', '169.254.169.254', '[fd00:ec2::254]'])(
    'refuses the literal %s without DNS unless private addresses are allowed',
    async (host) => {
      const lookup = jest.fn<ReturnType<LookupAll>, Parameters<LookupAll>>();
      await expect(resolvePublicAddresses(host, false, { lookup })).resolves.toEqual(
        refusedBy('private_address'),
      );
      await expect(resolvePublicAddresses(host, true, { lookup })).resolves.toHaveLength(1);
      expect(lookup).not.toHaveBeenCalled();
    },
  );

  it('returns every address of a name, families read from the address', async () => {
    const lookup = jest.fn(
      answering({ address: '8.8.8.8', family: 4 }, { address: '2606:4700::1111', family: 4 }),
    );
    await expect(resolvePublicAddresses('hooks.example.com', false, { lookup })).resolves.toEqual([
      { address: '8.8.8.8', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]);
    expect(lookup).toHaveBeenCalledWith('hooks.example.com');
  });

  it.each([
    [[{ address: '10.0.0.1', family: 4 }]],
    [
      [
        { address: '8.8.8.8', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
    ],
    [
      [
        { address: '2606:4700::1111', family: 6 },
        { address: '::ffff:169.254.169.254', family: 6 },
      ],
    ],
    [
      [
        { address: '1.1.1.1', family: 4 },
        { address: 'fd00:ec2::254', family: 6 },
      ],
    ],
  ])('refuses a name when any of its addresses is not public: %j', async (addresses) => {
    const refused = await resolvePublicAddresses('rebind.example.com', false, {
      lookup: answering(...addresses),
    });
    expect(refused).toEqual(refusedBy('private_address'));
    expect((refused as UrlRefusal).message).toContain('rebind.example.com');
    await expect(
      resolvePublicAddresses('rebind.example.com', true, { lookup: answering(...addresses) }),
    ).resolves.toHaveLength(addresses.length);
  });

  it('refuses localhost names before any DNS', async () => {
    const lookup = jest.fn(answering({ address: '8.8.8.8', family: 4 }));
    await expect(resolvePublicAddresses('LocalHost.', false, { lookup })).resolves.toEqual(
      refusedBy('private_address'),
    );
    await expect(resolvePublicAddresses('app.localhost', false, { lookup })).resolves.toEqual(
      refusedBy('private_address'),
    );
    expect(lookup).not.toHaveBeenCalled();
  });

  it.each<[string, LookupAll]>([
    ['no address', answering()],
    ['an invalid address', answering({ address: 'not-an-ip', family: 4 })],
    [
      'a DNS error',
      () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })),
    ],
  ])('calls a name with %s unresolvable', async (_case, lookup) => {
    await expect(resolvePublicAddresses('nowhere.example.com', true, { lookup })).resolves.toEqual(
      refusedBy('unresolvable'),
    );
  });

  it('gives up on DNS at the deadline', async () => {
    const started = performance.now();
    const result = await resolvePublicAddresses('slow.example.com', false, {
      lookup: () => new Promise(() => undefined),
      timeoutMs: 100,
    });
    expect(result).toEqual({ rule: 'unresolvable', message: expect.stringContaining('100 ms') });
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('uses the system resolver by default (localhost, from the hosts file)', async () => {
    const addresses = await resolvePublicAddresses('localhost', true);
    expect(Array.isArray(addresses)).toBe(true);
    for (const { address } of addresses as { address: string }[])
      expect(['127.0.0.1', '::1']).toContain(address);
  });
});

import { isUuid, TCG_UUID_NAMESPACE, uuidV5 } from './uuid';

describe('uuidV5', () => {
  it('matches the RFC 9562 test vector (www.example.com in the DNS namespace)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });

  it('is stable for a slug under the project namespace and marks version 5', () => {
    const a = uuidV5('magic-the-gathering-alpha-black-lotus-rare');
    expect(a).toBe(uuidV5('magic-the-gathering-alpha-black-lotus-rare', TCG_UUID_NAMESPACE));
    expect(a[14]).toBe('5');
    expect(isUuid(a)).toBe(true);
    expect(uuidV5('other')).not.toBe(a);
  });
});

import { gzipSync } from 'node:zlib';
import { INTERNAL_TOKEN, startStack, Stack } from './stack';

/**
 * A service refuses a caller without the gateway's credential before it reads the body: whatever
 * such a caller sends (10 MB, a gzip bomb, broken JSON), the answer is the 403 in the version's
 * shape, never the parser's 413 or 400, which would mean the body had been read, inflated or parsed.
 */
const BIG = JSON.stringify([{ cardId: 'x'.repeat(10 * 1024 * 1024) }]);
const BODIES: [string, Record<string, string>, Buffer | string][] = [
  ['a 10 MB JSON body', { 'content-type': 'application/json' }, BIG],
  ['broken JSON', { 'content-type': 'application/json' }, '[{"cardId": '],
  [
    'a gzip body inflating to 10 MB',
    { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    gzipSync(BIG),
  ],
  ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1&'.repeat(5000)],
];

describe('the internal credential is checked before the body is read', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  }, 60_000);

  afterAll(() => stack.close());

  const post = (url: string, headers: Record<string, string>, body: Buffer | string) =>
    fetch(url, { method: 'POST', headers, body });

  describe.each([
    ['api-v1', 'v1', '/v1/cards'],
    ['api-v2', 'v2', '/v2/cards'],
  ])('%s', (_service, version, path) => {
    const base = () => (version === 'v1' ? stack.v1Url : stack.v2Url);

    it.each(BODIES)('POST %s without the credential is a 403', async (_what, headers, body) => {
      const credentials: Record<string, string>[] = [
        {},
        { 'x-tcg-internal-credential': 'guess-guess-guess-guess' },
      ];
      for (const credential of credentials) {
        const res = await post(`${base()}${path}`, { ...headers, ...credential }, body);
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' });
      }
    });

    it('still parses the body of the gateway (broken JSON with the credential is a 400)', async () => {
      const res = await post(
        `${base()}${path}`,
        { 'content-type': 'application/json', 'x-tcg-internal-credential': INTERNAL_TOKEN },
        '[{"cardId": ',
      );
      expect(res.status).toBe(400);
    });
  });
});

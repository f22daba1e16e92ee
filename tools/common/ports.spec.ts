import { createServer, Server } from 'node:net';
import { freePort, portFree, servicePort } from './ports';

describe('servicePort', () => {
  let held: Server;
  let taken: number;

  beforeAll(async () => {
    taken = await freePort();
    held = createServer();
    await new Promise<void>((r) => held.listen(taken, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => held.close(() => r())));

  it('keeps a free default, replaces a taken one, and keeps an explicit one even when taken', async () => {
    const free = await freePort();
    expect(await servicePort(undefined, free, '127.0.0.1')).toBe(free);
    expect(await portFree(taken, '127.0.0.1')).toBe(false);
    const other = await servicePort(undefined, taken, '127.0.0.1');
    expect(other).not.toBe(taken);
    expect(await portFree(other, '127.0.0.1')).toBe(true);
    expect(await servicePort(String(taken), free, '127.0.0.1')).toBe(taken);
  });
});

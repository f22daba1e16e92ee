import { createServer, Server } from 'node:net';
import { freePort } from '@tcg/persistence/testing';
import { portFree, portInUse, servicePort } from './ports';

describe('servicePort', () => {
  let held: Server;
  let taken: number;

  beforeAll(async () => {
    taken = await freePort();
    held = createServer();
    await new Promise<void>((r) => held.listen(taken, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => held.close(() => r())));

  it('keeps a free default, replaces a taken or reserved one, and keeps an explicit one even when taken', async () => {
    const free = await freePort();
    const none = new Set<number>();
    expect(await servicePort('API_V1_PORT', undefined, free, '127.0.0.1', none)).toBe(free);
    expect(await portFree(taken, '127.0.0.1')).toBe(false);
    const other = await servicePort('API_V1_PORT', undefined, taken, '127.0.0.1', none);
    expect(other).not.toBe(taken);
    expect(await portFree(other, '127.0.0.1')).toBe(true);
    // Free, but promised to the gateway.
    expect(await servicePort('API_V1_PORT', undefined, free, '127.0.0.1', new Set([free]))).not.toBe(free);
    expect(await servicePort('API_V1_PORT', String(taken), free, '127.0.0.1', none)).toBe(taken);
  });

  it('refuses an explicit port that is not one, naming its variable', async () => {
    for (const bad of ['abc', '0', '65536', '80.5', '-1'])
      await expect(servicePort('API_V2_PORT', bad, 8082, '127.0.0.1', new Set())).rejects.toThrow(
        `API_V2_PORT must be a port from 1 to 65535 (got '${bad}')`,
      );
  });
});

describe('portInUse', () => {
  it.each([
    [
      '{"level":"fatal","service":"api-v2","msg":"Error: listen EADDRINUSE: address already in use 127.0.0.1:9082"}',
      9082,
    ],
    ['Error: listen EADDRINUSE: address already in use :::8081', 8081],
    ['Error: listen EADDRINUSE: address already in use ::1:8080', 8080],
    ['{"level":"fatal","service":"api-v1","msg":"Error: connect ECONNREFUSED 127.0.0.1:5432"}', undefined],
  ])('reads the port a service could not listen on from %s', (line, port) => {
    expect(portInUse(line)).toBe(port);
  });
});

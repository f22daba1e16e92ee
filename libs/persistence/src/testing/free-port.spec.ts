import { createServer } from 'node:net';
import { freePort } from './free-port';

describe('freePort', () => {
  it('hands out distinct listenable ports below the ephemeral range, skipping one in use', async () => {
    const first = await freePort();
    // Whatever now listens on the next port in turn is skipped.
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(first + 1, '127.0.0.1', r));
    try {
      const ports = [first];
      for (let i = 0; i < 20; i++) ports.push(await freePort());
      expect(new Set(ports).size).toBe(ports.length);
      expect(ports).not.toContain(first + 1);
      for (const port of ports) {
        expect(port).toBeGreaterThanOrEqual(20_000);
        expect(port).toBeLessThan(32_768);
      }
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  });
});

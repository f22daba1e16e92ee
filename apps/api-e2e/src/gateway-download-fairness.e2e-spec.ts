import { PLANS } from '@tcg/domain';
import { writeParts } from '@tcg/http-service/testing';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { withinOneMinute } from './clock';
import { newKey } from './keys';
import { wire } from './raw-http';
import { type ScaledStack, startScaledStack } from './stack';

const DOWNLOAD = '/v1/bulk/test-game/ndjson.gz';

/**
 * api-v1's bulk files as a stand-in: any GET is a 256 MiB attachment, written as fast as the
 * gateway takes it, so a client that reads nothing keeps its download in progress.
 */
async function fileServer(): Promise<{ url: string; close(): Promise<void> }> {
  const part = Buffer.alloc(64 * 1024, 7);
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/gzip',
      'content-disposition': 'attachment; filename="test-game.ndjson.gz"',
    });
    writeParts(res, part, 4096);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A download that reads its status line, then nothing more: a client on a very slow link. */
function stalledDownload(gatewayUrl: string, key: string): { socket: Socket; status: Promise<number> } {
  const socket = connect(Number(new URL(gatewayUrl).port), '127.0.0.1');
  socket.on('error', () => undefined);
  const status = new Promise<number>((resolve) => {
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 0));
    });
    socket.once('close', () => resolve(0));
  });
  socket.on('connect', () => socket.write(wire(`GET ${DOWNLOAD} HTTP/1.1`, { 'x-api-key': key })));
  return { socket, status };
}

describe('finding 3: a few keys cannot hold the download pool', () => {
  let files: Awaited<ReturnType<typeof fileServer>>;
  let stack: ScaledStack;
  const downloads: Socket[] = [];

  beforeAll(async () => {
    files = await fileServer();
    stack = await startScaledStack({
      gateways: 2,
      v1Url: files.url,
      v2Url: files.url,
      // Through Redis when the run has one (REDIS_URL), else PostgreSQL: the two stores leases live in.
      redis: true,
      // Only the share-out is under test: no download is cut for its pace meanwhile.
      gatewayEnv: { DOWNLOAD_GRACE_MS: '600000', WRITE_IDLE_TIMEOUT_MS: '600000' },
    });
  }, 120_000);
  afterAll(async () => {
    for (const s of downloads) s.destroy();
    await stack?.close();
    await files?.close();
  });

  const open = async (gateway: number, key: string, n: number): Promise<number[]> => {
    const opened = Array.from({ length: n }, () => stalledDownload(stack.gateways[gateway]!.url, key));
    downloads.push(...opened.map((d) => d.socket));
    return Promise.all(opened.map((d) => d.status));
  };

  it('slow downloads of two enterprise keys on both gateways never refuse a third key’s', async () => {
    const [a, b, c] = await Promise.all([newKey('enterprise'), newKey('enterprise'), newKey('starter')]);
    // Each greedy key asks gateway 0 for its plan's whole allowance, then gateway 1 for as much.
    const cap = PLANS.enterprise.concurrentDownloads;
    const first = [...(await open(0, a, cap)), ...(await open(0, b, cap))];
    const second = [...(await open(1, a, cap)), ...(await open(1, b, cap))];
    const admitted = (statuses: number[]) => statuses.filter((s) => s === 200).length;
    // One gateway gives a key at most its share of the 8 connections; the plan's 4 hold across both.
    expect(admitted(first)).toBe(4);
    expect(admitted(first) + admitted(second)).toBe(2 * cap);
    expect([...first, ...second].filter((s) => s !== 200).every((s) => s === 429)).toBe(true);

    // Every download of a and b still in progress, a third key is served on either gateway.
    expect(await open(0, c, 1)).toEqual([200]);
    expect(await open(1, c, 1)).toEqual([200]);
  }, 60_000);

  it('charges nothing for a download refused because the key’s place is held on the other gateway', async () => {
    await withinOneMinute();
    const key = await newKey('free'); // one download at once
    expect(await open(0, key, 1)).toEqual([200]);
    const ask = async (path: string) => {
      const res = await fetch(`${stack.gateways[1]!.url}${path}`, { headers: { 'x-api-key': key } });
      await res.body?.cancel();
      return res;
    };
    // What the user reads on v2 (the per-minute window is the free plan's closest to exhaustion).
    const remaining = async () => Number((await ask('/v2/games')).headers.get('ratelimit-remaining'));
    const before = await remaining();
    // Every check of gateway 1's own passes; the lease across gateways refuses it.
    expect((await ask(DOWNLOAD)).status).toBe(429);
    // Only the second v2 request was charged.
    expect(await remaining()).toBe(before - 1);
  }, 60_000);
});

import { refreshSummaries, writeCatalogue } from '@tcg/persistence';
import { tinyCatalogue, useTestDatabase } from '@tcg/persistence/testing';
import { randomBytes } from 'node:crypto';
import { connect, Socket } from 'node:net';
import { DataSource } from 'typeorm';
import { storeSnapshot } from './bulk-fixture';
import { withKeys } from './keys';
import { wire } from './raw-http';
import { startStack, Stack } from './stack';

/** A stored snapshot big enough that no reader below gets near its end: 16 MiB in 64 KiB parts. */
const PART_BYTES = 64 * 1024;
const PARTS = 256;
const READERS = 80;
/** What each slow reader takes from its socket, every READ_EVERY_MS: 256 B/s, as in the finding. */
const READ_BYTES = 512;
const READ_EVERY_MS = 2_000;
const DOWNLOAD = '/v1/bulk/test-game/ndjson.gz';

/** Stores a snapshot of random bytes as the latest NDJSON file of test-game; its checksum. */
async function storeBigSnapshot(ds: DataSource): Promise<string> {
  const parts = Array.from({ length: PARTS }, () => randomBytes(PART_BYTES));
  return (await storeSnapshot(ds, 'test-game', parts)).sha256;
}

interface SlowReader {
  readonly socket: Socket;
  /** Resolves with the first bytes that came back (the status line), or '' when closed first. */
  readonly started: Promise<string>;
}

/**
 * A download on a socket that takes 512 bytes every 2 s: past the socket's own buffer (its
 * readable high-water mark) the rest stays in the kernel's buffers, so the sender is held back as
 * by a client on a very slow link.
 */
function slowReader(port: number, key: string): SlowReader {
  const socket = connect(port, '127.0.0.1');
  let timer: NodeJS.Timeout | undefined;
  const started = new Promise<string>((resolve) => {
    socket.once('readable', () => resolve(String(socket.read(READ_BYTES) ?? '')));
    socket.once('close', () => resolve(''));
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => clearInterval(timer));
  socket.on('connect', () => {
    socket.write(wire(`GET ${DOWNLOAD} HTTP/1.1`, { 'x-api-key': key }));
    timer = setInterval(() => socket.read(READ_BYTES), READ_EVERY_MS);
  });
  return { socket, started };
}

describe('finding 1: slow bulk readers do not starve other v1 clients', () => {
  let stack: Stack;
  let ds: DataSource;
  let readerKeys: string[];
  let otherKey: string;
  const readers: SlowReader[] = [];

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    await writeCatalogue(ds, tinyCatalogue());
    await refreshSummaries(ds);
    await storeBigSnapshot(ds);
    // Distinct keys, so a per-key limit on downloads alone cannot be what keeps the others served.
    readerKeys = await withKeys(async (keys) => {
      const made: string[] = [];
      for (let i = 0; i < READERS; i++) made.push((await keys.create('enterprise', `reader-${i}`)).key);
      return made;
    });
    otherKey = await withKeys(async (keys) => (await keys.create('starter', 'other')).key);
    stack = await startStack();
  });
  afterAll(async () => {
    for (const r of readers) r.socket.destroy();
    await stack?.close();
  });

  it('GET /v1/games and a /v1/cards search stay 200 under 2 s while 80 downloads read at 256 B/s', async () => {
    const port = Number(new URL(stack.gatewayUrl).port);
    // A few at a time, as clients arriving over a minute would: a burst of 80 at once would only
    // measure how fast api-v1 answers 80 headers. Each has its answer before the next few start.
    const firstBytes: string[] = [];
    for (let i = 0; i < READERS; i += 4) {
      const wave = readerKeys.slice(i, i + 4).map((key) => slowReader(port, key));
      readers.push(...wave);
      firstBytes.push(...(await Promise.all(wave.map((r) => r.started))));
    }
    expect(firstBytes.filter((b) => b.startsWith('HTTP/1.1 200')).length).toBeGreaterThan(0);

    const seen: { path: string; status: number; ms: number }[] = [];
    for (let round = 0; round < 8; round++) {
      for (const path of ['/v1/games', '/v1/cards?q=Dragon']) {
        const started = Date.now();
        const status = await fetch(`${stack.gatewayUrl}${path}`, {
          headers: { 'x-api-key': otherKey },
          signal: AbortSignal.timeout(15_000),
        }).then(
          async (res) => (await res.arrayBuffer(), res.status),
          () => 0,
        );
        seen.push({ path, status, ms: Date.now() - started });
      }
      await new Promise((r) => setTimeout(r, 1_000));
    }
    expect(seen.filter((s) => s.status !== 200 || s.ms >= 2_000)).toEqual([]);
  }, 90_000);
});

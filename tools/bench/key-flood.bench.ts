import { generateApiKey } from '@tcg/domain';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { randomBytes } from 'node:crypto';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase, resolveDatabase } from '../common/database';
import { log, parseArgs } from '../common/log';
import { percentile } from './sampling';
import { startService } from './services';

/**
 * A valid key's latency through the gateway, alone and while random keys flood it (issue 9:
 * 1,500 random-key requests took a valid key's p95 from 15 ms to 594 ms). The gateway proxies to a
 * stand-in upstream in this process, so what is measured is admission, not a catalogue query.
 * `npm run build && node dist/tools/bench/key-flood.bench.js [--requests 400] [--flood 1500] [--rate 0]`
 * (`--rate`: flood requests per second; 0, the default, sends them as fast as the gateway answers.
 * `--key-ttl <ms>`: the gateway's KEY_CACHE_TTL_MS.)
 * Phases: quiet; a flood from one address (half malformed, half well-formed keys); a flood of
 * well-formed keys spread over 20 addresses (each looked up in PostgreSQL until its address is
 * blocked).
 */

const agents = new Map<string, Agent>();
function call(url: string, key: string, from = '127.0.0.1'): Promise<{ status: number; ms: number }> {
  let agent = agents.get(from);
  if (!agent) agents.set(from, (agent = new Agent({ keepAlive: true, maxSockets: 32, localAddress: from })));
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'x-api-key': key } }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function phase(
  url: string,
  valid: { key: string; from: string },
  requests: number,
  flood?: { count: number; rate: number; key: (i: number) => string; from: (i: number) => string },
): Promise<Record<string, unknown>> {
  const latencies: number[] = [];
  const validStatuses: Record<number, number> = {};
  const floodStatuses: Record<number, number> = {};
  let floodMs = 0;
  let floodDone = !flood;
  const started = Date.now();
  const floodRun = flood
    ? (async () => {
        let next = 0;
        await Promise.all(
          Array.from({ length: 32 }, async () => {
            while (next < flood.count) {
              const i = next++;
              // Paced (when a rate is given) so both builds compared face the same flood.
              const due = started + (flood.rate > 0 ? (i * 1000) / flood.rate : 0);
              if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
              const { status } = await call(url, flood.key(i), flood.from(i));
              floodStatuses[status] = (floodStatuses[status] ?? 0) + 1;
            }
          }),
        );
        floodDone = true;
        floodMs = Date.now() - started;
      })()
    : Promise.resolve();
  // The valid key: 4 clients, until its share is done and the flood is over.
  let sent = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (sent < requests || !floodDone) {
        sent++;
        // With a paced flood, the valid key is paced too (100/s), under its plan's 1,000 a minute.
        if (flood && flood.rate > 0) await new Promise((r) => setTimeout(r, 40));
        const { status, ms } = await call(url, valid.key, valid.from);
        validStatuses[status] = (validStatuses[status] ?? 0) + 1;
        latencies.push(ms);
      }
    }),
  );
  await floodRun;
  latencies.sort((a, b) => a - b);
  const round = (x: number): number => Math.round(x * 100) / 100;
  return {
    valid_requests: latencies.length,
    valid_statuses: validStatuses,
    p50_ms: round(percentile(latencies, 0.5)),
    p95_ms: round(percentile(latencies, 0.95)),
    p99_ms: round(percentile(latencies, 0.99)),
    flood_statuses: floodStatuses,
    flood_ms: floodMs,
  };
}

async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2));
  const requests = Number(options.get('requests') ?? 400);
  const floodCount = Number(options.get('flood') ?? 1500);
  const rate = Number(options.get('rate') ?? 0);
  const keyTtl = options.get('key-ttl');
  const upstream = createServer((req, res) => {
    req.resume();
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const db = await resolveDatabase();
  const ds = await openDatabase(db.url);
  const gateway = await startService('api-gateway', {
    DATABASE_URL: db.url,
    INTERNAL_TOKEN: randomBytes(24).toString('base64url'),
    API_V1_URL: upstreamUrl,
    API_V2_URL: upstreamUrl,
    // A short TTL makes the valid key's refreshes fall inside the flood, as in production over time.
    ...(typeof keyTtl === 'string' ? { KEY_CACHE_TTL_MS: keyTtl } : {}),
    ...(process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
  });
  try {
    const repo = new TypeOrmApiKeyRepository(ds);
    const url = `${gateway.url}/v1/x`;
    // A fresh enterprise key per phase, so no phase runs into the plan's per-minute limit.
    // The flooding address stays blocked for a minute after phase 2, and a key not yet in use is
    // refused from a blocked address: phase 3's valid client uses another address.
    const freshKey = async (from: string): Promise<{ key: string; from: string }> => {
      const { key } = await repo.create('enterprise', 'bench-key-flood');
      for (let i = 0; i < 20; i++) await call(url, key, from); // cached, and the JIT warm
      return { key, from };
    };
    await phase(url, await freshKey('127.0.0.1'), 200); // warm-up
    const quiet = await phase(url, await freshKey('127.0.0.1'), requests);
    const oneAddress = await phase(url, await freshKey('127.0.0.1'), requests, {
      count: floodCount,
      rate,
      key: (i) => (i % 2 === 0 ? generateApiKey() : `guess-${i}`),
      from: () => '127.0.0.1',
    });
    const spread = await phase(url, await freshKey('127.0.0.2'), requests, {
      count: floodCount,
      rate,
      key: () => generateApiKey(),
      from: (i) => `127.0.0.${10 + (i % 20)}`,
    });
    const result = {
      bench: 'key-flood',
      redis: Boolean(process.env['REDIS_URL']),
      flood_rate: rate,
      key_cache_ttl_ms: typeof keyTtl === 'string' ? Number(keyTtl) : 'default',
      quiet,
      flood_one_address: oneAddress,
      flood_20_addresses: spread,
    };
    console.table(
      Object.fromEntries(
        Object.entries({ quiet, 'flood, one address': oneAddress, 'flood, 20 addresses': spread }).map(
          ([k, r]) => [
            k,
            {
              'p50 ms': r['p50_ms'],
              'p95 ms': r['p95_ms'],
              'p99 ms': r['p99_ms'],
              valid: r['valid_requests'],
            },
          ],
        ),
      ),
    );
    process.stdout.write(`${JSON.stringify(result)}\n`);
    await ds.query(
      `UPDATE api_keys SET revoked_at = now() WHERE label = 'bench-key-flood' AND revoked_at IS NULL`,
    );
  } finally {
    for (const a of agents.values()) a.destroy();
    await gateway.stop();
    await ds.destroy();
    await db.stop();
    upstream.close();
  }
}

main().catch((error: unknown) => {
  log('error', 'bench failed', { error: (error as Error).message });
  process.exit(1);
});

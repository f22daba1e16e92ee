import autocannon from 'autocannon';
import { encodeUsage, INTERNAL_HEADERS } from '@tcg/domain';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { randomBytes } from 'node:crypto';
import { openDatabase, resolveDatabase } from '../common/database';
import { log, parseArgs } from '../common/log';
import { currentHour, loadSample } from '../loader/sample-loader';
import { startService } from './services';

/**
 * The gateway's own cost: the same lookup (GET /v1/sets?game=magic-the-gathering) straight to
 * api-v1 and through the gateway (key check, quota, proxy), in one run, with the same load.
 * Everything shares this machine's cores with the load generator, so read the ratio, not the
 * absolute numbers. `npm run bench:gateway -- [--duration 10] [--connections 32] [--path /v1/games]`
 */
let PATH = '/v1/sets?game=magic-the-gathering';

interface Result {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

async function measure(
  url: string,
  connections: number,
  duration: number,
  headers: () => Record<string, string>,
): Promise<Result> {
  const run = (seconds: number) =>
    autocannon({
      url,
      connections,
      duration: seconds,
      requests: [
        {
          method: 'GET',
          path: PATH,
          setupRequest: (req) => ({ ...req, headers: { ...req.headers, ...headers() } }),
        },
      ],
    });
  await run(2); // warm-up: JIT, connection pools, key cache
  const r = await run(duration);
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
  };
}

async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2));
  const duration = Number(options.get('duration') ?? 10);
  const connections = Number(options.get('connections') ?? 32);
  const path = options.get('path');
  if (typeof path === 'string') PATH = path;
  const db = await resolveDatabase();
  const ds = await openDatabase(db.url);
  const services: { stop(): Promise<void> }[] = [];
  try {
    const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM cards');
    if (n === 0) await loadSample(ds, 'small', { asOf: currentHour() });
    // Enterprise keys, rotated, so the plan's 1,000 a minute never limits the benchmark.
    const repo = new TypeOrmApiKeyRepository(ds);
    const keys = await Promise.all(
      Array.from({ length: 200 }, () => repo.create('enterprise', 'bench').then((k) => k.key)),
    );
    const internalToken = randomBytes(24).toString('base64url');
    const common = {
      DATABASE_URL: db.url,
      INTERNAL_TOKEN: internalToken,
      ...(process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
    };
    const v1 = await startService('api-v1', common);
    services.push(v1);
    const gateway = await startService('api-gateway', { ...common, API_V1_URL: v1.url, API_V2_URL: v1.url });
    services.push(gateway);

    const usage = encodeUsage({
      plan: 'enterprise',
      minute: { limit: 1000, used: 1, resetSeconds: 60 },
      day: { limit: 100000, used: 1, resetSeconds: 86400 },
      month: { limit: 2000000, used: 1, resetSeconds: 2592000 },
    });
    const direct = await measure(v1.url, connections, duration, () => ({
      [INTERNAL_HEADERS.credential]: internalToken,
      [INTERNAL_HEADERS.usage]: usage,
    }));
    let i = 0;
    const viaGateway = await measure(gateway.url, connections, duration, () => ({
      'x-api-key': keys[i++ % keys.length]!,
    }));

    const rows = { 'api-v1 direct': direct, 'through gateway': viaGateway };
    console.table(
      Object.fromEntries(
        Object.entries(rows).map(([k, r]) => [
          k,
          {
            'req/s': Math.round(r.rps),
            'p50 ms': r.p50,
            'p99 ms': r.p99,
            non2xx: r.non2xx,
            errors: r.errors,
          },
        ]),
      ),
    );
    process.stdout.write(
      `${JSON.stringify({
        bench: 'gateway-overhead',
        path: PATH,
        connections,
        duration,
        redis: Boolean(process.env['REDIS_URL']),
        direct,
        gateway: viaGateway,
        throughput_ratio: Number((viaGateway.rps / direct.rps).toFixed(3)),
        added_p50_ms: viaGateway.p50 - direct.p50,
        added_p99_ms: viaGateway.p99 - direct.p99,
      })}\n`,
    );
    await ds.query(`UPDATE api_keys SET revoked_at = now() WHERE label = 'bench' AND revoked_at IS NULL`);
  } finally {
    for (const s of services.reverse()) await s.stop();
    await ds.destroy();
    await db.stop();
  }
}

main().catch((error: unknown) => {
  log('error', 'bench failed', { error: (error as Error).message });
  process.exit(1);
});

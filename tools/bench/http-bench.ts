import 'reflect-metadata';
import autocannon from 'autocannon';
import { Controller, Get, Header, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { openDatabase, resolveDatabase } from '../common/database';
import { log } from '../common/log';
import { startService } from './services';

/**
 * The harness the API benchmarks share: the gateway and one API service as processes on the loaded
 * catalogue, enterprise keys, two floors answering a sample response's exact bytes (a raw
 * node:http server and a Nest-on-Express hello world) and a table where every row is also a ratio.
 */
export interface Row {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
}

/** Exact percentiles from every response time (autocannon's summary has no p95). */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!.toFixed(2));
}

export async function measure(opts: autocannon.Options, warmup = 2): Promise<Row> {
  await autocannon({ ...opts, duration: warmup });
  const times: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  });
  times.sort((a, b) => a - b);
  return {
    rps: r.requests.average,
    p50: percentile(times, 0.5),
    p95: percentile(times, 0.95),
    p99: percentile(times, 0.99),
    non2xx: r.non2xx,
  };
}

async function floors(body: Buffer): Promise<{ nest: string; raw: string; close(): Promise<void> }> {
  const text = body.toString('utf8');
  @Controller()
  class HelloController {
    @Get('hello')
    @Header('content-type', 'application/json; charset=utf-8')
    hello(): string {
      return text; // a string goes out as-is (a Buffer would be serialised as JSON)
    }
  }
  @Module({ controllers: [HelloController] })
  class HelloModule {}
  const nest = await NestFactory.create(HelloModule, { logger: false });
  await nest.listen(0, '127.0.0.1');
  const raw = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
  const port = (s: { address(): AddressInfo | string | null }) => (s.address() as AddressInfo).port;
  return {
    nest: `http://127.0.0.1:${port(nest.getHttpServer())}/hello`,
    raw: `http://127.0.0.1:${port(raw)}/hello`,
    close: async () => {
      await nest.close();
      await new Promise<void>((r) => raw.close(() => r()));
    },
  };
}

export interface BenchContext {
  readonly ds: DataSource;
  readonly gatewayUrl: string;
  readonly connections: number;
  readonly duration: number;
  /** The next of many enterprise keys, so no quota is the bottleneck. */
  key(): string;
  /** Measures a GET scenario through the gateway; `path` is called once per request. */
  get(path: () => string, connections?: number): Promise<Row>;
  /** Measures the floors on `sample`'s exact bytes: call once, before the scenarios. */
  floors(sample: Buffer): Promise<void>;
}

export const NODE_FLOOR = 'raw node:http, same bytes';
export const NEST_FLOOR = 'Nest on Express, same bytes';

/** Starts `app` behind the gateway, runs `scenarios`, prints the table and one JSON line. */
export async function runBench(
  name: string,
  app: 'api-v1' | 'api-v2',
  options: { duration: number; connections: number },
  scenarios: (ctx: BenchContext) => Promise<Record<string, Row>>,
): Promise<void> {
  const db = await resolveDatabase();
  const ds = await openDatabase(db.url);
  const stops: (() => Promise<void>)[] = [];
  const label = `bench-${randomBytes(4).toString('hex')}`;
  try {
    const repo = new TypeOrmApiKeyRepository(ds);
    const keys = await Promise.all(
      Array.from({ length: 300 }, () => repo.create('enterprise', label).then((k) => k.key)),
    );
    const common = {
      DATABASE_URL: db.url,
      INTERNAL_TOKEN: randomBytes(24).toString('base64url'),
      DATABASE_POOL_SIZE: '10',
    };
    const service = await startService(app, common);
    stops.push(service.stop);
    const gateway = await startService('api-gateway', {
      ...common,
      API_V1_URL: service.url,
      API_V2_URL: service.url,
    });
    stops.push(gateway.stop);
    let k = 0;
    const key = () => keys[k++ % keys.length]!;
    const { connections, duration } = options;
    const floorRows: Record<string, Row> = {};
    const ctx: BenchContext = {
      ds,
      gatewayUrl: gateway.url,
      connections,
      duration,
      key,
      get: (path, conns = connections) =>
        measure({
          url: gateway.url,
          connections: conns,
          duration,
          requests: [
            {
              method: 'GET',
              setupRequest: (r) => ({ ...r, path: path(), headers: { ...r.headers, 'x-api-key': key() } }),
            },
          ],
        }),
      floors: async (sample) => {
        const floor = await floors(sample);
        stops.push(floor.close);
        floorRows[NODE_FLOOR] = await measure({ url: floor.raw, connections, duration });
        floorRows[NEST_FLOOR] = await measure({ url: floor.nest, connections, duration });
      },
    };
    const rows = { ...(await scenarios(ctx)) };
    const all = { ...floorRows, ...rows };
    const raw = floorRows[NODE_FLOOR];
    const nest = floorRows[NEST_FLOOR];
    const ratio = (r: Row, floor: Row | undefined) => (floor ? `${(r.rps / floor.rps).toFixed(3)}x` : '-');
    console.table(
      Object.fromEntries(
        Object.entries(all).map(([rowName, r]) => [
          rowName,
          {
            'req/s': Math.round(r.rps),
            'p50 ms': r.p50,
            'p95 ms': r.p95,
            'p99 ms': r.p99,
            'vs node:http': ratio(r, raw),
            'vs Nest': ratio(r, nest),
            non2xx: r.non2xx,
          },
        ]),
      ),
    );
    process.stdout.write(`${JSON.stringify({ bench: name, connections, duration, rows: all })}\n`);
  } finally {
    await ds.query(`UPDATE api_keys SET revoked_at = now() WHERE label = $1 AND revoked_at IS NULL`, [label]);
    for (const stop of stops.reverse()) await stop();
    await ds.destroy();
    await db.stop();
  }
}

export function benchFailed(error: unknown): void {
  log('error', 'bench failed', { error: (error as Error).message });
  process.exit(1);
}

import 'reflect-metadata';
import autocannon from 'autocannon';
import { Controller, Get, Header, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmApiKeyRepository } from '@tcg/persistence';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openDatabase, resolveDatabase } from '../common/database';
import { log, parseArgs } from '../common/log';
import { startService } from './services';

/**
 * api-v1 through the gateway on the loaded catalogue (run it on `full`): a single-card lookup,
 * a 200-item batch and name searches, next to two floors answering the lookup's exact bytes — a
 * Nest-on-Express hello world and a raw node:http server — so every figure is also a ratio.
 * `npm run bench:v1 -- [--duration 10] [--connections 16]`; DATABASE_URL selects the catalogue.
 */
interface Row {
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
}

/** Exact percentiles from every response time (autocannon's summary has no p95). */
function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return Number(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!.toFixed(2));
}

async function run(opts: autocannon.Options, warmup = 2): Promise<Row> {
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

async function main(): Promise<void> {
  const { options } = parseArgs(process.argv.slice(2));
  const duration = Number(options.get('duration') ?? 10);
  const connections = Number(options.get('connections') ?? 16);
  const db = await resolveDatabase();
  const ds = await openDatabase(db.url);
  const stops: (() => Promise<void>)[] = [];
  try {
    const cards: { id: string; name: string }[] = await ds.query(
      `SELECT c.id, c.name FROM cards c JOIN card_values cv ON cv.card_uuid = c.uuid ORDER BY md5(c.id) LIMIT 2000`,
    );
    if (cards.length === 0)
      throw new Error('no priced cards: load a catalogue first (npm run load -- --size full)');
    const repo = new TypeOrmApiKeyRepository(ds);
    const keys = await Promise.all(
      Array.from({ length: 300 }, () => repo.create('enterprise', 'bench').then((k) => k.key)),
    );
    const common = {
      DATABASE_URL: db.url,
      INTERNAL_TOKEN: randomBytes(24).toString('base64url'),
      DATABASE_POOL_SIZE: '10',
    };
    const v1 = await startService('api-v1', common);
    stops.push(v1.stop);
    const gateway = await startService('api-gateway', { ...common, API_V1_URL: v1.url, API_V2_URL: v1.url });
    stops.push(gateway.stop);

    let k = 0;
    let c = 0;
    const key = () => keys[k++ % keys.length]!;
    const pick = () => cards[c++ % cards.length]!;
    const base = { url: gateway.url, connections, duration };

    const lookupPath = (id: string) => `/v1/cards?cardId=${encodeURIComponent(id)}`;
    const sample = Buffer.from(
      await (
        await fetch(`${gateway.url}${lookupPath(cards[0]!.id)}`, { headers: { 'x-api-key': key() } })
      ).arrayBuffer(),
    );
    const floor = await floors(sample);
    stops.push(floor.close);

    const rows: Record<string, Row> = {};
    rows['raw node:http, same bytes'] = await run({ url: floor.raw, connections, duration });
    rows['Nest on Express, same bytes'] = await run({ url: floor.nest, connections, duration });
    rows['single-card lookup'] = await run({
      ...base,
      requests: [
        {
          method: 'GET',
          setupRequest: (r) => ({
            ...r,
            path: lookupPath(pick().id),
            headers: { ...r.headers, 'x-api-key': key() },
          }),
        },
      ],
    });
    rows['200-item batch'] = await run({
      ...base,
      connections: Math.max(1, Math.floor(connections / 4)),
      requests: [
        {
          method: 'POST',
          setupRequest: (r) => ({
            ...r,
            path: '/v1/cards?include_price_history=false',
            headers: { ...r.headers, 'x-api-key': key(), 'content-type': 'application/json' },
            body: JSON.stringify(Array.from({ length: 200 }, () => ({ cardId: pick().id }))),
          }),
        },
      ],
    });
    rows['q search (name with a typo)'] = await run({
      ...base,
      requests: [
        {
          method: 'GET',
          setupRequest: (r) => {
            const name = pick().name;
            const typo = name.length > 4 ? name.slice(0, 2) + name.slice(3) : name; // drop the third letter
            return {
              ...r,
              path: `/v1/cards?q=${encodeURIComponent(typo)}`,
              headers: { ...r.headers, 'x-api-key': key() },
            };
          },
        },
      ],
    });

    const raw = rows['raw node:http, same bytes']!;
    const nest = rows['Nest on Express, same bytes']!;
    console.table(
      Object.fromEntries(
        Object.entries(rows).map(([name, r]) => [
          name,
          {
            'req/s': Math.round(r.rps),
            'p50 ms': r.p50,
            'p95 ms': r.p95,
            'p99 ms': r.p99,
            'vs node:http': `${(r.rps / raw.rps).toFixed(3)}x`,
            'vs Nest': `${(r.rps / nest.rps).toFixed(3)}x`,
            non2xx: r.non2xx,
          },
        ]),
      ),
    );
    process.stdout.write(
      `${JSON.stringify({ bench: 'v1', connections, duration, lookupBytes: sample.length, rows })}\n`,
    );
    await ds.query(`UPDATE api_keys SET revoked_at = now() WHERE label = 'bench' AND revoked_at IS NULL`);
  } finally {
    for (const stop of stops.reverse()) await stop();
    await ds.destroy();
    await db.stop();
  }
}

main().catch((error: unknown) => {
  log('error', 'bench failed', { error: (error as Error).message });
  process.exit(1);
});

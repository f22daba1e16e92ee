import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dragon, goblin, goblinNm, knight, knightNm, nm, seedCatalogue, series } from './fixtures';
import { fetchWithKey } from './http';
import { withKeys } from './keys';
import { workerDatabaseUrl } from '@tcg/persistence/testing';
import { Client } from 'pg';
import { INTERNAL_TOKEN, startStack, Stack } from './stack';

const DOCKER = resolve(__dirname, '../../../docker');
const hasPromtool = spawnSync('promtool', ['--version']).status === 0;
if (!hasPromtool) process.stdout.write('promtool not found: the check of the Prometheus files is skipped\n');

/** One sample of a Prometheus text exposition: its name, labels and value. */
interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The names a scrape declares (`# TYPE`), with the series names a histogram adds. */
function declaredNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^# TYPE (\S+) (\w+)$/gm)) {
    names.add(m[1]!);
    if (m[2] === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(m[1]! + s);
  }
  return names;
}

/** The sum of the samples named `name` whose labels include `labels` (0 when there is none). */
function total(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

function has(samples: readonly Sample[], name: string, labels: Record<string, string> = {}): boolean {
  return samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

describe('operators: /metrics on each admin port, access lines (built stack, real HTTP)', () => {
  let stack: Stack;
  let key: string;
  let keyId: string;
  const scrape = async (url: string) => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };
  const scrapeAll = async () => ({
    gateway: parseSamples(await scrape(stack.metricsUrls.gateway)),
    v1: parseSamples(await scrape(stack.metricsUrls.v1)),
    v2: parseSamples(await scrape(stack.metricsUrls.v2)),
  });
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetchWithKey(`${stack.gatewayUrl}${path}`, key, { headers });

  beforeAll(async () => {
    await seedCatalogue(
      [dragon, knight, goblin],
      [nm, knightNm, goblinNm],
      [{ variantUuid: nm.uuid, ...series(1000) }],
    );
    ({ key, keyId } = await withKeys(async (keys) => {
      const created = await keys.create('professional', 'observability e2e');
      return { key: created.key, keyId: created.record.id };
    }));
    // LOG_LEVEL log: the access lines are info lines.
    stack = await startStack({ metrics: true, logs: true, env: { LOG_LEVEL: 'log' } });
  });
  afterAll(async () => {
    await stack.close();
  });

  it('counts requests by route template, version and status at the gateway and in each service', async () => {
    const before = await scrapeAll();
    const lookup = await get(`/v2/cards/${dragon.uuid}?regions=NA,EU`);
    expect(lookup.status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await get('/v1/games')).status).toBe(200);
    expect((await fetch(`${stack.gatewayUrl}/v1/games`)).status).toBe(401); // no key
    expect((await get('/v1/no-such-route')).status).toBe(404);
    const preflight = await fetch(`${stack.gatewayUrl}/v2/cards/${dragon.uuid}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://example.com', 'access-control-request-method': 'GET' },
    });
    expect(preflight.status).toBe(204);
    const after = await scrapeAll();

    const moved = (side: keyof typeof before, name: string, labels: Record<string, string> = {}): number =>
      total(after[side], name, labels) - total(before[side], name, labels);

    // The gateway: the proxied requests, under the templates of their guarded targets.
    const card = { route: '/v2/cards/:id', method: 'GET', version: 'v2', status: '200' };
    expect(moved('gateway', 'tcg_http_requests_total', { ...card, service: 'api-gateway' })).toBe(1);
    expect(moved('gateway', 'tcg_http_request_duration_seconds_count', card)).toBe(1);
    expect(has(after.gateway, 'tcg_http_request_duration_seconds_bucket', { ...card, le: '0.005' })).toBe(
      true,
    );
    expect(moved('gateway', 'tcg_http_requests_total', { route: '/v1/games', status: '200' })).toBe(3);
    expect(moved('gateway', 'tcg_http_requests_total', { route: '/v1/games', status: '401' })).toBe(1);
    expect(
      moved('gateway', 'tcg_http_requests_total', { route: 'unmatched', version: 'v1', status: '404' }),
    ).toBe(1);
    expect(moved('gateway', 'tcg_http_requests_total', { route: '/v2/cards/:id', method: 'OPTIONS' })).toBe(
      1,
    );
    // No series names a raw path.
    expect(after.gateway.filter((s) => s.labels['route']?.includes(dragon.uuid))).toEqual([]);
    // Admission decisions, units charged (the lookup in two regions costs 2), upstreams, key cache.
    expect(moved('gateway', 'tcg_gateway_admissions_total', { outcome: 'admitted' })).toBe(5);
    expect(moved('gateway', 'tcg_gateway_admissions_total', { outcome: 'MISSING_API_KEY' })).toBe(1);
    expect(moved('gateway', 'tcg_gateway_charged_units_total', { version: 'v2' })).toBe(2);
    expect(moved('gateway', 'tcg_gateway_charged_units_total', { version: 'v1' })).toBe(4);
    expect(
      moved('gateway', 'tcg_upstream_response_duration_seconds_count', { upstream: 'api-v2', status: '200' }),
    ).toBe(1);
    expect(moved('gateway', 'tcg_upstream_response_duration_seconds_count', { upstream: 'api-v1' })).toBe(4);
    expect(moved('gateway', 'tcg_gateway_api_key_cache_lookups_total')).toBe(5);
    expect(
      total(after.gateway, 'tcg_gateway_api_key_cache_lookups_total', { result: 'miss' }),
    ).toBeGreaterThan(0);
    expect(
      total(after.gateway, 'tcg_gateway_quota_store_in_memory', {
        store: process.env['REDIS_URL'] ? 'redis' : 'postgres',
      }),
    ).toBe(0);
    expect(has(after.gateway, 'tcg_db_pool_connections', { state: 'idle' })).toBe(true);
    expect(has(after.gateway, 'nodejs_eventloop_lag_p99_seconds')).toBe(true);

    // The services: their own routes' templates, the pool, the response cache and the data version.
    expect(moved('v2', 'tcg_http_requests_total', { ...card, service: 'api-v2' })).toBe(1);
    expect(moved('v1', 'tcg_http_requests_total', { route: '/v1/games', version: 'v1', status: '200' })).toBe(
      3,
    );
    expect(moved('v1', 'tcg_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(
      moved('v1', 'tcg_response_cache_hits_total') + moved('v1', 'tcg_response_cache_misses_total'),
    ).toBe(3);
    for (const side of ['v1', 'v2'] as const) {
      expect(has(after[side], 'tcg_db_pool_connections', { state: 'in_use' })).toBe(true);
      expect(has(after[side], 'tcg_db_pool_waiting')).toBe(true);
      expect(total(after[side], 'tcg_data_version')).toBeGreaterThan(0);
      expect(has(after[side], 'tcg_response_cache_bytes')).toBe(true);
      expect(has(after[side], 'tcg_response_cache_hit_ratio')).toBe(true);
      expect(has(after[side], 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    }
  });

  it('counts a service the gateway cannot reach as an upstream error of its kind', async () => {
    const down = await startStack({ v1Down: true, metrics: true });
    try {
      const scrapeGateway = async () => parseSamples(await scrape(down.metricsUrls.gateway));
      const before = await scrapeGateway();
      const res = await fetch(`${down.gatewayUrl}/v1/games`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(503);
      const after = await scrapeGateway();
      const errors = { upstream: 'api-v1', kind: 'unavailable' };
      expect(
        total(after, 'tcg_upstream_errors_total', errors) -
          total(before, 'tcg_upstream_errors_total', errors),
      ).toBe(1);
      const answered = { route: '/v1/games', status: '503' };
      expect(
        total(after, 'tcg_http_requests_total', answered) -
          total(before, 'tcg_http_requests_total', answered),
      ).toBe(1);
    } finally {
      await down.close();
    }
  });

  it('serves no metrics on the public port nor through the gateway, nor on a service’s API port', async () => {
    const publicMetrics = await fetch(`${stack.gatewayUrl}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(await publicMetrics.text()).not.toContain('tcg_');
    for (const path of ['/v1/metrics', '/v2/metrics']) {
      const proxied = await get(path);
      expect(proxied.status).toBe(404);
      expect(await proxied.text()).not.toContain('tcg_');
    }
    const direct = await fetch(`${stack.v1Url}/metrics`, {
      headers: { 'x-tcg-internal-credential': INTERNAL_TOKEN },
    });
    expect(direct.status).toBe(404);
    expect(await direct.text()).not.toContain('tcg_');
    // The admin port serves /metrics only.
    expect((await fetch(stack.metricsUrls.gateway.replace('/metrics', '/v1/games'))).status).toBe(404);
  });

  it('writes one access line per request at the gateway and the service, with the key id and never the key', async () => {
    const requestId = `obs-e2e-${Date.now()}`;
    const res = await get(`/v2/cards/${dragon.uuid}?regions=NA,EU`, { 'x-request-id': requestId });
    expect(res.status).toBe(200);
    const accessLine = async (service: 'gateway' | 'v2') => {
      // The line is written when the response closes, which may be just after the client read it.
      for (let i = 0; i < 100; i++) {
        const line = stack
          .output(service)
          .split('\n')
          .find((l) => l.includes(requestId));
        if (line) return JSON.parse(line) as Record<string, unknown>;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no access line of ${service} for ${requestId}`);
    };
    const expected = {
      level: 'info',
      msg: 'request',
      reqId: requestId,
      method: 'GET',
      route: '/v2/cards/:id',
      version: 'v2',
      status: 200,
      durationMs: expect.any(Number),
      keyId,
      cost: 2,
    };
    expect(await accessLine('gateway')).toEqual(
      expect.objectContaining({ ...expected, service: 'api-gateway', time: expect.any(String) }),
    );
    expect(await accessLine('v2')).toEqual(expect.objectContaining({ ...expected, service: 'api-v2' }));
    for (const service of ['gateway', 'v1', 'v2'] as const) {
      expect(stack.output(service)).not.toContain(key);
      expect(stack.output(service)).not.toContain(INTERNAL_TOKEN);
    }
    // Nest's start-up chatter is debug; LOG_LEVEL=log leaves only the service's own lines.
    expect(stack.output('v1')).not.toContain('RouterExplorer');
    expect(stack.output('v1')).toContain('"msg":"listening"');
  });

  it('uses in the Grafana dashboard and the alert rules only series the services export', async () => {
    const exported = new Set<string>();
    for (const url of Object.values(stack.metricsUrls))
      for (const name of declaredNames(await scrape(url))) exported.add(name);
    const docker = DOCKER;
    const dashboards = readdirSync(join(docker, 'grafana/dashboards')).map((f) =>
      readFileSync(join(docker, 'grafana/dashboards', f), 'utf8'),
    );
    const expressions = [
      ...dashboards.flatMap((d) => exprsOf(JSON.parse(d) as unknown)),
      ...[...readFileSync(join(docker, 'prometheus/alerts.yml'), 'utf8').matchAll(/^\s+expr: (.+)$/gm)].map(
        (m) => m[1]!,
      ),
    ];
    expect(expressions.length).toBeGreaterThan(15);
    const used = new Set(
      expressions.flatMap((e) => [...e.matchAll(/\b(?:tcg|nodejs|process)_\w+/g)].map((m) => m[0])),
    );
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((name) => !exported.has(name))).toEqual([]);
  });
});

/** Every `expr` of a Grafana dashboard's panels (its PromQL queries). */
function exprsOf(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(exprsOf);
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([k, v]) => (k === 'expr' && typeof v === 'string' ? [v] : exprsOf(v)));
}

(hasPromtool ? describe : describe.skip)('the Prometheus files, checked by promtool', () => {
  const promtool = (...args: string[]) =>
    spawnSync('promtool', args, { cwd: join(DOCKER, 'prometheus'), encoding: 'utf8' });

  it('accepts the scrape configuration and the alert rules, and the rules pass their unit tests', () => {
    for (const args of [
      ['check', 'config', 'prometheus.yml'],
      ['test', 'rules', 'alerts.test.yml'],
    ]) {
      const run = promtool(...args);
      expect({ args, status: run.status, output: run.status === 0 ? '' : run.stdout + run.stderr }).toEqual({
        args,
        status: 0,
        output: '',
      });
    }
  });
});

describe('operators: a statement cut short is counted and logged', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    await seedCatalogue([dragon], [nm], [{ variantUuid: nm.uuid, ...series(1000) }]);
    key = await withKeys(async (keys) => (await keys.create('professional', 'cancellations e2e')).key);
    stack = await startStack({
      metrics: true,
      logs: true,
      v2Env: { DATABASE_STATEMENT_TIMEOUT_MS: '300' },
    });
  });
  afterAll(async () => stack?.close());

  it('counts a read cancelled by statement_timeout under its reason and logs it with route and request id', async () => {
    const metric = async () =>
      total(
        parseSamples(await (await fetch(stack.metricsUrls.v2)).text()),
        'tcg_db_statements_cancelled_total',
        {
          reason: 'statement_timeout',
        },
      );
    const before = await metric();
    // Another session holds the cards table: the lookup waits for it until its statement_timeout.
    const holder = new Client({ connectionString: workerDatabaseUrl() });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE cards IN ACCESS EXCLUSIVE MODE');
      const res = await fetch(`${stack.gatewayUrl}/v2/cards/${dragon.uuid}`, {
        headers: { 'x-api-key': key },
      });
      expect(res.status).toBe(503);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect((await metric()) - before).toBe(1);
    const line = stack
      .output('v2')
      .split('\n')
      .filter((l) => l.includes('"statement cancelled"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)[0];
    expect(line).toMatchObject({
      level: 'warn',
      reason: 'statement_timeout',
      route: '/v2/cards/:id',
      statement: expect.stringMatching(/^q_/),
      reqId: expect.any(String),
    });
    // No values: the statement is named by a digest, not its text or parameters.
    expect(JSON.stringify(line)).not.toContain(dragon.uuid);
  });
});

import { PriceIngestRepository, refreshSummaries, writeCatalogue } from '@tcg/persistence';
import { BULK_NOW, nmPriceSteps, tinyCatalogue, useTestDatabase } from '@tcg/persistence/testing';
import { parse } from 'csv-parse/sync';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { DataSource } from 'typeorm';
import { fetchWithKey } from './http';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

const DAY = 86_400;
const T_NOW = BULK_NOW;

interface Listed {
  game: string;
  format: string;
  data_version: number;
  generated_at: number;
  bytes: number;
  rows: number;
  sha256: string;
  download_url: string;
}
interface ListBody {
  data: Listed[];
  _metadata: { apiDailyRequestsUsed: number };
}

/** Waits (polling the database, which costs no quota) until `check` holds; 60 s at most. */
async function until(ds: DataSource, check: (ds: DataSource) => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check(ds))) {
    if (Date.now() > deadline) throw new Error('the snapshots were not written in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('bulk data through the gateway: /v1/bulk', () => {
  let stack: Stack;
  let ds: DataSource;
  let key: string;
  const cat = tinyCatalogue();
  const [nm] = cat.variants;
  const card = cat.cards[0]!;
  const nmSteps = nmPriceSteps(card, nm!);

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    fetchWithKey(`${stack.gatewayUrl}${path}`, key, { headers, method });
  const list = async () => (await (await get('/v1/bulk')).json()) as ListBody;
  const snapshotsAt = (version: number) => async (d: DataSource) =>
    Number(
      (
        await d.query(
          `SELECT count(*)::int AS n FROM bulk_snapshots WHERE data_version >= $1 AND format IN ('ndjson.gz', 'csv.gz')`,
          [version],
        )
      )[0].n,
    ) === 2;
  const currentVersion = async () => Number((await ds.query('SELECT version FROM data_version'))[0].version);

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    await writeCatalogue(ds, cat);
    await new PriceIngestRepository(ds).ingest(nmSteps.prices);
    await refreshSummaries(ds);
    const version = await currentVersion();
    stack = await startStack({ env: { BULK_GENERATION: 'on', BULK_SETTLE_MS: '300' } });
    key = await newKey('starter');
    // api-v1 writes the first snapshots by itself, soon after it starts, then the full history.
    await until(ds, snapshotsAt(version));
    await until(
      ds,
      async (d) =>
        (await d.query(`SELECT 1 FROM bulk_snapshots WHERE format = 'history.ndjson.gz'`)).length === 1,
    );
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('lists one file per format with its size, rows, data version, checksum and download URL, at a cost of 1', async () => {
    const before = await list();
    const after = await list();
    expect(after._metadata.apiDailyRequestsUsed).toBe(before._metadata.apiDailyRequestsUsed + 1);
    expect(after.data.map((s) => [s.game, s.format, s.rows, s.download_url])).toEqual([
      ['test-game', 'csv.gz', 2, '/v1/bulk/test-game/csv.gz'],
      ['test-game', 'ndjson.gz', 2, '/v1/bulk/test-game/ndjson.gz'],
    ]);
    for (const s of after.data) {
      expect(s.data_version).toBe(await currentVersion());
      expect(s.bytes).toBeGreaterThan(0);
      expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(Number.isInteger(s.generated_at)).toBe(true);
    }
  });

  it('downloads the NDJSON file whole, at a cost of 1: its rows carry what v1 answers for the card', async () => {
    const listed = (await list()).data.find((s) => s.format === 'ndjson.gz')!;
    const before = (await list())._metadata.apiDailyRequestsUsed;
    const res = await get(listed.download_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="test-game-${listed.data_version}.ndjson.gz"`,
    );
    expect(Number(res.headers.get('content-length'))).toBe(listed.bytes);
    expect(res.headers.get('etag')).toBe(`"${listed.sha256}"`);
    const file = Buffer.from(await res.arrayBuffer());
    expect(file.length).toBe(listed.bytes);
    expect(createHash('sha256').update(file).digest('hex')).toBe(listed.sha256);
    expect((await list())._metadata.apiDailyRequestsUsed).toBe(before + 2); // the download, this list

    const rows = gunzipSync(file)
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const v1 = (await (await get(`/v1/cards?cardId=${card.id}&include_price_history=false`)).json()) as {
      data: Record<string, unknown>[];
    };
    const { variants, ...v1Card } = v1.data[0] as Record<string, unknown> & {
      variants: Record<string, unknown>[];
    };
    const v1Variant = variants.find((v) => v['id'] === nm!.id)!;
    const row = rows.find((r) => r['variant_id'] === nm!.id && r['region'] === 'NA')!;
    expect(row).toMatchObject({
      game: v1Card['game'],
      set: v1Card['set'],
      set_name: v1Card['set_name'],
      card_id: v1Card['id'],
      card_uuid: v1Card['uuid'],
      name: v1Card['name'],
      number: v1Card['number'],
      rarity: v1Card['rarity'],
      vendorId: v1Card['vendorId'],
      variant_uuid: v1Variant['uuid'],
      currency: 'USD',
    });
    // Every flat price and statistic field of v1, the same value.
    for (const [name, value] of Object.entries(v1Variant)) {
      if (['id', 'uuid', 'priceHistory', 'priceHistory30d'].includes(name)) continue;
      expect([name, row[name]]).toEqual([name, value]);
    }
    expect(rows.map((r) => r['variant_id'])).toEqual(cat.variants.map((v) => v.id).sort());
  });

  it('the CSV file carries the same rows', async () => {
    const [csvListed, ndjsonListed] = (await list()).data;
    const csv = parse(gunzipSync(Buffer.from(await (await get(csvListed!.download_url)).arrayBuffer())), {
      columns: true,
    }) as Record<string, string>[];
    const ndjson = gunzipSync(Buffer.from(await (await get(ndjsonListed!.download_url)).arrayBuffer()))
      .toString('utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const cell = (v: unknown) => (v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
    expect(csv).toEqual(
      ndjson.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cell(v)]))),
    );
  });

  it('answers If-None-Match with the checksum with 304 and HEAD with the headers only', async () => {
    const listed = (await list()).data.find((s) => s.format === 'csv.gz')!;
    const notModified = await get(listed.download_url, { 'if-none-match': `"${listed.sha256}"` });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe(`"${listed.sha256}"`);
    expect((await notModified.arrayBuffer()).byteLength).toBe(0);

    const stale = await get(listed.download_url, { 'if-none-match': `"${'0'.repeat(64)}"` });
    expect(stale.status).toBe(200);
    await stale.arrayBuffer();

    const head = await get(listed.download_url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(listed.bytes);
    expect(head.headers.get('content-type')).toBe('application/gzip');
  });

  it.each([
    ['/v1/bulk/no-such-game/csv.gz', /Unknown game 'no-such-game'\. Accepted: test-game\./],
    ['/v1/bulk/test-game/zip', /Unknown format 'zip'\. Accepted: ndjson\.gz, csv\.gz, history\.ndjson\.gz\./],
  ])('%s is a 404 in the v1 shape naming what is accepted', async (path, message) => {
    const res = await get(path);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: expect.stringMatching(message), code: 'NOT_FOUND' });
  });

  it("lists the day's archive and serves its files, immutable; the full history beside the latest", async () => {
    const res = await get('/v1/bulk/archive');
    expect(res.status).toBe(200);
    const { data: archives, history: histories } = (await res.json()) as {
      data: (Listed & { date: string })[];
      history: Listed[];
    };
    const today = new Date().toISOString().slice(0, 10);
    expect(archives.map((a) => [a.date, a.game, a.format, a.download_url])).toEqual(
      ['csv.gz', 'ndjson.gz'].map((format) => [
        today,
        'test-game',
        format,
        `/v1/bulk/archive/${today}/test-game/${format}`,
      ]),
    );
    const csv = archives.find((a) => a.format === 'csv.gz')!;
    const archived = await get(csv.download_url);
    expect(archived.status).toBe(200);
    expect(archived.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(archived.headers.get('content-disposition')).toBe(
      `attachment; filename="test-game-${today}.csv.gz"`,
    );
    expect(
      createHash('sha256')
        .update(Buffer.from(await archived.arrayBuffer()))
        .digest('hex'),
    ).toBe(csv.sha256);

    expect(histories.map((h) => [h.game, h.format, h.rows, h.download_url])).toEqual([
      ['test-game', 'history.ndjson.gz', 1, '/v1/bulk/test-game/history.ndjson.gz'],
    ]);
    const history = histories[0]!;
    const file = await get(history.download_url);
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(history.sha256);
    const lines = gunzipSync(bytes).toString('utf8').trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([nmSteps.historyLine]);
    for (const [path, message] of [
      [`/v1/bulk/archive/2020-01-01/test-game/csv.gz`, /No archive of 'test-game' for 2020-01-01/],
      [`/v1/bulk/archive/yesterday/test-game/csv.gz`, /Unknown date 'yesterday'/],
      [`/v1/bulk/archive/2026-02-31/test-game/csv.gz`, /Unknown date '2026-02-31'/],
      [
        `/v1/bulk/archive/${today}/test-game/history.ndjson.gz`,
        /Unknown format 'history.ndjson.gz'. Accepted: ndjson.gz, csv.gz/,
      ],
    ] as const) {
      const refused = await get(path);
      expect(refused.status).toBe(404);
      expect(await refused.json()).toEqual({ error: expect.stringMatching(message), code: 'NOT_FOUND' });
    }
  });

  it('writes new snapshots after an import, in the background', async () => {
    const old = (await list()).data;
    await new PriceIngestRepository(ds).ingest([
      { variantUuid: nm!.uuid, region: 'NA', t: T_NOW + DAY, price: 1500 },
    ]);
    const version = await currentVersion();
    await until(ds, snapshotsAt(version));
    // api-v1 learns the new data version by NOTIFY, a moment after the snapshots' commit: until
    // then it may still answer the listing it had.
    let fresh = (await list()).data;
    await until(ds, async () => {
      fresh = (await list()).data;
      return fresh.every((s) => s.data_version === version);
    });
    expect(fresh.map((s) => s.data_version)).toEqual([version, version]);
    expect(fresh.map((s) => s.sha256)).not.toEqual(old.map((s) => s.sha256));
    // The previous snapshots are kept beside the new ones, for downloads under way: here as the
    // day's archive (the day's first).
    expect(
      await ds.query(
        `SELECT count(*) FILTER (WHERE archive_date IS NULL)::int AS latest,
                count(*) FILTER (WHERE archive_date IS NOT NULL)::int AS archived FROM bulk_snapshots`,
      ),
    ).toEqual([{ latest: 3, archived: 2 }]); // the new pair and the history (written daily, not at each version); the day's archive
  });
});

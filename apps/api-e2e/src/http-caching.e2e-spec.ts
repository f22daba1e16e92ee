import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { PriceIngestRepository, refreshSummaries } from '@tcg/persistence';
import { withTestDatabase } from '@tcg/persistence/testing';
import {
  dragon,
  GAME,
  goblinNm,
  knight,
  knightNm,
  lp,
  nm,
  seedCatalogue,
  series,
  T_NOW,
  THREE_CARDS,
} from './fixtures';
import { importPrices } from './import-prices';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as sent, before any decoding. */
  raw: Buffer;
  /** The body decoded from its Content-Encoding. */
  text: string;
}

/** A GET that decodes nothing by itself (fetch would), so the test sees the bytes on the wire. */
function get(url: string, headers: Record<string, string>, method = 'GET'): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const decoded =
          coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw;
        done({ status: res.statusCode!, headers: res.headers, raw, text: decoded.toString('utf8') });
      });
    });
    req.on('error', fail);
    req.end();
  });
}

describe('response caching, validators and compression through the gateway', () => {
  let stack: Stack;
  let key: string;
  const lookup = `/v1/cards?cardId=${dragon.id}`;
  const v2Lookup = `/v2/cards/${dragon.uuid}`;

  beforeAll(async () => {
    await seedCatalogue(
      THREE_CARDS,
      [nm, lp, knightNm, goblinNm],
      [
        { variantUuid: nm.uuid, ...series(1000) },
        { variantUuid: lp.uuid, ...series(700) },
        { variantUuid: knightNm.uuid, ...series(300) },
        { variantUuid: goblinNm.uuid, ...series(50) },
      ],
    );
    stack = await startStack({ metrics: true });
    key = await newKey('enterprise');
  });
  afterAll(async () => stack?.close());

  /** A service's health details, from its admin port. */
  const health = async (url: string) =>
    (await (await fetch(url)).json()) as {
      dataVersion: number | null;
      responseCache: {
        enabled: boolean;
        hits: number;
        misses: number;
        carried: number;
        version: number | null;
      };
    };

  it('answers a repeated lookup from the cache, with this request’s own usage in v1 `_metadata`', async () => {
    // An answer takes a place in the cache from its second request on (the doorkeeper).
    const before = (await health(stack.healthUrls.v1)).responseCache;
    await get(`${stack.gatewayUrl}${lookup}`, { 'x-api-key': key });
    const first = await get(`${stack.gatewayUrl}${lookup}`, { 'x-api-key': key });
    const second = await get(`${stack.gatewayUrl}${lookup}`, { 'x-api-key': key });
    const after = (await health(stack.healthUrls.v1)).responseCache;
    expect([first.status, second.status]).toEqual([200, 200]);
    const a = JSON.parse(first.text) as { data: unknown; _metadata: { apiRequestsUsed: number } };
    const b = JSON.parse(second.text) as { data: unknown; _metadata: { apiRequestsUsed: number } };
    expect(b.data).toEqual(a.data);
    expect(Object.keys(b)).toEqual(['data', 'meta', '_metadata']);
    expect(b._metadata.apiRequestsUsed).toBe(a._metadata.apiRequestsUsed + 1);
    expect(after.enabled).toBe(true);
    expect(after.hits).toBeGreaterThanOrEqual(before.hits + 1);
  });

  /** A v1 body without `_metadata` (this request's usage, which differs per request). */
  const withoutUsage = (text: string) => text.slice(0, text.lastIndexOf(',"_metadata":'));

  it('serves a v1 search from one cache entry whatever junk, order or spelled-out defaults the URL carries', async () => {
    const before = (await health(stack.healthUrls.v1)).responseCache;
    const targets = [1, 2, 3, 4, 5, 6].map((n) =>
      n % 2 === 0
        ? `/v1/cards?condition=LP,NM&game=${GAME.id}&_=${n}&limit=20`
        : `/v1/cards?_=${n}&game=${GAME.id}&condition=nm,lp&offset=0`,
    );
    const replies = [];
    for (const target of targets)
      replies.push(await get(`${stack.gatewayUrl}${target}`, { 'x-api-key': key }));
    const after = (await health(stack.healthUrls.v1)).responseCache;
    expect(replies.map((r) => r.status)).toEqual(targets.map(() => 200));
    const bodies = new Set(replies.map((r) => withoutUsage(r.text)));
    expect(bodies.size).toBe(1);
    expect((JSON.parse(`${[...bodies][0]}}`) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    // The first request computes, the second is computed again and kept (the doorkeeper), the rest are hits.
    expect(after.misses - before.misses).toBe(2);
    expect(after.hits - before.hits).toBe(4);
  });

  it('serves a v2 page from one cache entry whatever the order, the case or the spelled-out defaults', async () => {
    const before = (await health(stack.healthUrls.v2)).responseCache;
    const targets = [
      `/v2/cards?game=${GAME.id}&regions=NA&include=periods,price_history.7d`,
      `/v2/cards?include=price_history.7d,periods&game=${GAME.id}&limit=20`,
      `/v2/cards?regions=na&game=${GAME.id}`,
      `/v2/cards?graded=exclude&game=${GAME.id}`,
    ];
    const replies = [];
    for (const target of targets)
      replies.push(await get(`${stack.gatewayUrl}${target}`, { 'x-api-key': key }));
    const after = (await health(stack.healthUrls.v2)).responseCache;
    expect(replies.map((r) => r.status)).toEqual(targets.map(() => 200));
    expect(new Set(replies.map((r) => r.raw.toString('base64'))).size).toBe(1);
    expect(after.misses - before.misses).toBe(2);
    expect(after.hits - before.hits).toBe(2);
  });

  it('tags v1 answers weakly (their `_metadata` differs) and v2 answers strongly, per coding', async () => {
    const v1 = await get(`${stack.gatewayUrl}${lookup}`, { 'x-api-key': key });
    expect(v1.headers['etag']).toMatch(/^W\/"[\w-]+"$/);
    expect(v1.headers['cache-control']).toBe('private, max-age=60, stale-while-revalidate=60');
    expect(v1.headers['vary']).toBe('Accept-Encoding');
    const plain = await get(`${stack.gatewayUrl}${v2Lookup}`, { 'x-api-key': key });
    const br = await get(`${stack.gatewayUrl}${v2Lookup}`, { 'x-api-key': key, 'accept-encoding': 'br' });
    expect(plain.headers['etag']).toMatch(/^"[\w-]+"$/);
    expect(br.headers['etag']).toBe(`${plain.headers['etag']!.slice(0, -1)}-br"`);
    expect(br.text).toBe(plain.text);
  });

  it('answers 304 with no body to If-None-Match with the current tag, of any coding, and 200 to another', async () => {
    const first = await get(`${stack.gatewayUrl}${v2Lookup}`, {
      'x-api-key': key,
      'accept-encoding': 'gzip',
    });
    const tag = String(first.headers['etag']);
    const again = await get(`${stack.gatewayUrl}${v2Lookup}`, { 'x-api-key': key, 'if-none-match': tag });
    expect(again.status).toBe(304);
    expect(again.raw.length).toBe(0);
    expect(again.headers['etag']).toBe(tag.replace('-gzip', ''));
    expect(again.headers['cache-control']).toBeDefined();
    const v1 = await get(`${stack.gatewayUrl}${lookup}`, { 'x-api-key': key });
    const v1Again = await get(`${stack.gatewayUrl}${lookup}`, {
      'x-api-key': key,
      'if-none-match': `"other", ${String(v1.headers['etag'])}`,
    });
    expect(v1Again.status).toBe(304);
    const other = await get(`${stack.gatewayUrl}${v2Lookup}`, {
      'x-api-key': key,
      'if-none-match': '"stale"',
    });
    expect(other.status).toBe(200);
  });

  it('compresses as Accept-Encoding asks, to the same JSON, and leaves small bodies alone', async () => {
    const plain = await get(`${stack.gatewayUrl}${lookup}`, { 'x-api-key': key });
    const gzip = await get(`${stack.gatewayUrl}${lookup}`, { 'x-api-key': key, 'accept-encoding': 'gzip' });
    const br = await get(`${stack.gatewayUrl}${lookup}`, {
      'x-api-key': key,
      'accept-encoding': 'gzip;q=0.5, br',
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(br.headers['content-encoding']).toBe('br');
    const data = (r: Reply) => (JSON.parse(r.text) as { data: unknown }).data;
    expect(data(gzip)).toEqual(data(plain));
    expect(data(br)).toEqual(data(plain));
    expect(gzip.raw.length).toBeLessThan(plain.raw.length / 3);
    expect(br.raw.length).toBeLessThan(plain.raw.length / 3);
    expect(Number(gzip.headers['content-length'])).toBe(gzip.raw.length);
    const none = await get(`${stack.gatewayUrl}/v1/cards?cardId=no-such-card`, {
      'x-api-key': key,
      'accept-encoding': 'gzip, br',
    });
    expect(none.status).toBe(200);
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(none.text)).toMatchObject({ data: [] });
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await get(`${stack.gatewayUrl}${v2Lookup}`, { 'x-api-key': key }, 'HEAD');
    const full = await get(`${stack.gatewayUrl}${v2Lookup}`, { 'x-api-key': key });
    expect(head.status).toBe(200);
    expect(head.raw.length).toBe(0);
    expect(head.headers['etag']).toBe(full.headers['etag']);
    expect(head.headers['content-length']).toBe(full.headers['content-length']);
  });

  it('serves the imported price to the next request after an import commits, never the cached one', async () => {
    const versionBefore = (await health(stack.healthUrls.v1)).dataVersion;
    const v1Before = await get(`${stack.gatewayUrl}${lookup}`, { 'x-api-key': key, 'accept-encoding': 'br' });
    const v2Before = await get(`${stack.gatewayUrl}${v2Lookup}`, { 'x-api-key': key });
    expect(
      await importPrices([
        { variant_id: nm.uuid, region: 'NA', time: T_NOW + 3600, price: '123456.78', currency: 'USD' },
      ]),
    ).toBe(0);
    const v1After = await get(`${stack.gatewayUrl}${lookup}`, {
      'x-api-key': key,
      'accept-encoding': 'br',
      'if-none-match': String(v1Before.headers['etag']),
    });
    const v2After = await get(`${stack.gatewayUrl}${v2Lookup}`, {
      'x-api-key': key,
      'if-none-match': String(v2Before.headers['etag']),
    });
    expect([v1After.status, v2After.status]).toEqual([200, 200]);
    const price = (text: string) =>
      (JSON.parse(text) as { data: { variants: { id: string; price: number }[] }[] }).data[0]!.variants.find(
        (v) => v.id === nm.id,
      )!.price;
    expect(price(v1Before.text)).not.toBe(123456.78);
    expect(price(v1After.text)).toBe(123456.78);
    expect(v2After.text).toContain('123456.78');
    expect(v1After.headers['etag']).not.toBe(v1Before.headers['etag']);
    expect(Number(v1After.headers['x-data-version'])).toBeGreaterThan(versionBefore!);
  });

  const targets = { v1: `/v1/cards?cardId=${knight.id}`, v2: `/v2/cards/${knight.uuid}` } as const;
  const send = (target: string) => get(`${stack.gatewayUrl}${target}`, { 'x-api-key': key });
  type Health = Awaited<ReturnType<typeof health>>;

  /**
   * Waits until both services have learnt of a version newer than `before` and moved their
   * response caches to it, as `moved` (now against before) tells.
   */
  async function untilMoved(
    before: Record<'v1' | 'v2', Health>,
    what: string,
    moved: (now: Health['responseCache'], was: Health['responseCache']) => boolean,
  ): Promise<void> {
    for (const service of ['v1', 'v2'] as const) {
      for (let i = 0; ; i++) {
        const now = await health(stack.healthUrls[service]);
        const was = before[service];
        if (now.dataVersion! > was.dataVersion! && moved(now.responseCache, was.responseCache)) break;
        if (i === 100) throw new Error(`${service} did not move its cache to ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  }

  it('keeps serving from the cache the lookups of cards an import did not touch', async () => {
    for (const target of [targets.v1, targets.v2, targets.v1, targets.v2, lookup, v2Lookup, lookup, v2Lookup])
      expect((await send(target)).status).toBe(200);
    const before = { v1: await health(stack.healthUrls.v1), v2: await health(stack.healthUrls.v2) };
    const knightBefore = { v1: await send(targets.v1), v2: await send(targets.v2) };
    // One batch of an import, as it commits: the importer's run refreshes the summaries only after
    // its last batch, and that refresh drops v1's lookups (they read the summaries; see below).
    await withTestDatabase((ds) =>
      new PriceIngestRepository(ds).ingest([
        { variantUuid: nm.uuid, region: 'NA', t: T_NOW + 7200, price: 234_567 },
      ]),
    );
    // Both services have learnt of the batch's version and moved their caches to it.
    await untilMoved(before, "the import's version", (now, was) => now.carried > was.carried);
    for (const service of ['v1', 'v2'] as const) {
      const hitsBefore = (await health(stack.healthUrls[service])).responseCache.hits;
      const again = await send(targets[service]);
      expect(again.status).toBe(200);
      expect(Number(again.headers['x-data-version'])).toBeGreaterThan(before[service].dataVersion!);
      expect(again.headers['etag']).toBe(knightBefore[service].headers['etag']);
      expect((await health(stack.healthUrls[service])).responseCache.hits).toBe(hitsBefore + 1);
    }
    // The card the import priced is read again.
    expect((await send(v2Lookup)).text).toContain('2345.67');
    expect((await send(lookup)).text).toContain('2345.67');
  });

  it('keeps v2 lookups through a summary refresh, and reads v1 lookups (which ask the summaries) again', async () => {
    // Twice each: an answer is kept from its second request on.
    for (const target of [targets.v1, targets.v2, targets.v1, targets.v2])
      expect((await send(target)).status).toBe(200);
    const before = { v1: await health(stack.healthUrls.v1), v2: await health(stack.healthUrls.v2) };
    // What an import or a feed runs after its last batch; npm start too, when the summaries are stale.
    await withTestDatabase((ds) => refreshSummaries(ds));
    // Moved: to the new version, or emptied (null) when no entry was carried.
    await untilMoved(before, "the refresh's version", (now, was) => now.version !== was.version);
    const counts = async (service: 'v1' | 'v2', target: string) => {
      const was = (await health(stack.healthUrls[service])).responseCache;
      expect((await send(target)).status).toBe(200);
      const now = (await health(stack.healthUrls[service])).responseCache;
      return { hits: now.hits - was.hits, misses: now.misses - was.misses };
    };
    expect(await counts('v2', targets.v2)).toEqual({ hits: 1, misses: 0 });
    expect(await counts('v1', targets.v1)).toEqual({ hits: 0, misses: 1 });
  });
});

import { useTestDatabase } from '@tcg/persistence/testing';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { copiedInto, FEED_FIXTURES, syncFeeds, useSyncedGateway } from './feeds-cli';

const ASHEN_SENTRY = '1f8a2d1c-5b6e-5c4e-9d1a-0c3e2b7f4a10';
const NOV_25 = Date.UTC(2026, 10, 25) / 1000;

interface V2Market {
  region: string;
  price: number | null;
  updated_at: number | null;
  source: string | null;
}
interface V2Variant {
  condition: string;
  printing: string;
  external_ids: { vendor_sku: string | null };
  markets: V2Market[];
}
interface V2Card {
  name: string;
  external_ids: { vendor: string | null; imagedb: string | null; openset: string | null };
  variants: V2Variant[];
}

/**
 * The real Magic feeds, synced by the built CLI (`npm run feeds -- sync --from DIR`) from the
 * fixtures in their published formats, then read through the gateway as a client reads them.
 */
describe('real data from the public feeds, through the gateway', () => {
  let ds: DataSource;

  const sync = (from: string) => syncFeeds(['--from', from, '--dir', join(from, 'cache')]);

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  const gateway = useSyncedGateway(async () => {
    const from = await copiedInto('feeds-e2e-', [
      join(FEED_FIXTURES, 'mtgjson/AllPrintings.json.gz'),
      join(FEED_FIXTURES, 'mtgjson/AllPrintings.json.gz.sha256'),
      join(FEED_FIXTURES, 'mtgjson/TcgplayerSkus.json.bz2'),
      join(FEED_FIXTURES, 'mtgjson/AllPrices.json.xz'),
      join(FEED_FIXTURES, 'scryfall/default-cards.json.gz'),
    ]);
    await sync(from);
    return from;
  });
  const { get } = gateway;
  const v2 = async (query: string) => (await get<{ data: V2Card[] }>(`/v2/cards?${query}`)).data;
  /** v2 looks cards up by our ids and the marketplace's: the feed's uuid is v1's `opensetId`. */
  const uuidOf = async (openset: string) =>
    (await get<{ data: { uuid: string }[] }>(`/v1/cards?opensetId=${openset}`)).data[0]!.uuid;

  it('answers the real NA and EU prices, each market naming its source and last observation', async () => {
    const [card] = await v2(`card_id=${await uuidOf(ASHEN_SENTRY)}&regions=NA,EU`);
    expect(card!.name).toBe('Ashen Sentry');
    expect(card!.external_ids).toEqual({
      vendor: '230011',
      imagedb: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
      openset: ASHEN_SENTRY,
    });
    const nm = card!.variants.find((v) => v.condition === 'Near Mint' && v.printing === 'Normal')!;
    expect(nm.external_ids.vendor_sku).toBe('4120011');
    expect(nm.markets).toEqual([
      expect.objectContaining({ region: 'NA', price: 0.27, updated_at: NOV_25, source: 'tcgplayer' }),
      expect.objectContaining({ region: 'EU', price: 0.19, updated_at: NOV_25, source: 'cardmarket' }),
    ]);
    // The feed observes Near Mint only: a played copy has its real SKU and no invented price.
    const lp = card!.variants.find((v) => v.condition === 'Lightly Played' && v.printing === 'Normal')!;
    expect(lp.external_ids.vendor_sku).toBe('4120012');
    expect(lp.markets.map((m) => [m.price, m.source])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it('finds an etched foil by its real SKU, and a split card as one card', async () => {
    const [archivist] = await v2('vendor_sku=5230101');
    const etched = archivist!.variants.find((v) => v.external_ids.vendor_sku === '5230101')!;
    expect(etched).toMatchObject({ printing: 'Etched Foil', condition: 'Near Mint' });
    expect(etched.markets[0]).toMatchObject({ price: 7.4, source: 'tcgplayer' });
    const [split] = await v2(`card_id=${await uuidOf('6e04a1b3-2d7c-5f18-8c39-1b5d4e6f7a33')}`);
    expect(split!.name).toBe('Fire // Ice');
    // 2026-11-24's published 0 is no price: the series goes from 12.00 to 12.35.
    const history = (
      await get<{ data: { variants: { priceHistory: { p: number }[] }[] }[] }>(
        `/v1/cards?opensetId=6e04a1b3-2d7c-5f18-8c39-1b5d4e6f7a33&priceHistoryDuration=30d`,
      )
    ).data[0]!.variants.find((v) => v.priceHistory.length > 0)!.priceHistory;
    expect(history.map((h) => h.p)).toEqual([12, 12.35]);
  });

  it('keeps v1 variants in their shape, with the real ids', async () => {
    const { data } = await get<{ data: Record<string, unknown>[] }>(`/v1/cards?opensetId=${ASHEN_SENTRY}`);
    expect(data[0]).toMatchObject({
      opensetId: ASHEN_SENTRY,
      vendorId: '230011',
      imagedbId: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    });
    const variants = data[0]!['variants'] as Record<string, unknown>[];
    const nm = variants.find((v) => v['vendorSkuId'] === '4120011')!;
    expect(nm).toMatchObject({
      condition: 'Near Mint',
      printing: 'Normal',
      price: 0.27,
      lastUpdated: NOV_25,
    });
    expect(nm).not.toHaveProperty('source');
  });

  it('says in /v1/games which sources the game’s prices come from', async () => {
    const { data } = await get<{ data: { id: string; price_sources: string[] }[] }>('/v1/games');
    expect(data.find((g) => g.id === 'magic-the-gathering')!.price_sources).toEqual([
      'cardmarket',
      'tcgplayer',
    ]);
  });

  it('changes nothing on a second sync of the same files', async () => {
    const state = () =>
      ds.query(
        `SELECT (SELECT version FROM data_version)::int AS version, (SELECT count(*) FROM cards)::int AS cards,
                (SELECT count(*) FROM variants)::int AS variants, (SELECT count(*) FROM variant_prices)::int AS series`,
      );
    const before = await state();
    await sync(gateway.dir);
    expect(await state()).toEqual(before);
  });
});

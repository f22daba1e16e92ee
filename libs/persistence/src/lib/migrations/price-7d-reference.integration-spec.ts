import { Card, cardSlug, uuidV5, Variant, variantSlug } from '@tcg/domain';
import { computeSeriesStats } from '@tcg/pricing-stats';
import { DataSource } from 'typeorm';
import { tinyCatalogue, truncateAll, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { migrate } from '../db/data-source';
import { PriceIngestRepository } from '../prices';
import { refreshSummaries } from '../summaries';

const DAY = 86_400;
const T_NOW = Date.UTC(2026, 2, 1) / 1000;
const CARDS = 40;

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Card `i`'s series in a region, as days before T_NOW and minor units: every kind of reference. */
function seriesOf(i: number, next: () => number): { days: number[]; prices: number[] } {
  switch (i % 8) {
    case 0: // one observation: no reference
      return { days: [-3], prices: [4200] };
    case 1: // a reference of 0: no change
      return { days: [-2, 0], prices: [0, 300] };
    case 2: // a current price of 0 (change -100), its reference long before the window
      return { days: [-40, -20, -3, 0], prices: [700, 500, 0, 0] };
    default: {
      const days: number[] = [];
      const prices: number[] = [];
      let day = -Math.floor(next() * 60) - 8;
      let price = Math.floor(next() * 1_000_000) + 1;
      while (day <= 0) {
        days.push(day);
        prices.push(price);
        day += Math.floor(next() * 5) + 1;
        price = Math.max(1, price + Math.floor((next() - 0.5) * price * 0.2));
      }
      return { days, prices };
    }
  }
}

describe('Price7dReference1765100000000 (PostgreSQL)', () => {
  let ds: DataSource;

  useTestDatabase((opened) => (ds = opened), { truncate: 'never', remigrate: true });

  it('stores the engine’s 7-day reference, and backfills a stored catalogue to exactly it', async () => {
    await truncateAll(ds);
    const tiny = tinyCatalogue();
    const [base] = tiny.cards;
    const cards: Card[] = [];
    const variants: Variant[] = [];
    for (let i = 0; i < CARDS; i++) {
      const name = `Test Dragon ${i}`;
      const id = cardSlug({ game: base!.gameId, set: tiny.sets[0]!.name, name, rarity: 'Rare' });
      const card: Card = { ...base!, uuid: uuidV5(id), id, name, number: String(i), vendorId: null };
      const slug = variantSlug(id, { condition: 'Near Mint', printing: 'Normal', language: 'English' });
      cards.push(card);
      variants.push({
        ...tiny.variants[0]!,
        uuid: uuidV5(slug),
        id: slug,
        cardUuid: card.uuid,
        vendorSkuId: null,
      });
    }
    await writeCatalogue(ds, { ...tiny, cards, variants });
    const next = random(7);
    const expected = new Map<string, number | null>();
    const observations = variants.flatMap((v, i) =>
      ['NA', 'JP'].flatMap((region) => {
        const { days, prices } = seriesOf(i, next);
        const t = days.map((d) => T_NOW + d * DAY);
        expected.set(`${v.uuid}|${region}`, computeSeriesStats(t, prices)['7d'].reference);
        return t.map((ti, k) => ({ variantUuid: v.uuid, region, t: ti, price: prices[k]! }));
      }),
    );
    await new PriceIngestRepository(ds).ingest(observations);
    await refreshSummaries(ds);

    const references = () =>
      ds.query(
        `SELECT variant_uuid || '|' || region AS key, price_7d_ref::float8 AS ref
         FROM variant_prices ORDER BY variant_uuid, region`,
      ) as Promise<{ key: string; ref: number | null }[]>;
    const summaries = () =>
      ds.query(`SELECT game_id, value_cents, value_7d_ago_cents FROM game_summaries ORDER BY game_id`);
    const byWriter = await references();
    expect(byWriter).toHaveLength(2 * CARDS);
    expect(new Map(byWriter.map((r) => [r.key, r.ref]))).toEqual(expected);
    // Every kind of reference is there: none, 0, and one the change alone cannot give back.
    expect(byWriter.filter((r) => r.ref === null)).toHaveLength(10);
    expect(byWriter.filter((r) => r.ref === 0)).toHaveLength(10);
    expect(byWriter.filter((r) => r.ref === 500)).toHaveLength(10);

    // The game's value 7 days back: its cards' references, or their price when they have none.
    const [{ sum }] = await ds.query(
      `SELECT sum(coalesce(price_7d_ref, price))::text AS sum FROM card_values`,
    );
    const [summary] = await summaries();
    expect(summary).toMatchObject({ game_id: 'test-game', value_7d_ago_cents: sum });

    // Back to the schema before the column (the stored references are dropped), then forward.
    const applied = async () =>
      (await ds.query(`SELECT 1 FROM typeorm_migrations WHERE name = 'Price7dReference1765100000000'`))
        .length > 0;
    while (await applied()) await ds.undoLastMigration({ transaction: 'each' });
    await expect(ds.query(`SELECT price_7d_ref FROM variant_prices`)).rejects.toThrow(/price_7d_ref/);
    await migrate(ds);

    expect(await references()).toEqual(byWriter);
    expect(await summaries()).toEqual([summary]);
  });
});

import { CardSet, cardSlug, Game, uuidV5, Variant, variantSlug, type PriceSource } from '@tcg/domain';
import { DataSource } from 'typeorm';
import { tinyCatalogue, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from '../prices';
import { refreshSummaries } from '../summaries';

const DAY = 86_400;
const T0 = Date.UTC(2026, 9, 1) / 1000;

/** A game of one set with one card (one raw Near Mint variant) per given name. */
function gameOf(gameId: string, names: readonly string[]) {
  const base = tinyCatalogue();
  const game: Game = { id: gameId, name: gameId };
  const set: CardSet = { ...base.sets[0]!, uuid: uuidV5(`set:${gameId}-s`), id: `${gameId}-s`, gameId };
  const cards = names.map((name, i) => {
    const id = cardSlug({ game: gameId, set: set.name, name, rarity: 'Rare' });
    return {
      ...base.cards[0]!,
      uuid: uuidV5(id),
      id,
      gameId,
      setId: set.id,
      name,
      number: String(i + 1),
      vendorId: null,
    };
  });
  const variants: Variant[] = cards.map((c) => {
    const id = variantSlug(c.id, { condition: 'Near Mint', printing: 'Normal', language: 'English' });
    return { ...base.variants[0]!, uuid: uuidV5(id), id, cardUuid: c.uuid, vendorSkuId: null };
  });
  return { games: [game], sets: [set], cards, variants };
}

describe('v1 aggregates count real prices only once a game has them (PostgreSQL)', () => {
  let ds: DataSource;
  const summaries = async () =>
    (await ds.query(
      `SELECT g.game_id, g.value_cents::int AS value, g.value_7d_ago_cents::int AS ago,
              (SELECT ss.value_cents::int FROM set_summaries ss JOIN sets s ON s.uuid = ss.set_uuid
               WHERE s.game_id = g.game_id) AS set_value
       FROM game_summaries g ORDER BY g.game_id`,
    )) as { game_id: string; value: number; ago: number; set_value: number }[];
  const price = (variant: Variant, source: PriceSource, prices: number[]) =>
    new PriceIngestRepository(ds).ingestSeries([
      { variantUuid: variant.uuid, region: 'NA', source, t: prices.map((_, i) => T0 + i * DAY), p: prices },
    ]);

  useTestDatabase((opened) => (ds = opened));

  it('a game with one real price leaves its simulated cards out; a simulated-only game keeps them', async () => {
    const mixed = gameOf('mixed', ['Real Card', 'Sample Card']);
    const sample = gameOf('sample-only', ['Sample Card']);
    for (const cat of [mixed, sample]) await writeCatalogue(ds, cat);
    await price(mixed.variants[0]!, 'tcgplayer', [1_000, 1_200]);
    await price(mixed.variants[1]!, 'simulated', [50_000]);
    await price(sample.variants[0]!, 'simulated', [700]);
    await refreshSummaries(ds);

    expect(await summaries()).toEqual([
      // 1,200 alone (not 51,200), and 7 days back its reference (1,000), not the sample's price.
      { game_id: 'mixed', value: 1_200, ago: 1_000, set_value: 1_200 },
      { game_id: 'sample-only', value: 700, ago: 700, set_value: 700 },
    ]);
    // Every card priced in NA is still there for the card pages' existence test.
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM card_values`);
    expect(n).toBe(3);
  });

  it("an operator's imported prices are real too", async () => {
    const mixed = gameOf('mixed', ['Imported Card', 'Sample Card']);
    await writeCatalogue(ds, mixed);
    await price(mixed.variants[0]!, 'imported', [300]);
    await price(mixed.variants[1]!, 'simulated', [900]);
    await refreshSummaries(ds);
    expect((await summaries())[0]).toMatchObject({ value: 300, set_value: 300 });
  });
});

import { truncateAll, withTestDatabase } from '@tcg/persistence/testing';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FEED_FIXTURES, syncFeeds, useSyncedGateway } from './feeds-cli';

/** TCGCSV dumps of three days in its archive layout (tools/feeds/fixtures/tcgcsv/README.md). */
const ARCHIVE = join(FEED_FIXTURES, 'tcgcsv');
const NOV_26 = Date.UTC(2026, 10, 26) / 1000;

interface V1Variant {
  condition: string;
  printing: string;
  price: number | null;
  lastUpdated: number | null;
}
interface V1Card {
  uuid: string;
  name: string;
  game: string;
  set: string;
  number: string | null;
  rarity: string | null;
  vendorId: string | null;
  variants: V1Variant[];
}
interface V2Card {
  name: string;
  variants: {
    condition: string | null;
    printing: string;
    markets: { region: string; price: number | null; updated_at: number | null; source: string | null }[];
  }[];
}

/**
 * A game that exists only on TCGplayer, synced by the built CLI from TCGCSV dumps (`--from`, the
 * archive layout) into an empty database, then read through the gateway as a client reads it.
 */
describe('a game from the TCGCSV dump, through the gateway', () => {
  const { get } = useSyncedGateway(async () => {
    await withTestDatabase(truncateAll);
    const dir = await mkdtemp(join(tmpdir(), 'tcgcsv-e2e-'));
    // A new game is configuration only: the category by its TCGplayer name.
    const games = join(dir, 'games.json');
    await writeFile(games, JSON.stringify([{ category: 'Pokemon', game: 'pokemon', name: 'Pokémon' }]));
    await syncFeeds(['--feeds', 'tcgcsv', '--from', ARCHIVE, '--dir', dir], { TCGCSV_GAMES: games }).catch(
      (error: { code?: number }) => {
        // Exit code 1: the last day no longer lists Pokémon (reported, data kept); the rest imported.
        if (error.code !== 1) throw error;
      },
    );
    return dir;
  });

  it('lists the new game with its counts and its price source', async () => {
    const { data } = await get<{ data: Record<string, unknown>[] }>('/v1/games');
    expect(data).toEqual([
      expect.objectContaining({
        id: 'pokemon',
        name: 'Pokémon',
        sets_count: 2,
        cards_count: 3,
        sealed_count: 1,
        price_sources: ['tcgplayer'],
      }),
    ]);
    const sets = await get<{ data: { id: string; name: string }[] }>('/v1/sets?game=pokemon&q=silver');
    expect(sets.data.map((s) => [s.id, s.name])).toEqual([
      ['pokemon-swsh12-silver-tempest', 'SWSH12: Silver Tempest'],
    ]);
  });

  it('finds the cards by name, with real NM prices of the priced printings and nulls elsewhere', async () => {
    const { data } = await get<{ data: V1Card[] }>('/v1/cards?game=pokemon&q=pikachu');
    expect(data.map((c) => [c.name, c.set, c.number, c.rarity, c.vendorId])).toEqual([
      ['Pikachu', 'pokemon-swsh12-silver-tempest', '049/195', 'Common', '451101'],
    ]);
    const variants = data[0]!.variants;
    const at = (printing: string, condition = 'Near Mint') =>
      variants.find((v) => v.printing === printing && v.condition === condition)!;
    // Two days' dumps: Reverse Holofoil moved from 0.45 to 0.50; Holofoil never sold (null).
    expect(at('Reverse Holofoil')).toMatchObject({ price: 0.5, lastUpdated: NOV_26 });
    expect(at('Normal')).toMatchObject({ price: 0.12, lastUpdated: NOV_26 });
    expect(at('Holofoil')).toMatchObject({ price: null });
    expect(at('Normal', 'Lightly Played')).toMatchObject({ price: null });
    expect(variants.filter((v) => v.price !== null)).toHaveLength(2);
  });

  it('answers the same prices in v2, each NA market naming TCGplayer', async () => {
    const [v1] = (await get<{ data: V1Card[] }>('/v1/cards?game=pokemon&q=pikachu')).data;
    const { data } = await get<{ data: V2Card[] }>(`/v2/cards?card_id=${v1!.uuid}`);
    const markets = (printing: string, condition: string) =>
      data[0]!.variants.find((v) => v.printing === printing && v.condition === condition)!.markets;
    expect(markets('Reverse Holofoil', 'Near Mint')).toEqual([
      expect.objectContaining({ region: 'NA', price: 0.5, updated_at: NOV_26, source: 'tcgplayer' }),
    ]);
    expect(markets('Holofoil', 'Near Mint')).toEqual([
      expect.objectContaining({ region: 'NA', price: null, source: null }),
    ]);
    for (const v of v1!.variants) {
      const na = markets(v.printing, v.condition).find((m) => m.region === 'NA')!;
      expect([v.printing, v.condition, na.price]).toEqual([v.printing, v.condition, v.price]);
    }
  });

  it('keeps a sealed product sealed, priced on its Sealed variant', async () => {
    const { data } = await get<{ data: V1Card[] }>('/v1/cards?game=pokemon&q=booster');
    expect(data.map((c) => [c.name, c.rarity])).toEqual([['Silver Tempest Booster Box', 'Sealed']]);
    expect(data[0]!.variants).toEqual([
      expect.objectContaining({ condition: 'Sealed', printing: 'Normal', price: 145 }),
    ]);
  });
});

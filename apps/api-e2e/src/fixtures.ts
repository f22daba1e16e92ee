import { Card, CardSet, GrowingPriceSeries, uuidV5, Variant, type PriceSource } from '@tcg/domain';
import {
  IngestSeries,
  migrate,
  PriceIngestRepository,
  refreshSummaries,
  TypeOrmApiKeyRepository,
  writeCatalogue,
} from '@tcg/persistence';
import type { DataSource } from 'typeorm';
import {
  grading,
  gradedVariant,
  rawVariant,
  testCard,
  truncateAll,
  withTestDatabase,
} from '@tcg/persistence/testing';

/** A small hand-made catalogue for end-to-end tests: one game, one set, cards built on demand. */
export const DAY = 86_400;
export const T_NOW = Date.UTC(2026, 10, 1) / 1000;
export const GAME = { id: 'test-game', name: 'Test Game' };
export const SET = {
  uuid: uuidV5('set:test-game-first-edition'),
  id: 'test-game-first-edition',
  gameId: GAME.id,
  name: 'First Edition',
  code: 'FE',
  releaseDate: '2020-01-31',
};

/** A fresh `starter` key's v1 `_metadata` after its first request. */
export const STARTER_AFTER_ONE_REQUEST = {
  apiPlan: 'starter',
  apiRequestLimit: 30000,
  apiRequestsUsed: 1,
  apiRequestsRemaining: 29999,
  apiDailyLimit: 2000,
  apiDailyRequestsUsed: 1,
  apiDailyRequestsRemaining: 1999,
  apiRateLimit: 60,
};

/** A card of `set` (the test set unless said). */
export function card(
  name: string,
  number: string | null,
  extra: Partial<Card> = {},
  set: Pick<CardSet, 'id' | 'gameId' | 'name'> = SET,
): Card {
  return testCard(set, name, number, extra);
}

export const raw = rawVariant;
export const graded = gradedVariant;

/** 400 daily points, a deterministic wiggle around `base` cents, so every window has something to say. */
export function series(base: number): GrowingPriceSeries {
  const t: number[] = [];
  const p: number[] = [];
  for (let d = -399; d <= 0; d++) {
    t.push(T_NOW + d * DAY);
    p.push(base + ((d * 37) % 23) * 5 + (d > -5 ? 40 : 0));
  }
  return { t, p };
}

export { grading };

/** The cards both API versions' tests are built on: a dragon with several variants, a knight, a goblin. */
export const dragon = card('Test Dragon', '7', {
  vendorId: '1007',
  opensetId: 'abc123',
  imagedbId: '0000aaaa-0000-4000-8000-000000000001',
});
export const knight = card('Test Knight', '10');
export const goblin = card('Tiny Goblin', '2');
export const nm = raw(dragon, 'Near Mint', 'Normal', 'English', 'SKU-NM');
export const lp = raw(dragon, 'Lightly Played', 'Normal', 'English', 'SKU-LP');
export const jp = raw(dragon, 'Near Mint', 'Normal', 'Japanese');
export const psa10 = graded(dragon, grading('PSA', 10));
export const knightNm = raw(knight, 'Near Mint', 'Normal', 'English');
export const goblinNm = raw(goblin, 'Near Mint', 'Normal', 'English');
/** The same, for a spec to take apart in one line: `const { dragon, nm } = TEST_CARDS`. */
export const TEST_CARDS = { dragon, knight, goblin, nm, lp, jp, psa10, knightNm, goblinNm };
/** The three cards, as most suites seed them. */
export const THREE_CARDS: readonly Card[] = [dragon, knight, goblin];
/** The raw variants the client and alert suites price: the dragon's three, the knight's, the goblin's. */
export const RAW_VARIANTS: readonly Variant[] = [nm, lp, jp, knightNm, goblinNm];

/**
 * Replaces the test database's catalogue with these cards of the test set, their variants and
 * price series (region NA and simulated unless given), then refreshes the summaries as a load or an
 * import does.
 */
export async function seedCatalogue(
  cards: readonly Card[],
  variants: readonly Variant[],
  prices: readonly (Omit<IngestSeries, 'region' | 'source'> & {
    region?: string;
    source?: PriceSource;
  })[] = [],
): Promise<void> {
  await withTestDatabase(async (ds) => {
    await truncateAll(ds);
    await writeCatalogue(ds, { games: [GAME], sets: [SET], cards: [...cards], variants: [...variants] });
    await new PriceIngestRepository(ds).ingestSeries(
      prices.map((s) => ({ region: 'NA', source: 'simulated', ...s })),
    );
    await refreshSummaries(ds);
  });
}

/**
 * The three cards and their raw variants (`RAW_VARIANTS`), each priced by its own series: the first
 * from 10.00, each next one 1.00 above.
 */
export async function seedRawCatalogue(): Promise<void> {
  await seedCatalogue(
    THREE_CARDS,
    RAW_VARIANTS,
    RAW_VARIANTS.map((v, i) => ({ variantUuid: v.uuid, ...series(1000 + i * 100) })),
  );
}

/**
 * Migrates a database of a server the suite owns and seeds it with the dragon, the knight and the
 * goblin (the dragon's and the knight's NA Near Mint priced); returns an enterprise key in it.
 */
export async function seedOwnDatabase(ds: DataSource, keyName: string): Promise<string> {
  await migrate(ds);
  await writeCatalogue(ds, {
    games: [GAME],
    sets: [SET],
    cards: [...THREE_CARDS],
    variants: [nm, knightNm, goblinNm],
  });
  await new PriceIngestRepository(ds).ingestSeries([
    { region: 'NA', source: 'simulated', variantUuid: nm.uuid, ...series(1000) },
    { region: 'NA', source: 'simulated', variantUuid: knightNm.uuid, ...series(500) },
  ]);
  await refreshSummaries(ds);
  return (await new TypeOrmApiKeyRepository(ds).create('enterprise', keyName)).key;
}

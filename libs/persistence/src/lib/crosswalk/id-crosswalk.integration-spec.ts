import { DataSource } from 'typeorm';
import { writeCatalogue } from '../catalogue';
import { inTransaction } from '../db/transaction';
import { FeedCatalogueRepository } from '../feeds';
import { IdCrosswalk1765930000000 } from '../migrations/1765930000000-id-crosswalk';
import { rawVariant, testCard, tinyCatalogue } from '../../testing/fixtures';
import { useTestDatabase } from '../../testing/test-database';
import { KyselyIdCrosswalkRepository, recordIdAssertions } from './id-crosswalk.repository';
import type { AssertedIds } from './id-crosswalk.repository.port';

const today = () => new Date().toISOString().slice(0, 10);

describe('the id crosswalk on PostgreSQL', () => {
  let ds: DataSource;
  useTestDatabase((opened) => (ds = opened));

  const catalogue = tinyCatalogue();
  const dragon = catalogue.cards[0]!;
  const nm = catalogue.variants[0]!;
  const wyrm = testCard(catalogue.sets[0]!, 'Test Wyrm', '8');
  const wyrmNm = rawVariant(wyrm, 'Near Mint', 'Normal', 'English');
  let feeds: FeedCatalogueRepository;
  let reads: KyselyIdCrosswalkRepository;

  beforeEach(async () => {
    await writeCatalogue(ds, {
      ...catalogue,
      cards: [dragon, wyrm],
      variants: [...catalogue.variants, wyrmNm],
    });
    feeds = new FeedCatalogueRepository(ds);
    reads = new KyselyIdCrosswalkRepository(ds);
  });

  /** Records what a feed run says, as a feed's write unit does: through its transaction. */
  const assert = (asserted: AssertedIds) => feeds.updateCards([], asserted);

  it('answers a card by UUID or slug: its ids and its variants’ ids, each with feed and days', async () => {
    const run = await feeds.startRun('mtgjson', 'AllPrintings');
    await assert({
      feed: 'mtgjson',
      runId: run,
      ids: [
        { cardUuid: dragon.uuid, variantUuid: null, kind: 'tcgplayer_product', value: '1007' },
        {
          cardUuid: dragon.uuid,
          variantUuid: null,
          kind: 'mtgjson_uuid',
          value: 'aaaaaaaa-0000-5000-8000-000000000001',
        },
        // The faces of a card repeat its ids: one row.
        { cardUuid: dragon.uuid, variantUuid: null, kind: 'tcgplayer_product', value: '1007' },
      ],
    });
    await feeds.setVendorSkus(new Map(), {
      feed: 'mtgjson',
      runId: await feeds.startRun('mtgjson', 'TcgplayerSkus'),
      ids: [{ cardUuid: dragon.uuid, variantUuid: nm.uuid, kind: 'tcgplayer_sku', value: '7001' }],
    });

    const byUuid = await reads.cardIds(dragon.uuid);
    expect(byUuid).toEqual({
      card: { uuid: dragon.uuid, slug: dragon.id },
      assertions: [
        expect.objectContaining({ kind: 'mtgjson_uuid', variantUuid: null, feed: 'mtgjson' }),
        {
          cardUuid: dragon.uuid,
          cardSlug: dragon.id,
          variantUuid: null,
          variantSlug: null,
          kind: 'tcgplayer_product',
          value: '1007',
          feed: 'mtgjson',
          firstSeen: today(),
          lastSeen: today(),
        },
        expect.objectContaining({
          kind: 'tcgplayer_sku',
          value: '7001',
          variantUuid: nm.uuid,
          variantSlug: nm.id,
        }),
      ],
      elsewhere: [],
    });
    expect(await reads.cardIds(dragon.id)).toEqual(byUuid);
    expect(await reads.cardIds(dragon.uuid.toUpperCase())).toEqual(byUuid);
    expect(await reads.cardIds('no-such-card')).toBeUndefined();
  });

  it('moves last_seen (and the run) on a later run, first_seen back on an earlier day, never the other way', async () => {
    const ids = [
      { cardUuid: dragon.uuid, variantUuid: null, kind: 'tcgplayer_product' as const, value: '1007' },
    ];
    const first = await feeds.startRun('tcgcsv', '62@2026-11-25');
    await assert({ feed: 'tcgcsv', runId: first, day: '2026-11-25', ids });
    const later = await feeds.startRun('tcgcsv', '62@2026-11-27');
    await assert({ feed: 'tcgcsv', runId: later, day: '2026-11-27', ids });
    const backFill = await feeds.startRun('tcgcsv', '62@2026-11-20');
    await assert({ feed: 'tcgcsv', runId: backFill, day: '2026-11-20', ids });
    // The same day again (a re-run of a back-fill day): nothing moves.
    await assert({
      feed: 'tcgcsv',
      runId: await feeds.startRun('tcgcsv', '62@2026-11-26'),
      day: '2026-11-26',
      ids,
    });
    expect(
      await ds.query(
        `SELECT to_char(first_seen, 'YYYY-MM-DD') AS first, to_char(last_seen, 'YYYY-MM-DD') AS last,
                first_run::text, last_run::text FROM card_id_assertions`,
      ),
    ).toEqual([{ first: '2026-11-20', last: '2026-11-27', first_run: backFill, last_run: later }]);
  });

  it('finds every holder of one value, and the same value on other cards beside a card’s own', async () => {
    const mtgjson = await feeds.startRun('mtgjson', 'AllPrintings');
    const scryfall = await feeds.startRun('scryfall', 'default_cards');
    await assert({
      feed: 'mtgjson',
      runId: mtgjson,
      ids: [{ cardUuid: dragon.uuid, variantUuid: null, kind: 'cardmarket_product', value: '5418' }],
    });
    await assert({
      feed: 'scryfall',
      runId: scryfall,
      ids: [{ cardUuid: wyrm.uuid, variantUuid: null, kind: 'cardmarket_product', value: '5418' }],
    });
    expect((await reads.holders('cardmarket_product', '5418')).map((a) => [a.cardSlug, a.feed])).toEqual(
      [
        [dragon.id, 'mtgjson'],
        [wyrm.id, 'scryfall'],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    expect(await reads.holders('cardmarket_product', '5419')).toEqual([]);
    expect((await reads.cardIds(dragon.uuid))!.elsewhere).toEqual([
      expect.objectContaining({
        cardUuid: wyrm.uuid,
        kind: 'cardmarket_product',
        value: '5418',
        feed: 'scryfall',
      }),
    ]);
  });

  it('writes nothing without a run’s ids, and rolls the ids back with the unit that failed', async () => {
    expect(await feeds.updateCards([])).toBe(0);
    const run = await feeds.startRun('mtgjson', 'AllPrintings');
    await expect(
      inTransaction(ds, async (client) => {
        await recordIdAssertions(client, {
          feed: 'mtgjson',
          runId: run,
          ids: [{ cardUuid: dragon.uuid, variantUuid: null, kind: 'multiverse_id', value: '232' }],
        });
        throw new Error('the unit failed');
      }),
    ).rejects.toThrow('the unit failed');
    expect(await ds.query(`SELECT count(*)::int AS n FROM card_id_assertions`)).toEqual([{ n: 0 }]);
  });

  it('back-fills what the columns hold, attributed only where one feed alone writes it, with no day', async () => {
    const magicSet = {
      ...catalogue.sets[0]!,
      uuid: 'b0000000-0000-5000-8000-000000000001',
      id: 'mtg-lea',
      gameId: 'magic-the-gathering',
    };
    const wall = {
      ...testCard(magicSet, 'Animate Wall', '1'),
      vendorId: '1029',
      opensetId: '2b304dc1-8d7d-50a7-a310-2d0e5427935f',
      imagedbId: 'D5C83259-9B90-47C2-B48E-C7D78519E792',
    };
    const wallNm = rawVariant(wall, 'Near Mint', 'Normal', 'English', '9100001');
    await writeCatalogue(ds, {
      games: [{ id: 'magic-the-gathering', name: 'Magic: The Gathering' }],
      sets: [magicSet],
      cards: [wall],
      variants: [wallNm],
    });
    await feeds.setMarketplaceProducts('cardmarket', [
      { productId: '5418', cardUuid: wall.uuid, language: 'English' },
    ]);

    const runner = ds.createQueryRunner();
    await runner.startTransaction();
    try {
      const migration = new IdCrosswalk1765930000000();
      await migration.down(runner);
      await migration.up(runner);
      const rows = (await runner.query(
        `SELECT c.name, a.variant_uuid IS NOT NULL AS variant, a.kind, a.value, a.feed, a.first_seen, a.last_seen
         FROM card_id_assertions a JOIN cards c ON c.uuid = a.card_uuid ORDER BY c.name, a.kind, a.value`,
      )) as unknown[];
      expect(rows).toEqual([
        row('Animate Wall', false, 'cardmarket_product', '5418', 'mtgjson'),
        row('Animate Wall', false, 'mtgjson_uuid', '2b304dc1-8d7d-50a7-a310-2d0e5427935f', 'mtgjson'),
        row('Animate Wall', false, 'scryfall_id', 'd5c83259-9b90-47c2-b48e-c7d78519e792', null),
        row('Animate Wall', false, 'tcgplayer_product', '1029', null),
        row('Animate Wall', true, 'tcgplayer_sku', '9100001', null),
        // The test game's card: its product id, unattributed; its SKU (`SKU-NM`) is another game's, left out.
        row('Test Dragon', false, 'tcgplayer_product', '1007', null),
      ]);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  });
});

function row(name: string, variant: boolean, kind: string, value: string, feed: string | null) {
  return { name, variant, kind, value, feed, first_seen: null, last_seen: null };
}

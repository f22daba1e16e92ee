import { RawVariant, uuidV5, variantSlug } from '@tcg/domain';
import { CARD_DOCUMENTS, CardDocument, v1JoinedJson, v2JoinedJson } from '@tcg/rendering';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { joinedCards, joinedRead, tinyCatalogue, useTestDatabase } from '../../testing';
import { renderMissingDocuments, writeCatalogue } from '../catalogue';
import { sql } from 'kysely';
import { variantConditions } from '../sql/variant-conditions';
import { compile, joined } from '../sql/compile';
import { CardQueryRepository } from '../reads';
import { refreshCardDocuments, variantsAggregateSql } from './card-documents';
import { PriceIngestRepository } from '../prices';

const DAY = 86_400;

type Column = CardDocument['column'];
const T0 = Date.UTC(2026, 0, 1) / 1000;
const RAW = { includeNullPrices: true };

describe('card documents (PostgreSQL)', () => {
  let ds: DataSource;
  let cat: ReturnType<typeof tinyCatalogue>;
  let card: string;
  let nm: string;
  let graded: string;

  useTestDatabase((opened) => (ds = opened));
  beforeEach(async () => {
    cat = tinyCatalogue();
    card = cat.cards[0]!.uuid;
    nm = cat.variants.find((v) => v.type === 'raw')!.uuid;
    graded = cat.variants.find((v) => v.type === 'graded')!.uuid;
    await writeCatalogue(ds, cat);
  });

  const ingest = (variantUuid: string, region: string, prices: number[]) =>
    new PriceIngestRepository(ds).ingest(
      prices.map((price, d) => ({ variantUuid, region, t: T0 + d * DAY, price })),
    );

  /** Each stored document of the card, and what joining its variants' parts gives now. */
  async function storedAndJoined(
    cardUuid: string,
  ): Promise<{ stored: Record<Column, unknown>; joined: Record<Column, unknown> }> {
    const parts = CARD_DOCUMENTS.map(
      (d) =>
        sql`${variantsAggregateSql(d.json, variantConditions(RAW, true), sql`${d.region}::text`)} AS ${sql.raw(`"${d.column}"`)}`,
    );
    const statement = compile(sql`SELECT ${joined(parts)} FROM cards c WHERE c.uuid = ${cardUuid}`);
    const [fromParts] = await ds.query(statement.sql, [...statement.parameters]);
    const [stored] = await ds.query(
      `SELECT ${CARD_DOCUMENTS.map((d) => d.column).join(', ')} FROM card_documents WHERE card_uuid = $1`,
      [cardUuid],
    );
    const byColumn = (row: Record<string, unknown> | undefined) =>
      Object.fromEntries(CARD_DOCUMENTS.map((d) => [d.column, row?.[d.column]])) as Record<Column, unknown>;
    return { stored: byColumn(stored as Record<string, unknown>), joined: byColumn(fromParts) };
  }

  it('holds what joining the parts gives, from the catalogue write on and after every price write', async () => {
    // Written with the catalogue: the raw variant without observations.
    let docs = await storedAndJoined(card);
    expect(docs.stored).toEqual(docs.joined);
    expect(docs.stored.v1_variants).toContain('"price":null');

    await ingest(nm, 'NA', [1000, 1100, 1234]);
    docs = await storedAndJoined(card);
    expect(docs.stored).toEqual(docs.joined);
    expect(docs.stored.v1_variants).toContain('"price":12.34');
    expect(docs.stored.v2_variants).toContain('"currency":"USD","price":12.34');

    // A later observation replaces the price in both versions' documents.
    await new PriceIngestRepository(ds).ingest([
      { variantUuid: nm, region: 'NA', t: T0 + 5 * DAY, price: 999 },
    ]);
    docs = await storedAndJoined(card);
    expect(docs.stored).toEqual(docs.joined);
    expect(docs.stored.v1_variants).toContain('"price":9.99');

    // Graded variants and other regions are outside every document: the documents keep what
    // joining the raw variants' NA parts gives.
    const before = docs.stored;
    await ingest(graded, 'NA', [50_000]);
    await ingest(nm, 'EU', [900]);
    docs = await storedAndJoined(card);
    expect(docs.stored).toEqual(before);
    expect(docs.stored).toEqual(docs.joined);
  });

  it('takes in a variant the catalogue adds to a card', async () => {
    await ingest(nm, 'NA', [1000]);
    const lp = lightlyPlayed(cat);
    await writeCatalogue(ds, { ...cat, variants: [...cat.variants, lp] });
    const docs = await storedAndJoined(card);
    expect(docs.stored).toEqual(docs.joined);
    expect(docs.stored.v1_variants).toContain(lp.id);
    expect(docs.stored.v2_variants).toContain(lp.id);
  });

  it('left out of a catalogue write, are rendered by the next price write or renderMissingDocuments', async () => {
    const documentOf = async (cardUuid: string) =>
      (await ds.query(`SELECT v1_variants FROM card_documents WHERE card_uuid = $1`, [cardUuid]))[0];
    // A card that had documents and gains a variant loses them rather than keep a stale list...
    const lp = lightlyPlayed(cat);
    await writeCatalogue(ds, { ...cat, variants: [...cat.variants, lp] }, { documents: false });
    expect(await documentOf(card)).toBeUndefined();
    // ...is answered from its parts meanwhile, and gets them back with its next price write.
    await ingest(lp.uuid, 'NA', [2000]);
    let docs = await storedAndJoined(card);
    expect(docs.stored.v1_variants).toContain(lp.id);
    expect(docs.stored).toEqual(docs.joined);

    // A card no price write reaches gets them from renderMissingDocuments, once.
    await ds.query(`DELETE FROM card_documents`);
    await renderMissingDocuments(ds);
    docs = await storedAndJoined(card);
    expect(docs.stored.v1_variants).toContain('"price":null');
    expect(docs.stored).toEqual(docs.joined);
    await ds.query(`UPDATE card_documents SET v1_variants = '"kept"'`);
    await renderMissingDocuments(ds);
    expect(await documentOf(card)).toEqual({ v1_variants: '"kept"' });
  });

  it('misses no committed write when two writers render one card at once', async () => {
    const lp = lightlyPlayed(cat);
    await writeCatalogue(ds, { ...cat, variants: [...cat.variants, lp] });
    await ingest(nm, 'NA', [1000]);
    await ingest(lp.uuid, 'NA', [2000]);

    // Writer A changes one variant's parts and renders the card; writer B changes the other's and
    // renders the card while A has not committed. B's change skips the data-version triggers
    // (replica role), so only the rendering's own hold on the data version orders it after A: B's
    // document must include A's change.
    const a = ds.createQueryRunner();
    const b = ds.createQueryRunner();
    // The documents are rendered on the runners' own connections, in their transactions.
    const clientA: PoolClient = await a.connect();
    const clientB: PoolClient = await b.connect();
    try {
      await a.startTransaction();
      await a.query(`UPDATE variant_prices SET v1_stats = '"by":"A"' WHERE variant_uuid = $1`, [nm]);
      await refreshCardDocuments(clientA, [card]);
      await b.startTransaction();
      await b.query(`SET LOCAL session_replication_role = replica`);
      await b.query(`UPDATE variant_prices SET v1_stats = '"by":"B"' WHERE variant_uuid = $1`, [lp.uuid]);
      await b.query(`SET LOCAL session_replication_role = origin`);
      const rendering = refreshCardDocuments(clientB, [card]);
      await waitUntil(async () => {
        const [{ n }] = await ds.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return n > 0;
      });
      await a.commitTransaction();
      await rendering;
      await b.commitTransaction();
    } finally {
      if (a.isTransactionActive) await a.rollbackTransaction();
      if (b.isTransactionActive) await b.rollbackTransaction();
      await a.release();
      await b.release();
    }
    const docs = await storedAndJoined(card);
    expect(docs.stored.v1_variants).toContain('"by":"A"');
    expect(docs.stored.v1_variants).toContain('"by":"B"');
    expect(docs.stored).toEqual(docs.joined);
  });

  it('is what a default read returns, and a card without one is joined from its parts', async () => {
    await ingest(nm, 'NA', [1000, 1100]);
    const repo = new CardQueryRepository(ds);
    const read = async (withHistory: boolean) =>
      joinedCards(await repo.loadCards([card], RAW, joinedRead(v1JoinedJson(withHistory))))[0]!.variantsJson;
    const v2 = async () =>
      joinedCards(await repo.loadCards([card], RAW, joinedRead(v2JoinedJson('NA', 'USD', true, true))))[0]!
        .variantsJson;
    const expected = await storedAndJoined(card);
    const reads = async () => ({
      v1_variants: await read(true),
      v1_bare_variants: await read(false),
      v2_variants: await v2(),
    });
    expect(await reads()).toEqual(expected.stored);
    expect(expected.stored.v1_bare_variants).toContain('"priceHistory":null');

    // A stored document is read as it is (marked here to tell it from a join)...
    await ds.query(`UPDATE card_documents SET v1_variants = '"stored"' WHERE card_uuid = $1`, [card]);
    expect(await read(true)).toBe('"stored"');
    await ds.query(`UPDATE card_documents SET v1_bare_variants = '"bare"' WHERE card_uuid = $1`, [card]);
    expect(await read(false)).toBe('"bare"');
    // ...only for the options it holds: with a variant filter, or in the US market (the same
    // series, another market head), the parts are joined.
    await ds.query(`UPDATE card_documents SET v2_variants = '"stored"' WHERE card_uuid = $1`, [card]);
    const english = { ...RAW, languages: ['English' as const] };
    expect(
      joinedCards(await repo.loadCards([card], english, joinedRead(v1JoinedJson(true))))[0]!.variantsJson,
    ).toBe(expected.stored.v1_variants);
    expect(
      joinedCards(await repo.loadCards([card], english, joinedRead(v1JoinedJson(false))))[0]!.variantsJson,
    ).toBe(expected.stored.v1_bare_variants);
    const us = v2JoinedJson('US', 'USD', true, true);
    expect(joinedCards(await repo.loadCards([card], RAW, joinedRead(us)))[0]!.variantsJson).toContain(
      '"region":"US"',
    );
    expect(await v2()).toBe('"stored"');
    // A lookup by slug in one statement (v2) and a v1 page read it too.
    const v2Doc = v2JoinedJson('NA', 'USD', true, true);
    expect((await repo.findJoinedCard(cat.cards[0]!.id, RAW, 'NA', v2Doc))!.variantsJson).toBe('"stored"');
    const page = await repo.findCards(
      { by: 'cardId', value: cat.cards[0]!.id },
      RAW,
      { limit: 20, offset: 0 },
      { direction: 'asc' },
      joinedRead(v1JoinedJson(true)),
    );
    expect(joinedCards(page.found).map((c) => c.variantsJson)).toEqual(['"stored"']);

    // A card whose documents are missing is joined from its parts, the same text.
    await ds.query(`DELETE FROM card_documents WHERE card_uuid = $1`, [card]);
    expect(await reads()).toEqual(expected.stored);
  });
});

async function waitUntil(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('condition not reached within 10 s');
}

/** A second raw variant of the tiny catalogue's card: Lightly Played. */
function lightlyPlayed(cat: ReturnType<typeof tinyCatalogue>): RawVariant {
  const nm = cat.variants.find((v): v is RawVariant => v.type === 'raw')!;
  const id = variantSlug(cat.cards[0]!.id, {
    condition: 'Lightly Played',
    printing: nm.printing,
    language: nm.language,
  });
  return { ...nm, uuid: uuidV5(id), id, condition: 'Lightly Played', vendorSkuId: 'SKU-LP' };
}

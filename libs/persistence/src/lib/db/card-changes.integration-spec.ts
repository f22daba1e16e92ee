import { SUMMARIES_DEPENDENCY } from '@tcg/rendering';
import { DataSource } from 'typeorm';
import {
  observed,
  rawVariant,
  testCard,
  tinyCatalogue,
  useTestDatabase,
  workerDatabaseUrl,
} from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from '../prices';
import { refreshSummaries } from '../summaries';
import { pruneCardChanges, readChangedCards } from './card-changes';
import { poolOf } from './data-source';
import { DataVersionWatcher, readDataVersion } from './data-version';

/**
 * The card change log (CardChanges migration) as the services read it: what each kind of write
 * tells them, by the cards whose answers it changed, or by "anything".
 */
describe('card change log (PostgreSQL)', () => {
  let ds: DataSource;
  /** Two cards of the tiny catalogue, each with a priced variant. */
  let a: { card: string; variant: string };
  let b: { card: string; variant: string };
  const committed = () => readDataVersion(poolOf(ds));

  /** The cards `write` changed, as a service asks after it: the range from before it to after. */
  async function changedBy(write: () => Promise<unknown>): Promise<string[] | null> {
    const before = await committed();
    await write();
    const after = await committed();
    expect(after).toBeGreaterThan(before);
    const changed = await readChangedCards(poolOf(ds), before, after);
    return changed && [...changed].sort();
  }

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  const T0 = Date.UTC(2026, 0, 30) / 1000;
  const cat = tinyCatalogue();
  const knight = testCard(cat.sets[0]!, 'Test Knight', '8');
  const knightNm = rawVariant(knight, 'Near Mint', 'Normal', 'English', 'SKU-KNIGHT');
  beforeAll(async () => {
    await writeCatalogue(ds, {
      ...cat,
      cards: [...cat.cards, knight],
      variants: [...cat.variants, knightNm],
    });
    a = { card: cat.cards[0]!.uuid, variant: cat.variants[0]!.uuid };
    b = { card: knight.uuid, variant: knightNm.uuid };
  });

  it('names the cards an import priced', async () => {
    const prices = new PriceIngestRepository(ds);
    const changed = await changedBy(() =>
      prices.ingest([observed({ uuid: a.variant }, T0, 1000), observed({ uuid: b.variant }, T0, 500)]),
    );
    expect(changed).toEqual([a.card, b.card].sort());
    expect(await changedBy(() => prices.ingest([observed({ uuid: b.variant }, T0 + 86_400, 550)]))).toEqual([
      b.card,
    ]);
  });

  it('names the card of a price written, and no other', async () => {
    expect(
      await changedBy(() =>
        ds.query(`UPDATE variant_prices SET price = price + 1 WHERE variant_uuid = $1`, [a.variant]),
      ),
    ).toEqual([a.card]);
  });

  it('names the cards of every statement of a transaction, under its one version', async () => {
    const changed = await changedBy(() =>
      ds.transaction(async (m) => {
        await m.query(`UPDATE variant_prices SET price = price + 1 WHERE variant_uuid = $1`, [a.variant]);
        await m.query(`UPDATE cards SET rarity = 'Mythic' WHERE uuid = $1`, [b.card]);
      }),
    );
    expect(changed).toEqual([a.card, b.card].sort());
  });

  it('names nothing for an update that leaves the rows as they were, though the version moves', async () => {
    expect(await changedBy(() => ds.query(`UPDATE cards SET name = name WHERE uuid = $1`, [a.card]))).toEqual(
      [],
    );
    expect(await changedBy(() => ds.query(`UPDATE sets SET name = name`))).toEqual([]);
  });

  it('names both cards of a variant moved from one to the other', async () => {
    const move = (to: string) =>
      changedBy(() => ds.query(`UPDATE variants SET card_uuid = $2 WHERE uuid = $1`, [a.variant, to]));
    expect(await move(b.card)).toEqual([a.card, b.card].sort());
    expect(await move(a.card)).toEqual([a.card, b.card].sort());
  });

  it('names the card of a document rewritten, even as it was (documents are not compared)', async () => {
    const [{ rows }] = await ds.query(
      `SELECT count(*)::int AS rows FROM card_documents WHERE card_uuid = $1`,
      [a.card],
    );
    expect(rows).toBe(1);
    expect(
      await changedBy(() =>
        ds.query(`UPDATE card_documents SET v2_variants = v2_variants WHERE card_uuid = $1`, [a.card]),
      ),
    ).toEqual([a.card]);
  });

  it('tells that anything may have changed when a set is renamed, a rate arrives or a table is emptied', async () => {
    expect(await changedBy(() => ds.query(`UPDATE sets SET name = name || ' (renamed)'`))).toBeNull();
    expect(
      await changedBy(() =>
        ds.query(
          `INSERT INTO exchange_rates (source, currency, day, rate) VALUES ('ecb', 'USD', '2026-01-02', 1.1)`,
        ),
      ),
    ).toBeNull();
    expect(await changedBy(() => ds.query(`TRUNCATE card_documents`))).toBeNull();
  });

  it('tells that the summaries changed, and no card, when they are refreshed (v1 lookups read them)', async () => {
    expect(await changedBy(() => refreshSummaries(ds))).toEqual([SUMMARIES_DEPENDENCY]);
  });

  it('names nothing for a new set: no answer refers to it yet', async () => {
    expect(
      await changedBy(() =>
        ds.query(
          `INSERT INTO sets (uuid, id, game_id, name, code)
           SELECT gen_random_uuid(), 'a-new-set', game_id, 'A New Set', 'ANS' FROM sets LIMIT 1`,
        ),
      ),
    ).toEqual([]);
  });

  it('logs the writes of the importer role, and lets the services’ role read and prune', async () => {
    await ds.transaction(async (m) => {
      await m.query('SET LOCAL ROLE tcg_importer');
      await m.query(`UPDATE variant_prices SET price = price + 1 WHERE variant_uuid = $1`, [a.variant]);
    });
    const client = await poolOf(ds).connect();
    try {
      await client.query('SET ROLE tcg_reader');
      const version = await readDataVersion(client);
      expect(await readChangedCards(client, version - 1, version)).toEqual(new Set([a.card]));
      await pruneCardChanges(client, version - 1);
    } finally {
      await client.query('RESET ROLE');
      client.release();
    }
  });

  it('after a prune, tells a range that reaches below it that anything may have changed, and one above exactly', async () => {
    const write = (variant: string) =>
      ds.query(`UPDATE variant_prices SET price = price + 1 WHERE variant_uuid = $1`, [variant]);
    const v0 = await committed();
    await write(a.variant);
    const v1 = await committed();
    await write(b.variant);
    const v2 = await committed();
    expect(await pruneCardChanges(poolOf(ds), v1)).toBeGreaterThan(0);
    expect(await readChangedCards(poolOf(ds), v0, v2)).toBeNull();
    // Its upper end below the prune's mark: a reader that learnt of v1 only after the prune.
    expect(await readChangedCards(poolOf(ds), v0, v1)).toBeNull();
    expect(await readChangedCards(poolOf(ds), v1, v2)).toEqual(new Set([b.card]));
  });

  it('is what the data version watcher tells, on its own connection', async () => {
    const watcher = new DataVersionWatcher({ url: workerDatabaseUrl(), timeoutMs: 2000, retryMs: 50 });
    await watcher.start();
    try {
      const before = await committed();
      await ds.query(`UPDATE variant_prices SET price = price + 1 WHERE variant_uuid = $1`, [b.variant]);
      const after = await committed();
      expect(await watcher.changedCards(before, after)).toEqual(new Set([b.card]));
    } finally {
      await watcher.stop();
    }
    expect(await watcher.changedCards(1, 2)).toBeNull();
  });
});

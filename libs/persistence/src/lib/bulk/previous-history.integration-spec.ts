import { gunzipSync } from 'node:zlib';
import { Card, Variant } from '@tcg/domain';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { rawVariant, testCard, tinyCatalogue, useTestClient, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from '../prices';
import { generateGameHistory } from './bulk-generator';
import { pruneSeriesChanges, TypeOrmBulkSnapshotStore } from './bulk-snapshot.repository';

const GAME = 'test-game';
/** Unix seconds of noon on a UTC day. */
const noon = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d, 12) / 1000;

describe('a history file built on the previous one (PostgreSQL)', () => {
  let ds: DataSource;
  let client: Client;
  let store: TypeOrmBulkSnapshotStore;
  let ingest: PriceIngestRepository;
  const cat = tinyCatalogue();
  const set = cat.sets[0]!;
  const [dragon] = cat.cards;
  const [dragonNm] = cat.variants;
  const card = (name: string, number: string) => testCard(set, name, number);
  const wyvern = card('Test Wyvern', '8');
  const goblin = card('Test Goblin', '9');
  const golem = card('Test Golem', '10');
  const imp = card('Test Imp', '11');
  const orc = card('Test Orc', '12');
  const newt = card('Test Newt', '8a');
  const nm = (c: Card) => rawVariant(c, 'Near Mint', 'Normal', 'English');
  const lp = (c: Card) => rawVariant(c, 'Lightly Played', 'Normal', 'English');
  const variants: Variant[] = [...cat.variants, ...[wyvern, goblin, golem, imp, orc].map(nm), lp(wyvern)];

  /** The text of the game's newest history file. */
  const historyText = async () => {
    const s = (await store.latest(GAME, 'history.ndjson.gz'))!;
    const parts: Buffer[] = [];
    for (let seq = 0; seq < s.chunks; seq++) parts.push((await store.readChunk(s.id, seq))!);
    return gunzipSync(Buffer.concat(parts)).toString('utf8');
  };
  /** Observations of `v` in `region` at noon of these days of 2026 ([month, day]). */
  const prices = (v: Variant, region: string, days: [number, number][], base: number) =>
    days.map(([m, d], i) => ({ variantUuid: v.uuid, region, t: noon(2026, m, d), price: base + i }));

  const deleteCard = async (c: Card) => {
    await client.query(`DELETE FROM variants WHERE card_uuid = $1`, [c.uuid]);
    await client.query(`DELETE FROM cards WHERE uuid = $1`, [c.uuid]);
  };

  useTestDatabase((opened) => (ds = opened));
  useTestClient((opened) => (client = opened));
  beforeAll(() => {
    store = new TypeOrmBulkSnapshotStore(ds);
  });
  beforeEach(async () => {
    await writeCatalogue(ds, { ...cat, cards: [dragon!, wyvern, goblin, golem, imp, orc], variants });
    ingest = new PriceIngestRepository(ds);
    const months: [number, number][] = [
      [9, 3],
      [9, 20],
      [10, 5],
      [10, 6],
      [11, 2],
    ];
    await ingest.ingest([
      ...prices(dragonNm!, 'NA', months, 1000),
      ...prices(dragonNm!, 'EU', months, 2000),
      ...prices(nm(wyvern), 'NA', months, 3000),
      ...prices(lp(wyvern), 'NA', months.slice(2), 4000),
      ...prices(nm(golem), 'NA', months, 6000),
      ...prices(nm(imp), 'NA', months, 8000),
      ...prices(nm(orc), 'NA', months, 9000),
    ]);
    // Simulated, as the sample's prices are: a real price replaces the series whole.
    await ingest.ingest(prices(nm(goblin), 'NA', months, 5000), 'simulated');
  });
  it('is, after every kind of change, the file a whole read writes, reading again only what changed', async () => {
    const first = await generateGameHistory(client, GAME, { cardsPerPage: 2 });
    expect(first.builtOn).toBeNull();
    expect(first.series).toEqual({ kept: 0, extended: 0, readWhole: 8 });

    await ingest.ingest([
      // A new day in the current month, and one in a month after the first: extended.
      ...prices(dragonNm!, 'NA', [[11, 3]], 1100),
      ...prices(nm(wyvern), 'NA', [[10, 20]], 3100),
      // A day before the first: the line's `from` moves, read whole.
      ...prices(lp(wyvern), 'NA', [[9, 1]], 4100),
      // A real price replaces the simulated series and its months: read whole.
      ...prices(nm(goblin), 'NA', [[11, 4]], 5100),
    ]);
    // A month deleted in the middle of a series (its first and last stay): read whole.
    await client.query(
      `DELETE FROM price_series WHERE variant_uuid = $1 AND region = 'EU' AND month = '2026-10-01'`,
      [dragonNm!.uuid],
    );
    // A card deleted; a card added between two others; a card moved to the front (read whole: its
    // previous lines come after the page that now holds it).
    await deleteCard(golem);
    await writeCatalogue(ds, { ...cat, cards: [newt], variants: [nm(newt)] });
    await ingest.ingest(prices(nm(newt), 'NA', [[11, 1]], 7000));
    await client.query(`UPDATE cards SET number = '1' WHERE uuid = $1`, [orc.uuid]);

    const built = await generateGameHistory(client, GAME, { cardsPerPage: 2 });
    expect(built.builtOn).toBe(first.dataVersion);
    const text = await historyText();

    await client.query(`DELETE FROM bulk_snapshots WHERE format = 'history.ndjson.gz'`);
    const whole = await generateGameHistory(client, GAME, { cardsPerPage: 2 });
    expect(whole.builtOn).toBeNull();
    expect(text).toBe(await historyText());
    expect(built.lines).toBe(whole.lines);

    // Only the imp's line is taken as it was.
    expect(built.series).toEqual({ kept: 1, extended: 2, readWhole: 5 });
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { card_id: string; region: string });
    expect(lines.map((l) => `${l.card_id} ${l.region}`)).toEqual([
      `${orc.id} NA`,
      `${dragon!.id} NA`,
      `${dragon!.id} EU`,
      `${wyvern.id} NA`,
      `${wyvern.id} NA`,
      `${newt.id} NA`,
      `${goblin.id} NA`,
      `${imp.id} NA`,
    ]);
  });

  it('keeps every line of an unchanged catalogue as written', async () => {
    const first = await generateGameHistory(client, GAME);
    const before = await historyText();
    const again = await generateGameHistory(client, GAME);
    expect(again.builtOn).toBe(first.dataVersion);
    expect(again.series).toEqual({ kept: 8, extended: 0, readWhole: 0 });
    expect(await historyText()).toBe(before);
  });

  it('logs what each version wrote, deleted or truncated, and prunes what every file is past', async () => {
    const version = async () =>
      (await client.query<{ v: string }>(`SELECT version::text AS v FROM data_version`)).rows[0]!.v;
    const logged = async (since: string) =>
      (
        await client.query<{ variant_uuid: string | null; from_month: string | null }>(
          `SELECT variant_uuid::text, from_month::text FROM price_series_changes
            WHERE version > $1 ORDER BY variant_uuid NULLS FIRST`,
          [since],
        )
      ).rows;

    let since = await version();
    await ingest.ingest(prices(dragonNm!, 'NA', [[11, 3]], 1100));
    expect(await logged(since)).toEqual([{ variant_uuid: dragonNm!.uuid, from_month: '2026-11-01' }]);

    // A real price replaces the simulated series: its months deleted, then one written.
    since = await version();
    await ingest.ingest(prices(nm(goblin), 'NA', [[11, 4]], 5100));
    expect(await logged(since)).toEqual([
      { variant_uuid: nm(goblin).uuid, from_month: null },
      { variant_uuid: nm(goblin).uuid, from_month: '2026-11-01' },
    ]);

    since = await version();
    await client.query(`TRUNCATE price_series, variant_prices`);
    expect(await logged(since)).toEqual([{ variant_uuid: null, from_month: null }]);

    // No history file anywhere: nobody reads the log, it all goes.
    expect(await pruneSeriesChanges(client)).toBeGreaterThan(0);
    expect(await logged('0')).toEqual([]);

    // Pruned up to the oldest of the games' newest files: here the one game's.
    await ingest.ingest(prices(dragonNm!, 'NA', [[11, 3]], 1100));
    const file = await generateGameHistory(client, GAME);
    expect(await pruneSeriesChanges(client)).toBeGreaterThan(0);
    expect(await logged('0')).toEqual([]);
    expect(file.lines).toBe(1);
  });

  it('reads every series whole after price_series was truncated', async () => {
    await generateGameHistory(client, GAME);
    await client.query(`TRUNCATE price_series, variant_prices`);
    await ingest.ingest(prices(dragonNm!, 'NA', [[11, 3]], 1100));
    const after = await generateGameHistory(client, GAME);
    expect(after.builtOn).toBeNull();
    expect(after.lines).toBe(1);
  });
});

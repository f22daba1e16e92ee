import type { VariantFilter } from '@tcg/domain';
import { v2JoinedJson } from '@tcg/rendering';
import { DataSource } from 'typeorm';
import { rawVariant, testCard, tinyCatalogue, useTestDatabase, workerDatabaseUrl } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { createDataSource } from '../db/data-source';
import { CardQueryRepository } from './card-query.repository';
import { LOOKUPS_PER_STATEMENT } from './batched-lookups';
import { POSITIONS } from '../sql/variant-conditions';
import { sql } from 'kysely';

const RAW = { includeNullPrices: true };
const MISSING = '00000000-0000-4000-8000-000000000000';

describe('card lookups by UUID, batched (PostgreSQL)', () => {
  let ds: DataSource;
  let uuids: string[];
  let slugs: string[];
  const json = v2JoinedJson('NA', 'USD', true, true);

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    const cat = tinyCatalogue();
    const cards = Array.from({ length: 40 }, (_, i) => testCard(cat.sets[0]!, `Card ${i}`, String(i + 1)));
    await writeCatalogue(ds, {
      ...cat,
      cards: [...cat.cards, ...cards],
      variants: [
        ...cat.variants,
        ...cards.map((c) => rawVariant(c, 'Near Mint', 'Normal', 'English', `S-${c.id}`)),
      ],
    });
    uuids = [cat.cards[0]!.uuid, ...cards.map((c) => c.uuid)];
    slugs = [cat.cards[0]!.id, ...cards.map((c) => c.id)];
  });

  it('answers lookups that arrive together, more than one statement holds, as each alone', async () => {
    const repo = new CardQueryRepository(ds);
    const alone = [];
    for (const uuid of uuids) alone.push(await repo.findJoinedCard(uuid, RAW, 'NA', json));
    expect(alone.every((card, i) => card?.card.uuid === uuids[i])).toBe(true);
    // Upper case, a UUID named twice and one that names nothing, among the rest.
    const asked = [...uuids.map((u, i) => (i % 2 ? u.toUpperCase() : u)), uuids[3]!, MISSING];
    expect(asked.length).toBeGreaterThan(LOOKUPS_PER_STATEMENT);
    const together = await Promise.all(asked.map((ref) => repo.findJoinedCard(ref, RAW, 'NA', json)));
    expect(together).toEqual([...alone, alone[3], undefined]);
  });

  it('answers lookups by slug that arrive together as each alone', async () => {
    const repo = new CardQueryRepository(ds);
    const asked = [...slugs, slugs[5]!, 'no-such-card', slugs[0]!.toUpperCase()];
    const together = await Promise.all(asked.map((ref) => repo.findJoinedCard(ref, RAW, 'NA', json)));
    expect(together.map((c) => c?.card.uuid)).toEqual([...uuids, uuids[5], undefined, undefined]);
    const alone = await repo.findJoinedCard(slugs[7]!, RAW, 'NA', json);
    expect(together[7]).toEqual(alone);
  });

  it('keeps a hot shape compiled while a client varies a filter value past the shapes kept', async () => {
    const repo = new CardQueryRepository(ds);
    await repo.findJoinedCard(uuids[0]!, RAW, 'NA', json);
    // Every statement a lookup compiles is an `sql` fragment compiled whole.
    const compiles = jest.spyOn(Object.getPrototypeOf(sql`SELECT 1`) as { compile(): unknown }, 'compile');
    try {
      // 300 shapes asked for once each, one at a time, among lookups of the hot shape: each
      // compiles its one-card statement only, and the hot shape is never compiled again.
      for (let second = 1; second <= 300; second++) {
        const card = await repo.findJoinedCard(uuids[1]!, { ...RAW, updatedAfter: second }, 'NA', json);
        expect(card?.card.uuid).toBe(uuids[1]);
        if (second % 10 === 0) await repo.findJoinedCard(uuids[0]!, RAW, 'NA', json);
      }
      expect(compiles).toHaveBeenCalledTimes(300);
      compiles.mockClear();
      await repo.findJoinedCard(uuids[0]!, RAW, 'NA', json);
      expect(compiles).not.toHaveBeenCalled();
      // The shape unused the longest was forgotten.
      await repo.findJoinedCard(uuids[1]!, { ...RAW, updatedAfter: 1 }, 'NA', json);
      expect(compiles).toHaveBeenCalledTimes(1);
    } finally {
      compiles.mockRestore();
    }
  });

  it('keeps the generic plan of the statement that reads several', async () => {
    // One connection: the statements counted are the ones the lookups prepared.
    const one = await createDataSource({
      url: workerDatabaseUrl(),
      poolSize: 1,
      applicationName: 'test',
    }).initialize();
    try {
      // Statistics first: an autovacuum ANALYZE of the rows this suite wrote, landing among the
      // executions below, invalidates the prepared plan and starts its five custom plans again.
      await one.query('ANALYZE games, sets, cards, variants, variant_prices, card_documents');
      const repo = new CardQueryRepository(one);
      // A UUID in two cases within one statement is read once and answers both.
      const twice = await Promise.all(
        [uuids[1]!, uuids[1]!.toUpperCase(), uuids[2]!].map((ref) =>
          repo.findJoinedCard(ref, RAW, 'NA', json),
        ),
      );
      expect(twice.map((c) => c?.card.uuid)).toEqual([uuids[1], uuids[1], uuids[2]]);
      for (let round = 0; round < 16; round++) {
        const some = uuids.slice(round, round + 2 + (round % 3));
        const found = await Promise.all(some.map((ref) => repo.findJoinedCard(ref, RAW, 'NA', json)));
        expect(found.map((c) => c?.card.uuid)).toEqual(some);
      }
      const [plans] = await one.query<{ generic: number; custom: number }[]>(
        `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements
          WHERE statement LIKE '%generate_series%'`,
      );
      // PostgreSQL plans a statement's first five executions for their values, then keeps the
      // generic plan if it costs no more: with `= ANY($n)` it never does.
      expect(plans!.generic).toBeGreaterThan(0);
    } finally {
      await one.destroy();
    }
  });

  it('reads a filtered lookup with its lists by position, and one too long for that as before', async () => {
    const repo = new CardQueryRepository(ds);
    const nearMint = (card: Awaited<ReturnType<typeof repo.findJoinedCard>>) =>
      card?.variantsJson.includes('Near Mint') ?? false;
    // The matching value second in its list, the language list too (v2 reads languages).
    const second: VariantFilter = {
      ...RAW,
      conditions: ['Damaged', 'Near Mint'],
      languages: ['Japanese', 'English'],
    };
    const found = await Promise.all(uuids.slice(0, 3).map((u) => repo.findJoinedCard(u, second, 'NA', json)));
    expect(found.map(nearMint)).toEqual([true, true, true]);
    const alone = await repo.findJoinedCard(uuids[4]!, second, 'NA', json);
    expect(nearMint(alone)).toBe(true);
    // No value that matches: the card, without the variant.
    const damaged = await repo.findJoinedCard(uuids[4]!, { ...RAW, conditions: ['Damaged'] }, 'NA', json);
    expect([damaged?.card.uuid, nearMint(damaged)]).toEqual([uuids[4], false]);
    // More values than POSITIONS: `= ANY`, the match last.
    const printings = [...Array.from({ length: POSITIONS }, (_, i) => `printing ${i}`), 'normal'];
    const long = await repo.findJoinedCard(uuids[4]!, { ...RAW, printings }, 'NA', json);
    expect(nearMint(long)).toBe(true);
  });
});

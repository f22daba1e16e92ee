import { Card, cardSlug, KeysetQuery, uuidV5, Variant, variantSlug } from '@tcg/domain';
import { DataSource } from 'typeorm';
import { useTestDatabase, walkKeyset } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from '../prices';
import { refreshSummaries } from '../summaries';
import { CardKeysetRepository } from './card-keyset.repository';

const GAME = { id: 'test-game', name: 'Test Game' };
const set = (id: string, name: string) => ({
  uuid: uuidV5(`set:${id}`),
  id,
  gameId: GAME.id,
  name,
  code: 'X',
  releaseDate: null,
});
const FIRST = set('test-game-first-edition', 'First Edition');
// Its id extends the first set's id: on the key, the shorter id must still come first.
const PROMOS = set('test-game-first-edition-promos', 'First Edition Promos');

function card(s: typeof FIRST, name: string, number: string | null): Card {
  const id = cardSlug({ game: GAME.id, set: s.name, name, rarity: 'Rare' });
  const c = { uuid: uuidV5(id), id, gameId: GAME.id, setId: s.id, name, number, rarity: 'Rare' };
  return { ...c, details: null, vendorId: null, opensetId: null, imagedbId: null, sealed: false };
}
function nm(c: Card): Variant {
  const id = variantSlug(c.id, { condition: 'Near Mint', printing: 'Normal', language: 'English' });
  const v = { uuid: uuidV5(id), id, cardUuid: c.uuid, type: 'raw' as const, condition: 'Near Mint' as const };
  return { ...v, grading: null, printing: 'Normal', language: 'English', vendorSkuId: null };
}

// Listed in the browse order the key must produce.
const ORDERED = [
  card(FIRST, 'One', '1'),
  card(FIRST, 'Two', '2'),
  card(FIRST, 'Two Alt', '2a'),
  card(FIRST, 'Ten', '10'),
  card(FIRST, 'Lettered', 'X5'),
  card(FIRST, 'Unnumbered', null),
  card(PROMOS, 'Promo Three', '3'),
];
const PRICES: Record<string, number> = { One: 500, Two: 500, Ten: 900, 'Promo Three': 100 };

describe('CardKeysetRepository (PostgreSQL)', () => {
  let ds: DataSource;
  let repo: CardKeysetRepository;
  const browse: KeysetQuery = {
    browse: { by: 'browse', gameId: GAME.id },
    filter: { includeNullPrices: true },
    region: 'NA',
    direction: 'desc',
  };
  const names = (uuids: string[]) => uuids.map((u) => ORDERED.find((c) => c.uuid === u)!.name);

  const walk = (query: KeysetQuery, limit: number) => walkKeyset(repo, query, limit);

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    repo = new CardKeysetRepository(ds);
    // Written out of order, so only the key can put them in order.
    const cards = [...ORDERED].reverse();
    await writeCatalogue(ds, { games: [GAME], sets: [PROMOS, FIRST], cards, variants: cards.map(nm) });
    await new PriceIngestRepository(ds).ingestSeries(
      ORDERED.filter((c) => PRICES[c.name] !== undefined).map((c) => ({
        variantUuid: nm(c).uuid,
        region: 'NA',
        source: 'simulated' as const,
        t: [1_790_000_000],
        p: [PRICES[c.name]!],
      })),
    );
    await refreshSummaries(ds); // as a load or an import does when it ends
  });

  it('browses by set, then card number read as a number, then its text, unnumbered last', async () => {
    const page = await repo.page(browse, 100);
    expect(names(page.rows.map((r) => r.cardUuid))).toEqual(ORDERED.map((c) => c.name));
    expect(page.more).toBe(false);
  });

  it('walks every card exactly once, in order, at any page size, forward and backward', async () => {
    for (const limit of [1, 2, 3, 6]) {
      expect(names(await walk(browse, limit))).toEqual(ORDERED.map((c) => c.name));
    }
    // Backward from past the last card, two at a time, gives the same cards in the same order.
    const last = await repo.page(browse, 100);
    let position = { key: last.rows.at(-1)!.key, backward: true };
    const back: string[] = [last.rows.at(-1)!.cardUuid];
    for (;;) {
      const page = await repo.page(browse, 2, position);
      back.unshift(...page.rows.map((r) => r.cardUuid));
      if (!page.more) break;
      position = { key: page.rows[0]!.key, backward: true };
    }
    expect(names(back)).toEqual(ORDERED.map((c) => c.name));
  });

  it('orders by price with ties broken by card id and unpriced cards last in both directions', async () => {
    const tie = ORDERED.filter((c) => c.name === 'One' || c.name === 'Two').map((c) => c.name);
    const [hi, lo] = ORDERED.filter((c) => tie.includes(c.name)).sort((a, b) => (a.uuid < b.uuid ? 1 : -1));
    const desc = names(await walk({ ...browse, orderBy: 'price' }, 2));
    expect(desc.slice(0, 4)).toEqual(['Ten', hi!.name, lo!.name, 'Promo Three']);
    const asc = names(await walk({ ...browse, orderBy: 'price', direction: 'asc' }, 2));
    expect(asc.slice(0, 4)).toEqual(['Promo Three', lo!.name, hi!.name, 'Ten']);
    for (const order of [desc, asc]) {
      expect(order.slice(4).sort()).toEqual(['Lettered', 'Two Alt', 'Unnumbered']);
      expect(new Set(order).size).toBe(ORDERED.length);
    }
    expect(names(await walk({ ...browse, orderBy: 'price', minPrice: 500 }, 1))).toEqual([
      'Ten',
      hi!.name,
      lo!.name,
    ]);
  });

  it('ranks a search by relevance, substring matches first, and pages through it', async () => {
    const query = { ...browse, browse: { ...browse.browse, q: 'two' } };
    expect(names(await walk(query, 1))).toEqual(['Two', 'Two Alt']);
  });

  it('counts the matches, and gives up with null when counting outlasts its budget', async () => {
    expect(await repo.count(browse, 1000)).toBe(ORDERED.length);
    expect(await repo.count({ ...browse, orderBy: 'price', minPrice: 500 }, 1000)).toBe(3);
    expect(await repo.count(browse, 0)).toBeNull();
    // Another transaction holds the table: the count waits, and the budget cancels it. (A search
    // counts over the cards; a browse's count reads views, which cannot be locked.)
    const search = { ...browse, browse: { ...browse.browse, q: 'two' } };
    const blocker = ds.createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    try {
      await blocker.query('LOCK TABLE cards IN ACCESS EXCLUSIVE MODE');
      expect(await repo.count(search, 200)).toBeNull();
    } finally {
      await blocker.rollbackTransaction();
      await blocker.release();
    }
    expect(await repo.count(browse, 1000)).toBe(ORDERED.length);
  });

  it('keeps the stored key right when a card is renumbered', async () => {
    const ten = ORDERED.find((c) => c.name === 'Ten')!;
    await ds.query(`UPDATE cards SET number = '0' WHERE uuid = $1`, [ten.uuid]);
    // A browse reads its order from the summaries, as refreshed after any write.
    await refreshSummaries(ds);
    try {
      expect(names((await repo.page(browse, 1)).rows.map((r) => r.cardUuid))).toEqual(['Ten']);
    } finally {
      await ds.query(`UPDATE cards SET number = '10' WHERE uuid = $1`, [ten.uuid]);
      await refreshSummaries(ds);
    }
  });
});

import { Card, cardSlug, uuidV5, Variant, variantSlug } from '@tcg/domain';
import { DataSource } from 'typeorm';
import { seriesCards, seriesRead, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { refreshSummaries } from '../summaries';
import { CardQueryRepository } from './card-query.repository';

const GAME = { id: 'paging-game', name: 'Paging Game' };
const SET = { uuid: uuidV5('set:paging-set'), id: 'paging-set', gameId: GAME.id, name: 'Paging Set' };
const CARDS: Card[] = ['1', '2', '3', '4', '5'].map((number) => {
  const id = cardSlug({ game: GAME.id, set: SET.name, name: `Card ${number}`, rarity: 'Common' });
  return {
    uuid: uuidV5(id),
    id,
    gameId: GAME.id,
    setId: SET.id,
    name: `Card ${number}`,
    number,
    rarity: 'Common',
    details: null,
    vendorId: null,
    opensetId: null,
    imagedbId: null,
    sealed: false,
  };
});
const VARIANTS: Variant[] = CARDS.map((c) => {
  const id = variantSlug(c.id, { condition: 'Near Mint', printing: 'Normal', language: 'English' });
  return {
    uuid: uuidV5(id),
    id,
    cardUuid: c.uuid,
    type: 'raw',
    condition: 'Near Mint',
    grading: null,
    printing: 'Normal',
    language: 'English',
    vendorSkuId: null,
  };
});

describe('CardQueryRepository pages (PostgreSQL)', () => {
  let ds: DataSource;
  let statements = 0;
  let repo: CardQueryRepository;
  const browse = { by: 'browse', gameId: GAME.id } as const;
  const filter = { includeNullPrices: true };
  const read = seriesRead({ stats: true, parts: [] });
  const page = async (offset: number, limit = 2) => {
    const { total, found } = await repo.findCards(
      browse,
      filter,
      { limit, offset },
      { direction: 'desc' },
      read,
    );
    return { total, cards: seriesCards(found) };
  };

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    // Every statement the repository runs goes through this target, which counts them.
    repo = new CardQueryRepository({
      read: (run) => {
        statements++;
        return run(ds);
      },
    });
    await writeCatalogue(ds, {
      games: [GAME],
      sets: [{ ...SET, code: 'P', releaseDate: null }],
      cards: CARDS,
      variants: VARIANTS,
    });
    // Which cards a browse returns is read from the summaries, as after any load or import.
    await refreshSummaries(ds);
  });

  it('answers a page past the end empty, with the total, in one statement', async () => {
    // Which summary region a browse reads is asked once and then remembered (TopRegions).
    await page(0);
    for (const offset of [5, 6, 1000]) {
      statements = 0;
      const { total, cards } = await page(offset);
      expect({ total, cards }).toEqual({ total: CARDS.length, cards: [] });
      expect(statements).toBe(1);
    }
  });

  it('pages past the first in order, counting in the page statement', async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < CARDS.length; offset += 2) {
      const { total, cards } = await page(offset);
      expect(total).toBe(CARDS.length);
      seen.push(...cards.map((c) => c.card.name));
    }
    expect(seen).toEqual(CARDS.map((c) => c.name));
    statements = 0;
    await page(2);
    // The page, then its cards and their variants side by side: no count.
    expect(statements).toBe(3);
  });

  it('answers an empty game empty at any offset', async () => {
    const none = { by: 'browse', gameId: 'no-such-game' } as const;
    const { total, found } = await repo.findCards(
      none,
      filter,
      { limit: 2, offset: 4 },
      { direction: 'desc' },
      read,
    );
    expect({ total, cards: seriesCards(found) }).toEqual({ total: 0, cards: [] });
  });
});

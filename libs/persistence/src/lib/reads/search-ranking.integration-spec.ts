import { Card, cardSlug, KeysetQuery, uuidV5, Variant, variantSlug } from '@tcg/domain';
import { DataSource } from 'typeorm';
import { seriesCards, seriesRead, useTestDatabase, walkKeyset } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { CardKeysetRepository } from './card-keyset.repository';
import { CardQueryRepository } from './card-query.repository';
import { refreshSummaries } from '../summaries';

const GAME = { id: 'rank-game', name: 'Rank Game' };
const SET = { uuid: uuidV5('set:rank-set'), id: 'rank-set', gameId: GAME.id, name: 'Rank Set' };
// In the catalogue's order; only relevance can put them in the order a user expects.
const NAMES = [
  'Chain Lightning',
  'Express Lightning (Red)',
  'Lightning',
  'Lightning Bolt',
  'Ligthning Strike',
];
const CARDS: Card[] = NAMES.map((name, i) => {
  const id = cardSlug({ game: GAME.id, set: SET.name, name, rarity: 'Common' });
  const c = {
    uuid: uuidV5(id),
    id,
    gameId: GAME.id,
    setId: SET.id,
    name,
    number: String(i + 1),
    rarity: 'Common',
  };
  return { ...c, details: null, vendorId: null, opensetId: null, imagedbId: null, sealed: false };
});
const VARIANTS: Variant[] = CARDS.map((c) => {
  const id = variantSlug(c.id, { condition: 'Near Mint', printing: 'Normal', language: 'English' });
  const v = { uuid: uuidV5(id), id, cardUuid: c.uuid, type: 'raw' as const, condition: 'Near Mint' as const };
  return { ...v, grading: null, printing: 'Normal', language: 'English', vendorSkuId: null };
});
const nameOf = (uuid: string) => CARDS.find((c) => c.uuid === uuid)!.name;

describe('search relevance (PostgreSQL)', () => {
  let ds: DataSource;

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    await writeCatalogue(ds, {
      games: [GAME],
      sets: [{ ...SET, code: 'RS', releaseDate: null }],
      cards: CARDS,
      variants: VARIANTS,
    });
    await refreshSummaries(ds);
  });

  // The name itself, then names starting with the text, then names containing it, then typos.
  // ('Ligthning Strike' is too far from any of these to match.)
  const EXPECTED = {
    lightning: ['Lightning', 'Lightning Bolt', 'Chain Lightning', 'Express Lightning (Red)'],
    lightn: ['Lightning', 'Lightning Bolt', 'Chain Lightning', 'Express Lightning (Red)'],
    // A typo: no name contains the text, every match is fuzzy.
    'lihgtning bolt': ['Lightning Bolt', 'Lightning'],
  };

  it.each(Object.entries(EXPECTED))(
    'v1 ranks a search for %s: exact, prefix, substring, fuzzy',
    async (q, expected) => {
      const repo = new CardQueryRepository({ read: (run) => run(ds) });
      const page = await repo.findCards(
        { by: 'browse', gameId: GAME.id, q },
        { includeNullPrices: true },
        { limit: 10, offset: 0 },
        { direction: 'desc' },
        seriesRead({ stats: false, parts: [] }),
      );
      expect(seriesCards(page.found).map((c) => c.card.name)).toEqual(expected);
    },
  );

  it.each(Object.entries(EXPECTED))(
    'v2 ranks a search for %s the same, page by page',
    async (q, expected) => {
      const repo = new CardKeysetRepository(ds);
      const query: KeysetQuery = {
        browse: { by: 'browse', gameId: GAME.id, q },
        filter: { includeNullPrices: true },
        region: 'NA',
        direction: 'desc',
      };
      expect((await walkKeyset(repo, query, 2)).map(nameOf)).toEqual(expected);
    },
  );
});

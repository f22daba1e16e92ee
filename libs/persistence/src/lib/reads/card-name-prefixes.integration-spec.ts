import { Card, CardSet, Game, uuidV5 } from '@tcg/domain';
import { DataSource } from 'typeorm';
import { useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { refreshSummaries } from '../summaries';
import { compile } from '../sql/compile';
import { namePrefixStatement, wordStartStatement } from './card-name-suggestions.read';

const GAMES: Game[] = [
  { id: 'test-magic', name: 'Test Magic' },
  { id: 'test-other', name: 'Test Other' },
];

const NAMES: [game: number, name: string, printings: number][] = [
  [0, 'Lightning Bolt', 3],
  [0, 'Bolas’s Citadel', 1],
  [0, 'Boltwing Marauder', 1],
  [0, 'Chain Lightning', 2],
  [0, 'Thing in the Ice', 1],
  [0, 'The Abyss', 1],
  [0, 'Jace, the Mind Sculptor', 2],
  [0, 'Will-o’-the-Wisp', 1],
  [0, '100% Pure', 1],
  [0, 'Bo', 1],
  [1, 'Bolt Thrower', 2],
  [1, 'Thunder Bolt', 1],
  [1, 'Lightning Bolt', 1],
  // More than 20 names starting "th": the cut at 20 must match too.
  ...Array.from({ length: 24 }, (_, i): [number, string, number] => [
    0,
    `Thorn ${String(i).padStart(2, '0')}`,
    1 + (i % 3),
  ]),
];

describe('card_name_prefixes (PostgreSQL): what is typed first, read precomputed', () => {
  let ds: DataSource;

  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });
  beforeAll(async () => {
    const sets: CardSet[] = GAMES.map((g) => ({
      uuid: uuidV5(`set:${g.id}`),
      id: `${g.id}-set`,
      gameId: g.id,
      name: 'Set',
      code: 'S',
      releaseDate: '2020-01-01',
    }));
    const cards: Card[] = NAMES.flatMap(([game, name, printings], n) =>
      Array.from({ length: printings }, (_, p) => {
        const id = `${sets[game]!.id}-${n}-${p}`;
        return {
          uuid: uuidV5(id),
          id,
          gameId: GAMES[game]!.id,
          setId: sets[game]!.id,
          name,
          number: `${n}.${p}`,
          rarity: null,
          details: null,
          vendorId: null,
          opensetId: null,
          imagedbId: null,
          sealed: false,
        };
      }),
    );
    await writeCatalogue(ds, { games: GAMES, sets, cards, variants: [] });
    await refreshSummaries(ds);
  });

  const rows = (statement: Parameters<typeof compile>[0]) => {
    const { sql, parameters } = compile(statement);
    return ds.query(sql, [...parameters]) as Promise<unknown[]>;
  };

  it('answers every text of 2 to 5 characters as the word-start index does, per game and for all, cut at the limit', async () => {
    const texts = new Set<string>(['zz', '10', '0%', 'o’', 'BO', 'Th']);
    for (const [, name] of NAMES)
      for (const word of name.toLowerCase().split(/[ \-/("',]+/))
        for (const length of [2, 3, 4, 5])
          if ([...word].length >= length) texts.add([...word].slice(0, length).join(''));
    let compared = 0;
    for (const text of texts)
      for (const gameId of [undefined, 'test-magic', 'test-other'])
        for (const limit of [20, 5]) {
          const query = { text, gameId, limit };
          expect({ text, gameId, limit, rows: await rows(namePrefixStatement(query)) }).toEqual({
            text,
            gameId,
            limit,
            rows: await rows(wordStartStatement(query)),
          });
          compared++;
        }
    expect(compared).toBeGreaterThan(100);
    const th = (await rows(namePrefixStatement({ text: 'th', limit: 20 }))) as { name: string }[];
    expect(th).toHaveLength(20);
    expect(compile(namePrefixStatement({ text: 'th', limit: 20 })).sql).toContain('card_name_prefixes');
    expect(compile(namePrefixStatement({ text: 'thorn', limit: 20 })).sql).toContain('card_name_prefixes');
    expect(compile(namePrefixStatement({ text: 'thorn ', limit: 20 })).sql).toContain('card_name_words');
  });
});

import { Card, CardSet, Game, uuidV5 } from '@tcg/domain';
import { refreshSummaries, writeCatalogue } from '@tcg/persistence';
import { truncateAll, withTestDatabase } from '@tcg/persistence/testing';
import { card } from './fixtures';
import { fetchWithKey } from './http';
import { newKey } from './keys';
import { startStack, Stack } from './stack';

interface Suggestion {
  name: string;
  game_id: string;
  cards_count: number;
  match: 'prefix' | 'similar';
}

const MAGIC: Game = { id: 'test-magic', name: 'Test Magic' };
const OTHER: Game = { id: 'test-other', name: 'Test Other' };

function set(game: Game, name: string): CardSet {
  const id = `${game.id}-${name.toLowerCase().replace(/\W+/g, '-')}`;
  return {
    uuid: uuidV5(`set:${id}`),
    id,
    gameId: game.id,
    name,
    code: name.slice(0, 3),
    releaseDate: '2020-01-01',
  };
}

const named = (s: CardSet, name: string, number: string): Card => card(name, number, {}, s);

const ALPHA = set(MAGIC, 'Alpha');
const BETA = set(MAGIC, 'Beta');
const FIRST = set(OTHER, 'First');

const CARDS = [
  named(ALPHA, 'Lightning Bolt', '1'),
  named(BETA, 'Lightning Bolt', '1'),
  named(ALPHA, 'Bolas’s Citadel', '2'),
  named(ALPHA, 'Boltwing Marauder', '3'),
  named(ALPHA, 'Chain Lightning', '4'),
  named(ALPHA, 'Counterspell', '5'),
  named(ALPHA, 'Jace, the Mind Sculptor', '6'),
  named(ALPHA, '100% Pure', '7'),
  named(FIRST, 'Bolt Thrower', '1'),
];

describe('GET /v1/cards/autocomplete through the gateway', () => {
  let stack: Stack;
  let key: string;

  beforeAll(async () => {
    await withTestDatabase(async (ds) => {
      await truncateAll(ds);
      await writeCatalogue(ds, {
        games: [MAGIC, OTHER],
        sets: [ALPHA, BETA, FIRST],
        cards: CARDS,
        variants: [],
      });
      await refreshSummaries(ds);
    });
    stack = await startStack();
    key = await newKey('starter');
  });
  afterAll(async () => {
    await stack.close();
  });

  const get = (query: string, k: string | null = key) =>
    fetchWithKey(`${stack.gatewayUrl}/v1/cards/autocomplete?${query}`, k);
  const names = async (query: string): Promise<Suggestion[]> => {
    const res = await get(query);
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: Suggestion[] }).data;
  };

  it('suggests names a word of which starts with the text, those more cards carry first', async () => {
    const got = await names('q=bol&game=test-magic');
    // Lightning Bolt's two printings first; then, of one card each, the names that start with it.
    expect(got.map((s) => s.name)).toEqual(['Lightning Bolt', 'Bolas’s Citadel', 'Boltwing Marauder']);
    expect(got.every((s) => s.match === 'prefix' && s.game_id === 'test-magic')).toBe(true);
    // Two cards carry the name; it is one suggestion.
    expect(got.find((s) => s.name === 'Lightning Bolt')?.cards_count).toBe(2);
  });

  it('finds a name from a typo, after every prefix match', async () => {
    const got = await names('q=lightnin%20blot');
    expect(got[0]).toMatchObject({ name: 'Lightning Bolt', match: 'similar', cards_count: 2 });
    expect((await names('q=Jace%20the%20mind%20sculpter'))[0]?.name).toBe('Jace, the Mind Sculptor');
    // A prefix that exists is never ranked after a mere likeness.
    const lightning = await names('q=LIGHTNING');
    expect(lightning.slice(0, 2).map((s) => s.name)).toEqual(['Lightning Bolt', 'Chain Lightning']);
    expect(lightning.slice(0, 2).every((s) => s.match === 'prefix')).toBe(true);
  });

  it("returns every game's names without `game`, one game's with it, and at most `limit`", async () => {
    const all = await names('q=bolt');
    expect(all.map((s) => [s.name, s.game_id])).toEqual(
      expect.arrayContaining([
        ['Bolt Thrower', 'test-other'],
        ['Lightning Bolt', 'test-magic'],
      ]),
    );
    expect((await names('q=bolt&game=Test%20Other')).map((s) => s.name)).toEqual(['Bolt Thrower']);
    expect(await names('q=bol&limit=1')).toHaveLength(1);
  });

  it('takes LIKE wildcards as the characters they are', async () => {
    expect((await names('q=100%25')).map((s) => s.name)).toEqual(['100% Pure']);
    expect((await names('q=__&game=test-magic')).filter((s) => s.match === 'prefix')).toEqual([]);
  });

  it('answers a bad request with a 400 naming the parameter, and no key with a 401', async () => {
    for (const [query, parameter] of [
      ['', 'q'],
      ['q=b', 'q'],
      ['q=%20%20b%20', 'q'],
      [`q=${'a'.repeat(65)}`, 'q'],
      ['q=bol&limit=21', 'limit'],
      ['q=bol&limit=0', 'limit'],
      ['q=bol&game=nope', 'game'],
    ]) {
      const res = await get(query!);
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: string; code: string };
      expect(body.code).toBe('INVALID_REQUEST');
      expect(body.error).toContain(`'${parameter}'`);
    }
    expect((await get('q=bol', null)).status).toBe(401);
  });

  it('is metered like any request', async () => {
    const before = (await (await get('q=bol')).json()) as { _metadata: { apiRequestsUsed: number } };
    const after = (await (await get('q=bolt')).json()) as { _metadata: { apiRequestsUsed: number } };
    expect(after._metadata.apiRequestsUsed).toBe(before._metadata.apiRequestsUsed + 1);
  });

  it('suggests a card written after the index was built once the summaries are refreshed', async () => {
    expect(await names('q=fireb')).toEqual([]);
    await withTestDatabase(async (ds) => {
      await writeCatalogue(ds, {
        games: [MAGIC],
        sets: [ALPHA],
        cards: [named(ALPHA, 'Fireball', '8')],
        variants: [],
      });
      await refreshSummaries(ds);
    });
    expect((await names('q=fireb')).map((s) => s.name)).toEqual(['Fireball']);
  });
});

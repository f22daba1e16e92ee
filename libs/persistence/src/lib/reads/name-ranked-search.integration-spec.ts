import { Card, uuidV5, Variant, type VariantFilter } from '@tcg/domain';
import { DataSource } from 'typeorm';
import { gradedVariant, grading, rawVariant, testCard, useTestDatabase } from '../../testing';
import { writeCatalogue } from '../catalogue';
import { PriceIngestRepository } from '../prices';
import { refreshSummaries } from '../summaries';
import { readAcceptedKinds } from './accepted-kinds.read';
import { firstCardPage } from './card-first-page.read';
import { nameRankedCardPage } from './card-name-ranked-page.read';
import { readCardPage } from './card-page';
import { cardPagePlan } from './card-page-plan';
import { rankedCardPage } from './card-ranked-page.read';

// Names repeated across two games and three sets, as a marketplace's reprints are, with ties in
// relevance (several names contain a word whole) and typos' fuzzy matches.
const NAMES = [
  'Shivan Dragon',
  'Dragon Whelp',
  'Dragon Egg',
  'Ancient Dragon Tooth',
  'Dragonlord Ojutai',
  'Lord of the Pit',
  'Hymn of the Wilds',
  'Dargon Scout',
  'Elder Dragon',
  'Storm of Dragons',
];
const GAMES = [
  { id: 'name-game-a', name: 'Name Game A' },
  { id: 'name-game-b', name: 'Name Game B' },
];
const SETS = GAMES.flatMap((g) =>
  ['One', 'Two', 'Three'].map((s, i) => ({
    uuid: uuidV5(`set:${g.id}-${s}`),
    id: `${g.id}-${s.toLowerCase()}`,
    gameId: g.id,
    name: `Set ${s}`,
    code: `${s.slice(0, 2).toUpperCase()}${g.id.slice(-1)}`,
    releaseDate: `202${i}-01-01`,
  })),
);
const CARDS: Card[] = SETS.flatMap((set, si) =>
  NAMES.filter((_, ni) => (ni + si) % 4 !== 0).map((name, ni) => testCard(set, name, String(ni + 1))),
);
// Every third card has no variant at all; the others a Near Mint raw one, every other one also a
// foil Lightly Played one and a graded one.
const VARIANTS: Variant[] = CARDS.flatMap((c, i) =>
  i % 3 === 2
    ? []
    : i % 2 === 0
      ? [
          rawVariant(c, 'Near Mint', 'Normal', 'English'),
          rawVariant(c, 'Lightly Played', 'Foil', 'English'),
          gradedVariant(c, grading('PSA', 10)),
        ]
      : [rawVariant(c, 'Near Mint', 'Normal', 'English')],
);

describe('search ranked by name: the same pages as the search of the cards (PostgreSQL)', () => {
  let ds: DataSource;
  useTestDatabase((opened) => (ds = opened), { truncate: 'once' });

  beforeAll(async () => {
    await writeCatalogue(ds, { games: GAMES, sets: SETS, cards: CARDS, variants: VARIANTS });
    // Only some variants priced in NA: a priced-only search keeps fewer cards than the rest.
    await new PriceIngestRepository(ds).ingest(
      VARIANTS.filter((_, i) => i % 4 !== 1).map((v, i) => ({
        variantUuid: v.uuid,
        region: 'NA',
        t: 1_700_000_000,
        price: 100 + i,
      })),
    );
    await refreshSummaries(ds);
  });

  const FILTERS: VariantFilter[] = [
    { includeNullPrices: true },
    { includeNullPrices: true, conditions: ['Lightly Played'] },
    { includeNullPrices: false, printings: ['foil'] },
    { includeNullPrices: true, graded: 'only' },
  ];
  const CASES = ['dragon', 'of', 'lord', 'dargon', 'drag', 'the wilds', 'nothing like it'].flatMap((q) =>
    FILTERS.flatMap((filter) =>
      [undefined, GAMES[1]!.id].flatMap((gameId) =>
        [
          { limit: 3, offset: 0 },
          { limit: 4, offset: 5 },
          { limit: 5, offset: 200 },
        ].map((range) => ({ q, filter, gameId, range })),
      ),
    ),
  );

  it('is the plan of a search by text, or within a game, in relevance order', async () => {
    const filter = await readAcceptedKinds(ds, { includeNullPrices: true });
    const plan = (selector: object, order = { direction: 'desc' as const }) =>
      cardPagePlan({ selector: { by: 'browse', ...selector }, filter, region: 'NA', order });
    expect(plan({ q: 'dragon' }).named).toBeDefined();
    expect(plan({ q: 'dragon', gameId: GAMES[0]!.id }).named).toBeDefined();
    // Within a set, sorted by price, or priced-only in card_values' scope (one probe a card), the
    // cards are searched one by one, as before.
    const priced = await readAcceptedKinds(ds, { includeNullPrices: false });
    expect(
      cardPagePlan({
        selector: { by: 'browse', q: 'dragon' },
        filter: priced,
        region: 'NA',
        order: { direction: 'desc' },
      }).named,
    ).toBeUndefined();
    expect(plan({ q: 'dragon', setId: SETS[0]!.id }).named).toBeUndefined();
    expect(plan({ q: 'dragon' }, { by: 'price', direction: 'desc' } as never).named).toBeUndefined();
  });

  it(`finds the same cards, in the same order, with the same total (${CASES.length} searches)`, async () => {
    let nonEmpty = 0;
    for (const { q, filter: unresolved, gameId, range } of CASES) {
      const filter = await readAcceptedKinds(ds, unresolved);
      const plan = cardPagePlan({
        selector: { by: 'browse', q, gameId },
        filter,
        region: 'NA',
        order: { direction: 'desc' },
      });
      const byCard = await readCardPage(
        ds,
        range.offset === 0 ? firstCardPage(plan, range) : rankedCardPage(plan, range),
      );
      const byName = await readCardPage(ds, nameRankedCardPage(plan.named!, range));
      const label = JSON.stringify({ q, unresolved, gameId, range });
      expect({ label, uuids: byName.uuids }).toEqual({ label, uuids: byCard.uuids });
      // A card search's first page that finds nothing carries no count; the name ranking says 0.
      expect({ label, total: byName.total }).toEqual({ label, total: byCard.total ?? 0 });
      if (byCard.uuids.length > 0) nonEmpty += 1;
    }
    // The cases reach pages with cards, not only empty ones.
    expect(nonEmpty).toBeGreaterThan(CASES.length / 3);
  });
});

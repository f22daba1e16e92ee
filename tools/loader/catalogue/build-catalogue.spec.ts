import { cardSlug, isUuid, uuidV5, variantSlug, type Variant } from '@tcg/domain';
import {
  buildCatalogue,
  CATALOGUE_SIZES,
  isCatalogueSize,
  type Catalogue,
  type CatalogueSize,
} from './index';
import { variantId } from './fast-ids';

const catalogues = new Map<CatalogueSize, Catalogue>();
function catalogue(size: CatalogueSize): Catalogue {
  let c = catalogues.get(size);
  if (!c) catalogues.set(size, (c = buildCatalogue(size)));
  return c;
}

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup: string[] = [];
  for (const v of values) {
    if (seen.has(v)) dup.push(v);
    seen.add(v);
  }
  return dup;
}

/** Invariants every size must satisfy; returns nothing, fails with the first offenders listed. */
function checkInvariants(c: Catalogue): void {
  expect(c.games.map((g) => g.id)).toEqual(['magic-the-gathering', 'flesh-and-blood']);

  // identity: slugs and UUIDs unique across the whole catalogue, UUIDs = v5 of the slug
  expect(duplicates(c.sets.map((s) => s.id))).toEqual([]);
  expect(duplicates(c.cards.map((x) => x.id))).toEqual([]);
  expect(duplicates(c.variants.map((v) => v.id))).toEqual([]);
  expect(
    duplicates([
      ...c.sets.map((s) => s.uuid),
      ...c.cards.map((x) => x.uuid),
      ...c.variants.map((v) => v.uuid),
    ]),
  ).toEqual([]);
  expect(duplicates(c.variants.flatMap((v) => (v.vendorSkuId ? [v.vendorSkuId] : [])))).toEqual([]);
  for (const s of c.sets) {
    expect(s.uuid).toBe(uuidV5(`set:${s.id}`));
    expect(s.id.startsWith(`${s.gameId}-`)).toBe(true);
    expect(s.releaseDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }

  const setIds = new Set(c.sets.map((s) => s.id));
  const cardByUuid = new Map(c.cards.map((x) => [x.uuid, x]));
  const badCards = c.cards.filter(
    (x) =>
      !setIds.has(x.setId) ||
      !x.id.startsWith(`${x.setId}-`) ||
      !isUuid(x.uuid) ||
      !Number.isInteger(x.valueTier) ||
      x.valueTier < 0 ||
      x.imagedbId !== null ||
      (x.sealed ? x.rarity !== 'Sealed' || x.number !== null : x.rarity === 'Sealed'),
  );
  expect(badCards.slice(0, 5)).toEqual([]);
  const cardsWithVariants = new Set(c.variants.map((v) => v.cardUuid));
  expect(c.cards.filter((x) => !cardsWithVariants.has(x.uuid)).slice(0, 5)).toEqual([]);

  const badVariants: Variant[] = [];
  for (const v of c.variants) {
    const card = cardByUuid.get(v.cardUuid);
    const ok =
      card !== undefined &&
      v.id.startsWith(`${card.id}_`) &&
      !/ - /.test(v.printing) &&
      (v.type === 'raw'
        ? v.condition !== null &&
          v.grading === null &&
          (card.sealed ? v.condition === 'Sealed' && v.printing === 'Normal' : v.condition !== 'Sealed')
        : v.condition === null &&
          v.grading !== null &&
          !card.sealed &&
          v.language === 'English' &&
          v.vendorSkuId === null) &&
      (card.gameId === 'magic-the-gathering'
        ? v.vendorSkuId === null
        : (v.vendorSkuId === null) === (card.vendorId === null || v.type === 'graded'));
    if (!ok) badVariants.push(v);
  }
  expect(badVariants.slice(0, 5)).toEqual([]);
}

describe('buildCatalogue', () => {
  it('knows its sizes', () => {
    expect(Object.keys(CATALOGUE_SIZES)).toEqual(['small', 'medium', 'full']);
    expect(isCatalogueSize('medium')).toBe(true);
    expect(isCatalogueSize('huge')).toBe(false);
  });

  it('is deterministic: two builds are equal', () => {
    expect(buildCatalogue('small')).toEqual(catalogue('small'));
  });

  it.each(['small', 'medium'] as const)(
    '%s: unique slugs and UUIDs, raw/graded/sealed rules hold',
    (size) => {
      checkInvariants(catalogue(size));
    },
  );

  it('full: the same invariants over every set of both games', () => {
    const c = catalogue('full');
    checkInvariants(c);
    expect(c.variants.length).toBeGreaterThan(500_000);
    expect(c.sets.filter((s) => s.gameId === 'magic-the-gathering')).toHaveLength(196); // 202 minus 6 Magic Online-only
    catalogues.delete('full');
  });

  it('carries real set names and release dates', () => {
    const c = catalogue('medium');
    const byCode = new Map(c.sets.map((s) => [`${s.gameId}:${s.code}`, s]));
    expect(byCode.get('magic-the-gathering:AER')).toMatchObject({
      id: 'magic-the-gathering-aether-revolt',
      name: 'Aether Revolt',
      releaseDate: '2017-01-20',
    });
    expect(byCode.get('magic-the-gathering:LEA')).toMatchObject({
      name: 'Limited Edition Alpha',
      releaseDate: '1993-08-05',
    });
    expect(byCode.get('flesh-and-blood:WTR')).toMatchObject({
      id: 'flesh-and-blood-welcome-to-rathe',
      name: 'Welcome to Rathe',
      releaseDate: '2019-10-11',
    });
    expect(byCode.get('flesh-and-blood:OUT')).toMatchObject({ name: 'Outsiders', releaseDate: '2023-03-24' });
  });

  it('builds card slugs as game-set-name-rarity, numbered only on a collision', () => {
    const c = catalogue('small');
    const lotus = c.cards.find((x) => x.id === 'magic-the-gathering-limited-edition-alpha-black-lotus-rare');
    expect(lotus).toMatchObject({
      name: 'Black Lotus',
      rarity: 'Rare',
      vendorId: null,
      imagedbId: null,
      details: 'Artifact',
    });
    expect(lotus?.opensetId).toMatch(/^[0-9a-f]{40}$/);
    expect(lotus?.uuid).toBe(uuidV5(lotus!.id));
    // Alpha has two Forests with no number: ordinals
    const forests = c.cards.filter(
      (x) => x.setId === 'magic-the-gathering-limited-edition-alpha' && x.name === 'Forest',
    );
    expect(forests.map((x) => x.id)).toEqual([
      'magic-the-gathering-limited-edition-alpha-forest-basic-land-1',
      'magic-the-gathering-limited-edition-alpha-forest-basic-land-2',
    ]);
    // Aether Revolt cards are unique by name and rarity, so none carries a number
    const aer = c.cards.filter((x) => x.setId === 'magic-the-gathering-aether-revolt' && !x.sealed);
    for (const x of aer)
      expect(x.id).toBe(
        cardSlug({ game: 'magic-the-gathering', set: 'Aether Revolt', name: x.name, rarity: x.rarity! }),
      );
  });

  it('gives Flesh and Blood cards their marketplace product, printings and synthetic SKUs', () => {
    const c = catalogue('small');
    const heart = c.cards.find((x) => x.gameId === 'flesh-and-blood' && x.name === 'Heart of Fyendal');
    expect(heart).toMatchObject({ number: 'WTR000', rarity: 'Fabled', vendorId: '225013', opensetId: null });
    const variants = c.variants.filter((v) => v.cardUuid === heart!.uuid);
    expect([...new Set(variants.map((v) => v.printing))]).toEqual([
      'Unlimited Edition Rainbow Foil',
      '1st Edition Cold Foil',
    ]);
    const nm = variants.find(
      (v) => v.type === 'raw' && v.condition === 'Near Mint' && v.printing === '1st Edition Cold Foil',
    );
    expect(nm?.vendorSkuId).toBe('225013010200'); // product 225013, NM 01, 2nd printing 02, English 00
    expect(
      variants.filter((v) => v.type === 'graded').every((v) => v.printing === '1st Edition Cold Foil'),
    ).toBe(true);
    // red/yellow/blue versions of a card are separate products named with their colour
    expect(c.cards.filter((x) => x.name.startsWith('Snatch (')).map((x) => x.name)).toEqual([
      'Snatch (Red)',
      'Snatch (Yellow)',
      'Snatch (Blue)',
    ]);
  });

  it('adds non-English variants only to rare Magic and Majestic-or-better FaB booster cards', () => {
    const c = catalogue('small');
    const cardByUuid = new Map(c.cards.map((x) => [x.uuid, x]));
    const foreign = c.variants.filter((v) => v.language !== 'English');
    expect(foreign.length).toBeGreaterThan(0);
    const rarities = new Set(foreign.map((v) => cardByUuid.get(v.cardUuid)!.rarity));
    for (const r of rarities)
      expect(['Rare', 'Mythic Rare', 'Majestic', 'Legendary', 'Fabled', 'Marvel']).toContain(r);
    expect(foreign.every((v) => v.type === 'raw')).toBe(true);
    // Alpha was English only
    const alphaUuids = new Set(
      c.cards.filter((x) => x.setId === 'magic-the-gathering-limited-edition-alpha').map((x) => x.uuid),
    );
    expect(foreign.some((v) => alphaUuids.has(v.cardUuid))).toBe(false);
  });

  it('has sealed products per set', () => {
    const c = catalogue('small');
    expect(c.cards.filter((x) => x.sealed).map((x) => x.name)).toEqual([
      'Limited Edition Alpha Booster Pack',
      'Limited Edition Alpha Booster Box',
      'From the Vault: Realms',
      'Aether Revolt Booster Pack',
      'Aether Revolt Booster Box',
      'Aether Revolt Bundle',
      'Welcome to Rathe Booster Pack',
      'Welcome to Rathe Booster Box',
      'Outsiders Booster Pack',
      'Outsiders Booster Box',
    ]);
  });
});

describe('bulk id helpers', () => {
  it('match the domain functions exactly', () => {
    const c = catalogue('small');
    for (const v of c.variants.filter((_, i) => i % 97 === 0)) {
      const cardId = v.id.slice(0, v.id.indexOf('_'));
      const expected =
        v.type === 'raw'
          ? variantSlug(cardId, { printing: v.printing, language: v.language, condition: v.condition })
          : variantSlug(cardId, { printing: v.printing, language: v.language, grading: v.grading });
      const actual =
        v.type === 'raw'
          ? variantId(cardId, { printing: v.printing, language: v.language, condition: v.condition })
          : variantId(cardId, { printing: v.printing, language: v.language, grading: v.grading });
      expect(actual).toBe(expected);
      expect(v.id).toBe(expected);
      expect(v.uuid).toBe(uuidV5(expected));
    }
  });
});

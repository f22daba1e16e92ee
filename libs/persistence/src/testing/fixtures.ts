import {
  Card,
  CardSet,
  cardSlug,
  Condition,
  Game,
  GradedVariant,
  Grading,
  Language,
  NewAlert,
  RawVariant,
  uuidV5,
  Variant,
  variantSlug,
} from '@tcg/domain';

/** A card of `set`, rarity Rare, no identifiers beyond its own unless `extra` gives them. */
export function testCard(
  set: Pick<CardSet, 'id' | 'gameId' | 'name'>,
  name: string,
  number: string | null,
  extra: Partial<Card> = {},
): Card {
  const id = cardSlug({ game: set.gameId, set: set.name, name, rarity: 'Rare' });
  return {
    uuid: uuidV5(id),
    id,
    gameId: set.gameId,
    setId: set.id,
    name,
    number,
    rarity: 'Rare',
    details: null,
    vendorId: null,
    opensetId: null,
    imagedbId: null,
    sealed: false,
    ...extra,
  };
}

type VariantIdentity = Pick<Variant, 'uuid' | 'id' | 'cardUuid'>;
/** What a variant is besides its identity: its kind, condition or grade, printing, language, SKU. */
type VariantFields = Omit<RawVariant, keyof VariantIdentity> | Omit<GradedVariant, keyof VariantIdentity>;

/** A variant of `c` with these fields, its uuid from its slug. */
function variantOf<F extends VariantFields>(c: Card, fields: F): VariantIdentity & F {
  const id = variantSlug(c.id, fields);
  return { uuid: uuidV5(id), id, cardUuid: c.uuid, ...fields };
}

/** A raw variant of `c`, its uuid from its slug. */
export function rawVariant(
  c: Card,
  condition: Condition,
  printing: string,
  language: Language,
  sku: string | null = null,
): RawVariant {
  return variantOf(c, {
    type: 'raw',
    condition,
    grading: null,
    printing,
    language,
    vendorSkuId: sku,
  });
}

/** A graded variant of `c`, its uuid from its slug. */
export function gradedVariant(
  c: Card,
  grading: Grading,
  printing = 'Normal',
  language: Language = 'English',
): GradedVariant {
  return variantOf(c, {
    type: 'graded',
    condition: null,
    grading,
    printing,
    language,
    vendorSkuId: null,
  });
}

export function grading(
  company: Grading['company'],
  grade: number | null,
  gradeLabel: string | null = null,
  qualifier: string | null = null,
): Grading {
  return { company, grade, gradeLabel, qualifier };
}

/** A tiny hand-made catalogue for integration tests: one game, one set, one card, two variants. */
export function tinyCatalogue(): { games: Game[]; sets: CardSet[]; cards: Card[]; variants: Variant[] } {
  const game: Game = { id: 'test-game', name: 'Test Game' };
  const setId = 'test-game-first-edition';
  const set: CardSet = {
    uuid: uuidV5(`set:${setId}`),
    id: setId,
    gameId: game.id,
    name: 'First Edition',
    code: 'FE',
    releaseDate: '2020-01-31',
  };
  const card = testCard(set, 'Test Dragon', '7', { vendorId: '1007' });
  const variants: Variant[] = [
    rawVariant(card, 'Near Mint', 'Normal', 'English', 'SKU-NM'),
    gradedVariant(card, grading('PSA', 10)),
  ];
  return { games: [game], sets: [set], cards: [card], variants };
}

/** A price of `variant` in minor units, observed at `t` (Unix seconds) in `region`, as an import brings it. */
export function observed(variant: Pick<Variant, 'uuid'>, t: number, price: number, region = 'NA') {
  return { variantUuid: variant.uuid, region, t, price };
}

/**
 * An alert to create in the US market (USD, its prices stored as NA's): a price above 10.00 sent
 * to a hook on example.com, unless `alert` says otherwise.
 */
export function testAlert(
  alert: Pick<NewAlert, 'keyId' | 'cardUuid' | 'variantUuid' | 'secret'> & Partial<NewAlert>,
): NewAlert {
  return {
    market: 'US',
    storageRegion: 'NA',
    currency: 'USD',
    rule: 'price_above',
    threshold: 1000,
    url: 'https://hooks.example.com/a',
    ...alert,
  };
}

/** Noon (UTC) on 1 November 2026: "now" for the suites of the bulk files. */
export const BULK_NOW = Date.UTC(2026, 10, 1, 12) / 1000;

/**
 * The NA prices of `nm` (the tiny catalogue's Near Mint variant of `card`) that the bulk suites
 * import: 9.00 eight days before BULK_NOW, 11.00 the day before, 12.00 at it; and the line of the
 * history file that those prices make (the days between repeat nothing: null).
 */
export function nmPriceSteps(card: Card, nm: Variant) {
  return {
    prices: [-8, -1, 0].map((d, i) => observed(nm, BULK_NOW + d * 86_400, [900, 1100, 1200][i]!)),
    historyLine: {
      card_id: card.id,
      variant_id: nm.id,
      variant_uuid: nm.uuid,
      region: 'NA',
      currency: 'USD',
      from: '2026-10-24',
      prices: [9, null, null, null, null, null, null, 11, 12],
    },
  };
}

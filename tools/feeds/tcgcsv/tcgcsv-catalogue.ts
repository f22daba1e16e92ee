import { minorUnitsPerMajor, slugify, uuidV5, type Card, type CardSet, type Variant } from '@tcg/domain';
import type { CardChange, IndexedCard, IndexedSet } from '@tcg/persistence';
import { RAW_CONDITIONS, rawVariant } from '../../loader/catalogue/build-catalogue';
import { CatalogueIds } from '../catalogue-ids';
import type { RunCounts } from '../run-counts';
import type { TcgcsvGroup, TcgcsvPrice, TcgcsvProduct } from './tcgcsv-documents';

/** A group named after a set and an edition: `Welcome to Rathe Unlimited`, `Arcane Rising (1st Edition)`. */
const EDITION_GROUP = /^(.+?)[\s:-]+\(?(?:unlimited(?: edition)?|1st edition|first edition)\)?$/i;

/**
 * A card by set, collector number and name, compared without case or punctuation; the number
 * without the `U-` the Flesh and Blood data puts before Unlimited printings' identifiers.
 */
function editionKey(setUuid: string, number: string, name: string): string {
  const plain = (t: string) => t.toLowerCase().replace(/[^a-z0-9]+/g, '');
  return `${setUuid}|${plain(number.replace(/^u-/i, ''))}|${plain(name)}`;
}

/** A series stores minor units as 32-bit integers. */
const MAX_MINOR_UNITS = 2 ** 31 - 1;

/** What one group of one day adds to the catalogue and its prices. */
export interface GroupWrite {
  /** New sets, and the stored sets of new cards (the writer finds a card's set among those it is given). */
  readonly sets: Map<string, CardSet>;
  readonly cards: Card[];
  /** Stored sealed products that take the product id of the TCGCSV product of their name. */
  readonly changes: CardChange[];
  /** Every variant the day's printings need; the stored ones are filtered out before writing. */
  readonly variants: Variant[];
  /** One Near Mint (sealed: Sealed) observation per priced printing, USD cents. */
  readonly observations: { variantUuid: string; cardUuid: string; price: number }[];
  /** The card each product of the group is (the id crosswalk's `tcgplayer_product` assertions). */
  readonly products: { cardUuid: string; productId: string }[];
}

/**
 * A game's catalogue as the TCGCSV sync maps onto it: a product is a card by its TCGplayer product
 * id (`cards.vendor_id`), whichever feed or load created it (Flesh and Blood's packaged cards carry
 * theirs); a group is the set that holds most of its matched products, else the set of its
 * abbreviation, else of its name, else a new set. A product no card holds becomes a new card of
 * its group's set (a sealed product a sealed card). A price row names a printing (`subTypeName`):
 * the card gets that printing's variants (English, every condition) and its market price becomes
 * the Near Mint variant's observation of the day. Nothing else is inferred: the dump has no
 * condition or language.
 */
export class TcgcsvCatalogue {
  private readonly byProduct = new Map<string, IndexedCard>();
  private readonly setsByCode = new Map<string, IndexedSet>();
  private readonly setsByName = new Map<string, IndexedSet>();
  private readonly setsByUuid = new Map<string, IndexedSet>();
  /** Stored sealed products without a product id (the packaged games' boosters and boxes), by set and name. */
  private readonly sealedByName = new Map<string, IndexedCard>();
  private readonly ids: CatalogueIds;
  /**
   * Stored cards by set, collector number and name: where a group is another edition of a stored
   * set (`<set> Unlimited`), its products are that set's cards under another product id.
   */
  private readonly bySetNumberName = new Map<string, IndexedCard | null>();
  /** Sets made for groups no stored set stood for. */
  setsCreated = 0;
  /** Products of an edition's group taken as the stored card they are another edition of. */
  editionsMerged = 0;

  constructor(
    private readonly gameId: string,
    sets: readonly IndexedSet[],
    cards: readonly IndexedCard[],
    /**
     * Every game's slugs (default: this game's): a new set or card never takes another game's. A
     * sync shares one instance across its categories, so the slugs are read once, not per category.
     */
    taken: CatalogueIds = new CatalogueIds(
      sets.map((s) => s.id),
      cards.map((c) => c.id),
    ),
  ) {
    this.ids = taken;
    for (const s of sets) this.addSet(s);
    for (const c of cards) {
      if (c.vendorId && !this.byProduct.has(c.vendorId)) this.byProduct.set(c.vendorId, c);
      else if (!c.vendorId && c.sealed) this.sealedByName.set(`${c.setUuid}|${c.name.toLowerCase()}`, c);
      if (c.vendorId && c.number && !c.sealed) {
        const key = editionKey(c.setUuid, c.number, c.name);
        // Two cards alike: neither is taken for another edition's product.
        this.bySetNumberName.set(key, this.bySetNumberName.has(key) ? null : c);
      }
    }
  }

  /** Maps one group's products and prices of `day` (Unix seconds of its UTC midnight). */
  group(
    group: TcgcsvGroup | { groupId: number; name: null },
    products: readonly TcgcsvProduct[],
    prices: readonly TcgcsvPrice[],
    counts: RunCounts,
  ): GroupWrite {
    const write: GroupWrite = {
      sets: new Map(),
      cards: [],
      changes: [],
      variants: [],
      observations: [],
      products: [],
    };
    counts.rowsRead += products.length + prices.length;
    let set: IndexedSet | undefined;
    const setOfGroup = (): IndexedSet | undefined => (set ??= this.setFor(group, products));
    const edition = this.editionOf(group);
    for (const product of products) {
      const stored = this.byProduct.get(String(product.productId));
      if (stored) {
        write.products.push({ cardUuid: stored.uuid, productId: String(product.productId) });
        counts.matched++;
        continue;
      }
      const same =
        edition && product.number
          ? this.bySetNumberName.get(editionKey(edition.uuid, product.number, product.name))
          : undefined;
      if (same) {
        // Flesh and Blood's Unlimited products on TCGplayer: the packaged card, not a second one.
        this.byProduct.set(String(product.productId), same);
        write.products.push({ cardUuid: same.uuid, productId: String(product.productId) });
        this.editionsMerged++;
        counts.matched++;
        continue;
      }
      const target = setOfGroup();
      if (!target) {
        counts.miss(
          'a new product of a group the archive does not name',
          { productId: product.productId },
          String(product.productId),
        );
        continue;
      }
      const key = `${target.uuid}|${product.name.toLowerCase()}`;
      const sealed = product.sealed ? this.sealedByName.get(key) : undefined;
      if (sealed) {
        // The same product, named alike in the same set: it takes its id rather than being made twice.
        this.sealedByName.delete(key);
        const vendorId = String(product.productId);
        this.byProduct.set(vendorId, { ...sealed, vendorId });
        write.changes.push({ ...sealed, vendorId });
        write.products.push({ cardUuid: sealed.uuid, productId: vendorId });
        counts.matched++;
        continue;
      }
      this.newCard(target, product, write);
      counts.created++;
    }
    const printings = new Set<string>();
    for (const price of prices) {
      const card = this.byProduct.get(String(price.productId));
      const row = () => ({
        groupId: group.groupId,
        productId: price.productId,
        subTypeName: price.subTypeName,
      });
      if (!card) {
        counts.miss('a price of a product not in the catalogue', row(), String(price.productId));
        continue;
      }
      if (slugify(price.subTypeName) === '') {
        counts.miss('a printing name without a letter or digit', row(), price.subTypeName);
        continue;
      }
      const conditions = card.sealed ? (['Sealed'] as const) : RAW_CONDITIONS;
      const observed = rawVariant(card.uuid, card.id, price.subTypeName, 'English', conditions[0]!);
      // Variant ids are slugs: `Holofoil` and `holofoil` are one printing, priced once.
      if (printings.has(observed.uuid)) {
        counts.miss(
          'a second price of the same product and printing',
          row(),
          `${price.productId} ${price.subTypeName}`,
        );
        continue;
      }
      printings.add(observed.uuid);
      counts.matched++;
      for (const condition of conditions)
        write.variants.push(rawVariant(card.uuid, card.id, price.subTypeName, 'English', condition));
      if (price.marketPrice === null) continue; // no recent sale: the printing, but no price
      const minor = Math.round(price.marketPrice * minorUnitsPerMajor('USD'));
      if (minor <= 0 || minor > MAX_MINOR_UNITS) {
        counts.miss('a market price of 0 or above what a series stores', row(), String(price.marketPrice));
        continue;
      }
      write.observations.push({ variantUuid: observed.uuid, cardUuid: card.uuid, price: minor });
    }
    return write;
  }

  /**
   * The stored set a group is another edition of: TCGplayer lists Flesh and Blood's Unlimited
   * (and some 1st Edition) printings as products of their own, in a group named after the set
   * (`Welcome to Rathe Unlimited`), while the packaged catalogue holds each card once with both
   * editions as printings.
   */
  private editionOf(group: TcgcsvGroup | { groupId: number; name: null }): IndexedSet | undefined {
    if (group.name === null) return undefined;
    const m = EDITION_GROUP.exec(group.name);
    return m ? this.setsByName.get(m[1]!.trim().toLowerCase()) : undefined;
  }

  private setFor(
    group: TcgcsvGroup | { groupId: number; name: null },
    products: readonly TcgcsvProduct[],
  ): IndexedSet | undefined {
    // The set most of the group's known products are in: a packaged game's set, whatever its name.
    const votes = new Map<string, number>();
    for (const p of products) {
      const card = this.byProduct.get(String(p.productId));
      if (card) votes.set(card.setUuid, (votes.get(card.setUuid) ?? 0) + 1);
    }
    const [voted] = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    if (voted) return this.setsByUuid.get(voted[0]);
    if (group.name === null) return undefined;
    const edition = this.editionOf(group);
    if (edition) return edition;
    const code = group.abbreviation ?? String(group.groupId);
    const known = this.setsByCode.get(code.toLowerCase()) ?? this.setsByName.get(group.name.toLowerCase());
    if (known) return known;
    const id = this.ids.newSetId(this.gameId, group.name, code);
    const set: IndexedSet = {
      uuid: uuidV5(`set:${id}`),
      id,
      code,
      name: group.name,
      releaseDate: group.publishedOn,
    };
    this.addSet(set);
    this.setsCreated++;
    return set;
  }

  private newCard(set: IndexedSet, product: TcgcsvProduct, write: GroupWrite): void {
    const rarity = product.sealed ? 'Sealed' : product.rarity;
    const id = this.ids.newCardId(set.id, product.name, rarity ?? '', product.number);
    const card: IndexedCard = {
      uuid: uuidV5(id),
      id,
      setUuid: set.uuid,
      name: product.name,
      number: product.number,
      rarity,
      details: null,
      vendorId: String(product.productId),
      opensetId: null,
      imagedbId: null,
      sealed: product.sealed,
    };
    this.byProduct.set(card.vendorId!, card);
    write.products.push({ cardUuid: card.uuid, productId: card.vendorId! });
    const { setUuid: _setUuid, ...fields } = card;
    write.cards.push({ ...fields, gameId: this.gameId, setId: set.id });
    write.sets.set(set.id, { ...set, gameId: this.gameId });
  }

  private addSet(s: IndexedSet): void {
    this.setsByUuid.set(s.uuid, s);
    if (!this.setsByCode.has(s.code.toLowerCase())) this.setsByCode.set(s.code.toLowerCase(), s);
    if (!this.setsByName.has(s.name.toLowerCase())) this.setsByName.set(s.name.toLowerCase(), s);
  }
}

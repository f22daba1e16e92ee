import {
  CardIdentifier,
  CardOrder,
  CardSelector,
  GrowingPriceSeries,
  JoinedCard,
  MAX_UPDATED_PRICES,
  PriceSeries,
  tooManyUpdates,
  VariantFilter,
} from '@tcg/domain';
import {
  CardWithVariants,
  JoinedVariantJson,
  LoadedCards,
  RenderedCardReads,
  SeriesRead,
  VariantsRead,
} from '@tcg/rendering';
import type { ReadSource } from './read-replicas';
import { appendMonthText, monthKey, monthStartOf } from '../sql/month-chunks';
import { readAcceptedKinds } from './accepted-kinds.read';
import { readCardCount } from './card-count.read';
import { deepCardPage } from './card-deep-page.read';
import { regionParam } from './card-fragments';
import { firstCardPage } from './card-first-page.read';
import { nameRankedCardPage } from './card-name-ranked-page.read';
import { readCardPage, type PageRange, type PageStatement } from './card-page';
import { readJoinedCardPage } from './card-page-joined.read';
import { cardPagePlan, readsCardTops, type CardPagePlan } from './card-page-plan';
import { rankedCardPage } from './card-ranked-page.read';
import { readCards } from './cards.read';
import { cardsByUuid, readJoinedCardByRef, readJoinedCards } from './joined-cards.read';
import { readPriceHistory } from './price-history.read';
import { readResolvedIdentifiers } from './resolve-identifiers.read';
import { TopRegions } from './top-region.read';
import { readUpdatedPricesOver } from './updated-prices-bound.read';
import { readVariantSeries } from './variant-series.read';

/** What a read with series takes of each card: its variants the scope returns, their series in `regions` as `read` asks. */
interface SeriesCardsRead {
  readonly filter: VariantFilter;
  readonly regions: readonly string[];
  readonly read: SeriesRead;
  readonly onlyVariant?: string;
  readonly onlySku?: string;
}

/** `@tcg/rendering`'s `RenderedCardReads` bound to `CardQueryRepository`: `@Inject(CARD_READS)`. */
export const CARD_READS = Symbol('CardReads');

/**
 * The read side of the card APIs: a page of cards (one query, total included), then either the
 * cards with their variants' JSON joined in SQL from what was rendered at write time (one query),
 * or, for options rendered per request, their variants with stored parts and/or statistics (one
 * query) and their price history sliced from the month rows (one query) — a bounded number of
 * queries whatever the page size, and no aggregation of history. Each statement is a read of
 * its own under `../reads`; this class chooses them.
 */
export class CardQueryRepository implements RenderedCardReads {
  /** `reads`: a data source, or `ReadReplicas` (replicas up to date, else the primary). */
  constructor(private readonly reads: ReadSource) {}

  private readonly topRegions = new TopRegions(this.reads);

  /**
   * A page of cards and its total, each card with its variants as `variants` says. Joined: the
   * page and its cards' JSON in one statement (a card lookup's first page: the lookup's batched
   * read, `readJoinedCardByRef`). With their series: the page, then its cards and their variants'
   * series side by side.
   */
  async findCards(
    selector: CardSelector,
    filter: VariantFilter,
    page: PageRange,
    order: CardOrder,
    variants: VariantsRead,
  ): Promise<{ readonly total: number; readonly found: LoadedCards }> {
    if (
      variants.kind === 'joined' &&
      selector.by === 'cardId' &&
      page.offset === 0 &&
      order.minPrice === undefined
    ) {
      // A card lookup's first page holds the card at most (every lookup): read as a v2 lookup is,
      // with the lookups that arrive with it, if it has a variant the filter returns.
      const { json, region } = variants;
      const card = await readJoinedCardByRef(this.reads, selector.value, {
        json,
        scope: { filter },
        region,
        withVariant: true,
      });
      const cards = card ? [card] : [];
      return { total: cards.length, found: { kind: 'joined', cards } };
    }
    const region = variants.kind === 'joined' ? variants.region : variants.regions[0]!;
    const plan = await this.plan(selector, filter, region, order);
    if (variants.kind === 'joined') {
      const statement = pageStatement(plan, page);
      const found = await readJoinedCardPage(this.reads, plan, statement, variants.json);
      const total = await this.total(plan, page, found.cards.length, found.total);
      return { total, found: { kind: 'joined', cards: found.cards } };
    }
    const statement = pageStatement(plan, page);
    const found = await readCardPage(this.reads, statement);
    const total = await this.total(plan, page, found.uuids.length, found.total);
    const { onlyVariant, onlySku } = plan.scope;
    const cards = await this.seriesCards(found.uuids, {
      filter,
      regions: variants.regions,
      read: variants.read,
      onlyVariant,
      onlySku,
    });
    return { total, found: { kind: 'series', cards } };
  }

  /**
   * The page's plan: the filter with its accepted kinds, refused when its `updated_after` reaches
   * too many prices, and card_tops' region where the page reads card_tops.
   */
  private async plan(
    selector: CardSelector,
    unresolved: VariantFilter,
    region: string,
    order: CardOrder,
  ): Promise<CardPagePlan> {
    const filter = selector.by === 'browse' ? await readAcceptedKinds(this.reads, unresolved) : unresolved;
    if (selector.by === 'browse' && filter.updatedAfter !== undefined) {
      const over = await readUpdatedPricesOver(this.reads, {
        region,
        updatedAfter: filter.updatedAfter,
        cap: MAX_UPDATED_PRICES,
      });
      if (over) throw tooManyUpdates('updated_after');
    }
    const request = { selector, filter, region, order };
    const priced = readsCardTops(request) ? await this.topRegions.priced(region) : undefined;
    return cardPagePlan({ ...request, priced });
  }

  /**
   * A page's total: a deep page's statement carries it; a page that is not full ends the list and
   * needs no count; a counted page carries its window count; otherwise a count statement counts.
   */
  private async total(
    plan: CardPagePlan,
    page: PageRange,
    found: number,
    counted: number | undefined,
  ): Promise<number> {
    if (page.offset > 0) return counted ?? 0;
    const lastPage = found > 0 ? found < page.limit : true;
    if (lastPage) return found;
    return counted ?? readCardCount(this.reads, plan);
  }

  /**
   * Resolves batch identifiers in one query: for each request ordinal, the cards it names (and the
   * one variant, for a variant id or vendor SKU). Ordinals that name nothing are absent.
   */
  async resolveIdentifiers(
    items: readonly { ordinal: number; by: CardIdentifier; value: string }[],
  ): Promise<{ ordinal: number; cardUuid: string; variantUuid: string | null }[]> {
    if (items.length === 0) return [];
    const rows = await readResolvedIdentifiers(this.reads, items);
    return rows.map((r) => ({ ordinal: r.ordinal, cardUuid: r.card_uuid, variantUuid: r.variant_uuid }));
  }

  /**
   * Each variant's observations in `region` after its own instant (exclusive; Unix seconds, by
   * variant UUID), ascending. Per variant, so one variant whose latest observation is old does not
   * make every other variant of the page read its months back to then.
   */
  async priceHistory(since: ReadonlyMap<string, number>, region: string): Promise<Map<string, PriceSeries>> {
    const out = new Map<string, PriceSeries>();
    if (since.size === 0) return out;
    const uuids: string[] = [];
    const months: string[] = [];
    for (const [uuid, t] of since) {
      uuids.push(uuid);
      months.push(monthKey(monthStartOf(t)));
    }
    const rows = await readPriceHistory(this.reads, { region, variantUuids: uuids, firstMonths: months });
    // Rows arrive in time order per variant, so each series is built in one pass, dropping what
    // precedes its instant on the way.
    let series: GrowingPriceSeries = { t: [], p: [] };
    let seriesUuid = '';
    let sinceT = 0;
    for (const r of rows) {
      if (r.variant_uuid !== seriesUuid) {
        seriesUuid = r.variant_uuid;
        sinceT = since.get(seriesUuid)!;
        series = { t: [], p: [] };
        out.set(seriesUuid, series);
      }
      appendMonthText(series, Number(r.month_start), r.offsets, r.prices, sinceT);
    }
    return out;
  }

  /**
   * Cards with the variants the filters return (or the one variant), as `variants` says, in the
   * order given: joined in SQL from stored text, one statement and one row per card; or with their
   * series, the cards and their variants two statements run side by side.
   */
  async loadCards(
    cardUuids: string[],
    filter: VariantFilter,
    variants: VariantsRead,
    onlyVariant?: string,
  ): Promise<LoadedCards> {
    if (variants.kind === 'series')
      return {
        kind: 'series',
        cards: await this.seriesCards(cardUuids, {
          filter,
          regions: variants.regions,
          read: variants.read,
          onlyVariant,
        }),
      };
    if (cardUuids.length === 0) return { kind: 'joined', cards: [] };
    const cards = await readJoinedCards(this.reads, {
      cards: cardsByUuid([...new Set(cardUuids)]),
      json: variants.json,
      scope: { filter, onlyVariant },
      region: regionParam(variants.region),
    });
    return { kind: 'joined', cards: inOrder(cardUuids, new Map(cards.map((c) => [c.card.uuid, c]))) };
  }

  /**
   * The one card a UUID or slug names, its variants joined in SQL, found in the same statement: a
   * lookup's one round trip. Undefined when there is none.
   */
  async findJoinedCard(
    ref: string,
    filter: VariantFilter,
    region: string,
    json: JoinedVariantJson,
  ): Promise<JoinedCard | undefined> {
    return readJoinedCardByRef(this.reads, ref, { json, scope: { filter }, region, withVariant: false });
  }

  /**
   * Cards with the variants the filters return and their series in each region (storage region
   * codes; the first is primary) as `read` asks, in the order given: the cards and their variants
   * are two queries run side by side.
   */
  private async seriesCards(
    cardUuids: string[],
    { filter, regions, read, onlyVariant, onlySku }: SeriesCardsRead,
  ): Promise<CardWithVariants[]> {
    if (cardUuids.length === 0) return [];
    const unique = [...new Set(cardUuids)];
    const [cards, variants] = await Promise.all([
      readCards(this.reads, unique),
      readVariantSeries(this.reads, {
        cardUuids: unique,
        scope: { filter, onlyVariant, onlySku },
        regions,
        read,
      }),
    ]);
    const byCard = new Map<string, CardWithVariants>();
    for (const c of cards) byCard.set(c.card.uuid, { ...c, variants: [] });
    for (const v of variants) byCard.get(v.cardUuid)?.variants.push(v.priced);
    return inOrder(cardUuids, byCard);
  }
}

/**
 * The page statement of a plan: a search ranked by name, a first page (or any page of a lookup)
 * alone, a page past the first with its count joined, or ranked where the plan's pass counts anyway.
 */
function pageStatement(plan: CardPagePlan, page: PageRange): PageStatement {
  if (plan.named) return nameRankedCardPage(plan.named, page);
  if (page.offset === 0) return firstCardPage(plan, page);
  return plan.counted ? rankedCardPage(plan, page) : deepCardPage(plan, page);
}

/** The cards found, in the order their UUIDs were asked for. */
function inOrder<T>(cardUuids: readonly string[], byCard: ReadonlyMap<string, T>): T[] {
  const out: T[] = [];
  for (const u of cardUuids) {
    const card = byCard.get(u);
    if (card) out.push(card);
  }
  return out;
}

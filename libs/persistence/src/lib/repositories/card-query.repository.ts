import {
  Card,
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
import { SeriesStats } from '@tcg/pricing-stats';
import {
  CardPage,
  CardWithVariants,
  JoinedVariantJson,
  RenderedCardReads,
  RenderedSeries,
  SeriesRead,
  StoredSeries,
} from '@tcg/rendering';
import { preparedQuery } from '../prepared-query';
import { TopRegions } from './top-regions';
import { readPriceHistory } from '../reads/price-history.read';
import { readResolvedIdentifiers } from '../reads/resolve-identifiers.read';
import { readTopRegion } from '../reads/top-region.read';
import { readUpdatedPricesOver } from '../reads/updated-prices-bound.read';
import type { ReadSource } from '../read-replicas';
import { toVariant, VariantColumns, variantColumnsSql } from './catalogue.mapper';
import { appendMonthText, monthKey, monthStartOf } from '../prices/month-chunks';
import { storedDocument, variantsAggregateSql } from '../prices/card-documents';
import { RENDERED_COLUMN_OF } from '../prices/rendered-columns';
import type { QueryResultRow } from 'pg';
import {
  acceptedKinds,
  Bind,
  binder,
  browseConditions,
  facetCountSql,
  hasVariant,
  identifierCondition,
  ORDER_COLUMN,
  refClause,
  relevance,
  ResolvedFilter,
  summarisedScope,
  browseSummary,
  topSortSql,
  topJoin,
  toppedScope,
  topVariantJoin,
  variantConditions,
} from './card-sql';

/** What a page statement returns beside a card: its window count and, past the first page, its rank. */
interface PageRow {
  readonly total?: number;
  readonly rn?: number;
}

/**
 * The read side of the card APIs: a page of cards (one query, total included), then either the
 * cards with their variants' JSON joined in SQL from what was rendered at write time (one query),
 * or, for options rendered per request, their variants with stored parts and/or statistics (one
 * query) and their price history sliced from the month rows (one query) — a bounded number of
 * queries whatever the page size, and no aggregation of history.
 */
export class CardQueryRepository implements RenderedCardReads {
  /** `reads`: a data source, or `ReadReplicas` (replicas up to date, else the primary). */
  constructor(private readonly reads: ReadSource) {}

  private readonly run = <T extends QueryResultRow>(sql: string, params: unknown[]): Promise<T[]> =>
    preparedQuery<T>(this.reads, sql, params);

  private readonly topRegions = new TopRegions((region) => readTopRegion(this.reads, region));

  async findCards(
    selector: CardSelector,
    filter: VariantFilter,
    page: { limit: number; offset: number },
    region: string,
    order: CardOrder,
    read: SeriesRead,
    /** Further storage regions whose series each variant carries (v2 markets). */
    otherRegions: readonly string[] = [],
  ): Promise<CardPage> {
    const found = await this.findPage(selector, filter, page, region, order);
    const cards = await this.loadCards(
      found.uuids,
      filter,
      [region, ...otherRegions],
      read,
      found.onlyVariant,
      found.onlySku,
    );
    return { total: found.total, cards };
  }

  /**
   * `findCards` with each card's variants joined into JSON in SQL (as `loadJoinedCards`), in the
   * same statement as the page: one statement for a lookup or a search.
   */
  async findJoinedCards(
    selector: CardSelector,
    filter: VariantFilter,
    page: { limit: number; offset: number },
    region: string,
    order: CardOrder,
    json: JoinedVariantJson,
  ): Promise<{ readonly total: number; readonly cards: JoinedCard[] }> {
    const found = await this.findPage(selector, filter, page, region, order, json);
    return { total: found.total, cards: found.cards! };
  }

  /** The page's card UUIDs in order, its total, and the one variant or SKU an identifier names. */
  private async findPage(
    selector: CardSelector,
    filter: ResolvedFilter,
    page: { limit: number; offset: number },
    region: string,
    order: CardOrder,
    /** Also the page's cards, their variants' JSON joined in SQL, in the same statement. */
    joined?: JoinedVariantJson,
  ): Promise<{
    total: number;
    uuids: string[];
    onlyVariant?: string;
    onlySku?: string;
    cards?: JoinedCard[];
  }> {
    const onlyVariant = selector.by === 'variantId' ? selector.value : undefined;
    const onlySku = selector.by === 'vendorSkuId' ? selector.value : undefined;
    if (selector.by === 'browse') filter = await acceptedKinds(this.run, filter);
    if (selector.by === 'browse' && filter.updatedAfter !== undefined) {
      const over = await readUpdatedPricesOver(this.reads, {
        region,
        updatedAfter: filter.updatedAfter,
        cap: MAX_UPDATED_PRICES,
      });
      if (over) throw tooManyUpdates('updated_after');
    }
    // A card's price for sorting and min_price: its highest-priced variant among those returned.
    const needsTop = order.by !== undefined || order.minPrice !== undefined;
    // card_tops holds it, for every card, where the filter is on the variants' scope alone.
    const topped = !onlyVariant && !onlySku && toppedScope(filter);
    const browseOnly = selector.by === 'browse' && !selector.q && !selector.number;
    const tops = topped && (browseOnly || needsTop) ? await this.topRegions.of(region) : undefined;
    const topRegion = tops?.sql;
    const params: unknown[] = [region];
    const p = binder(params);
    // A browse by game and/or set alone reads a summary's rows alone (card_tops, or card_facets
    // for a kind filter in browse order): a page of a whole game, sorted or not, and its count,
    // then read narrow rows in an index's order rather than every card and a probe per card.
    const summary =
      selector.by === 'browse' ? browseSummary(selector, filter, p, '$1', topRegion, needsTop) : undefined;
    let where: string[] = [];
    let rank = '';
    // In the summaries' scope (a raw variant priced in NA, no variant filter) card_values answers
    // existence: one index probe per card instead of a join over its variants.
    const summarised =
      !onlyVariant && !onlySku && summarisedScope(filter, region) && !filter.includeNullPrices;
    if (summary) {
      where = summary.where;
    } else {
      if (selector.by === 'browse') {
        const browse = browseConditions(selector, p);
        where = browse.where;
        if (browse.search) rank = `${relevance(browse.search)} DESC, `;
      } else {
        where.push(identifierCondition(selector.by, selector.value, p));
      }
      where.push(
        summarised
          ? // The summaries hold NA prices; saying so also gives the region parameter its type.
            `$1::text = 'NA' AND EXISTS (SELECT 1 FROM card_values t WHERE t.card_uuid = c.uuid)`
          : hasVariant(filter, p, '$1', selector.by === 'browse' ? undefined : { onlySku, onlyVariant }),
      );
    }
    if (joined && selector.by === 'cardId' && page.offset === 0 && order.minPrice === undefined) {
      // A card lookup's first page holds the card at most (every lookup): found and joined in one
      // plain statement, without the page's window, ordering and LIMIT.
      const rows = await preparedQuery<JoinedRow>(
        this.reads,
        joinedCardsSql(joined, filter, p, region, where.join(' AND ')),
        params,
      );
      return { total: rows.length, uuids: rows.map((r) => r.uuid), cards: rows.map(toJoinedCard) };
    }
    const from = summary
      ? summary.from
      : !needsTop
        ? 'cards c'
        : topped
          ? `cards c ${topJoin(filter, topRegion!)}`
          : `cards c ${topVariantJoin(filter, p, '$1', onlySku)}`;
    const uuid = summary ? `${summary.alias}.card_uuid` : 'c.uuid';
    if (order.minPrice !== undefined) where.push(`top.price >= ${p(order.minPrice)}`);
    const direction = order.direction === 'asc' ? 'asc' : 'desc';
    const sort = !order.by
      ? ''
      : summary && !tops!.priced
        ? // Nothing is priced in the region: every value is null, and the card id alone orders.
          'top.card_rank'
        : summary
          ? `${topSortSql(ORDER_COLUMN[order.by], direction)}, top.card_rank`
          : `${ORDER_COLUMN[order.by]} ${direction.toUpperCase()} NULLS LAST, c.id, `;
    // A card's rank by id is unique: nothing after it changes a sort of the summary.
    const ordering = summary
      ? sort || `${summary.alias}.sort_key, ${summary.alias}.card_uuid`
      : `${sort}${rank}c.sort_key, c.uuid`;
    // A search ranks every match to order them, and a delta sync (`updatedAfter`, from the cards
    // of the changed prices) gathers every match to order them: either way the same pass counts
    // them, a window count rather than a second query that finds them again.
    const counted = rank !== '' || (selector.by === 'browse' && filter.updatedAfter !== undefined);
    const deep = page.offset > 0;
    const conditions = where.join(' AND ');
    // A browse by game and/or set that card_tops does not answer is counted from
    // card_facet_counts where it can be. Otherwise the page's own conditions count (card_tops' rows).
    const quickCount = (bind: Bind, regionAt: () => string): string | undefined =>
      selector.by !== 'browse' || order.minPrice !== undefined || summary?.alias === 'top'
        ? undefined
        : facetCountSql(selector, filter, bind, regionAt());
    const ordered = `SELECT ${uuid} AS uuid FROM ${from} WHERE ${conditions} ORDER BY ${ordering}`;
    let pageSql: string;
    if (deep && counted) {
      // Past a search's first page OFFSET ranks every match anyway, so the same pass counts them,
      // and also returns the last match (rn = total): a page past the end is then that row
      // alone, dropped here, and its total needs no second pass.
      pageSql = `SELECT w.uuid, w.total, w.rn FROM (
           SELECT ${uuid} AS uuid, count(*) OVER ()::int AS total, (row_number() OVER (ORDER BY ${ordering}))::int AS rn
           FROM ${from}
           WHERE ${conditions}) w
         WHERE w.rn > ${p(page.offset)} OR w.rn = w.total
         ORDER BY w.rn
         LIMIT ${p(page.limit)}`;
    } else if (deep) {
      // Past the first page, the count joined to the page in one statement: a page past the end
      // is one row without a card, and its total needs no second statement.
      const count = quickCount(p, () => '$1') ?? `SELECT count(*)::int AS n FROM ${from} WHERE ${conditions}`;
      pageSql = `SELECT pg.uuid, t.n AS total FROM (${count}) t
         LEFT JOIN (SELECT o.uuid, row_number() OVER () AS ord
                    FROM (${ordered} LIMIT ${p(page.limit)} OFFSET ${p(page.offset)}) o) pg ON true
         ORDER BY pg.ord`;
    } else {
      pageSql = `SELECT ${uuid} AS uuid${counted ? ', count(*) OVER ()::int AS total' : ''}
       FROM ${from}
       WHERE ${conditions}
       ORDER BY ${ordering}
       LIMIT ${p(page.limit)} OFFSET ${p(page.offset)}`;
    }
    // Without its LIMIT and OFFSET: what a count of the page's conditions binds.
    const countParams = params.slice(0, -2);
    const found: (JoinedRow & PageRow)[] | (PageRow & { uuid: string | null })[] = joined
      ? await preparedQuery<JoinedRow & PageRow>(
          this.reads,
          // The page in its order (ord), then each of its cards with its variants joined; a left
          // join keeps the row without a card that carries a page's total past the end.
          `WITH page AS (SELECT q.*, row_number() OVER () AS ord FROM (${pageSql}) q)
           SELECT ${deep || counted ? 'page.total, ' : ''}${deep && counted ? 'page.rn, ' : ''}${CARD_COLUMNS},
                  ${joinedVariantsSql(joined, filter, p, onlyVariant, onlySku, region)} AS variants
           FROM page LEFT JOIN (${CARD_FROM}) ON c.uuid = page.uuid
           ORDER BY page.ord`,
          params,
        )
      : await preparedQuery<PageRow & { uuid: string | null }>(this.reads, pageSql, params);
    const rows = (
      deep && counted ? found.filter((r) => r.rn! > page.offset) : found.filter((r) => r.uuid !== null)
    ) as (PageRow & { uuid: string })[];
    const total = deep
      ? (found[0]?.total ?? 0)
      : await this.pageTotal(rows, page, () => {
          const fresh: unknown[] = [];
          const bind = binder(fresh);
          const sql = quickCount(bind, () => bind(region));
          return sql
            ? this.countWith(sql, fresh)
            : this.countWith(`SELECT count(*)::int AS n FROM ${from} WHERE ${conditions}`, countParams);
        });
    return {
      total,
      uuids: rows.map((r) => r.uuid),
      onlyVariant,
      onlySku,
      cards: joined ? (rows as JoinedRow[]).map(toJoinedCard) : undefined,
    };
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

  /** Cards with every raw variant and its series, in the order given (one query). */
  cardsWithAllVariants(cardUuids: string[], region: string, read: SeriesRead): Promise<CardWithVariants[]> {
    return cardUuids.length === 0
      ? Promise.resolve([])
      : this.loadCards(cardUuids, { includeNullPrices: true }, [region], read, undefined, undefined);
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
   * A page's total: a page that is not full ends the list and needs no count; a search's page
   * carries its window count; otherwise `count` counts.
   */
  private async pageTotal(
    rows: readonly { total?: number }[],
    page: { limit: number; offset: number },
    count: () => Promise<number>,
  ): Promise<number> {
    const lastPage = rows.length > 0 ? rows.length < page.limit : page.offset === 0;
    if (lastPage) return page.offset + rows.length;
    if (rows.length > 0 && rows[0]!.total !== undefined) return rows[0]!.total;
    return count();
  }

  private async countWith(sql: string, params: unknown[]): Promise<number> {
    const [row] = await preparedQuery<{ n: number }>(this.reads, sql, params);
    return row!.n;
  }

  /**
   * Cards with the variants the filters return, each variant's JSON joined in SQL from stored text
   * (`json`) with its series in `region`, in the order given: one statement and one row per card,
   * the cheapest read there is for the server and the driver alike.
   */
  async loadJoinedCards(
    cardUuids: string[],
    filter: VariantFilter,
    region: string,
    json: JoinedVariantJson,
    /** The one variant a variant identifier named; a SKU lookup goes through `findJoinedCards`. */
    onlyVariant?: string,
  ): Promise<JoinedCard[]> {
    if (cardUuids.length === 0) return [];
    const unique = [...new Set(cardUuids)];
    // One card (every lookup) by a plain parameter: PostgreSQL then keeps the statement's generic
    // plan, where with an array it re-plans each execution for its values, and the planning costs
    // more than the read.
    const one = unique.length === 1;
    const params: unknown[] = [region, one ? unique[0] : unique];
    const p = binder(params);
    const where = one ? 'c.uuid = $2::uuid' : 'c.uuid = ANY($2::uuid[])';
    const rows = await preparedQuery<JoinedRow>(
      this.reads,
      joinedCardsSql(json, filter, p, region, where, onlyVariant),
      params,
    );
    return inOrder(cardUuids, new Map(rows.map((r) => [r.uuid, toJoinedCard(r)])));
  }

  /**
   * `loadJoinedCards` for the one card a UUID or slug names, found in the same statement: a
   * lookup's one round trip. Undefined when there is none.
   */
  async findJoinedCard(
    ref: string,
    filter: VariantFilter,
    region: string,
    json: JoinedVariantJson,
  ): Promise<JoinedCard | undefined> {
    const params: unknown[] = [region];
    const p = binder(params);
    const where = refClause(ref, p, 'c');
    const [row] = await preparedQuery<JoinedRow>(
      this.reads,
      joinedCardsSql(json, filter, p, region, where),
      params,
    );
    return row && toJoinedCard(row);
  }

  /**
   * Cards with the variants the filters return and their series in each region (storage region
   * codes; the first is primary) as `read` asks, in the order given: the cards and their variants
   * are two queries run side by side.
   */
  async loadCards(
    cardUuids: string[],
    filter: VariantFilter,
    regions: readonly string[],
    read: SeriesRead,
    onlyVariant: string | undefined,
    onlySku: string | undefined,
  ): Promise<CardWithVariants[]> {
    if (cardUuids.length === 0) return [];
    const params: unknown[] = [regions[0], [...new Set(cardUuids)]];
    const p = binder(params);
    const conditions = variantWhere(filter, p, onlyVariant, onlySku);
    // A series' members as [name, SQL] over the prices alias: the primary region's as columns,
    // the other regions' as one JSON object per variant, {region: {updatedAt, stats, parts…}}.
    // Statistics as text in a column (parsed here), as jsonb inside the other regions' object.
    const seriesOf = (alias: string, statsAsText: boolean): [string, string][] => [
      ['updatedAt', `${alias}.updated_at::float8`],
      ...(read.stats ? [['stats', `${alias}.stats${statsAsText ? '::text' : ''}`] as [string, string]] : []),
      ...read.parts.map((part): [string, string] => [part, `${alias}.${RENDERED_COLUMN_OF[part]}`]),
    ];
    const primary = seriesOf('vp', true)
      .map(([name, sql]) => `${sql} AS "${name}"`)
      .join(', ');
    const others =
      regions.length > 1
        ? `(SELECT json_object_agg(o.region, json_build_object(${seriesOf('o', false)
            .map(([name, sql]) => `'${name}', ${sql}`)
            .join(', ')}))
            FROM variant_prices o
            WHERE o.variant_uuid = v.uuid AND o.region = ANY(${p(regions.slice(1))}::text[]))::text`
        : 'NULL';
    // Variants one row each, without their card's columns, statistics as text parsed here: of the
    // shapes tried (one row per variant with the card's columns, a json_agg of the variants per
    // card) this one costs the server least, and the driver's parsing no more. The cards drive the
    // join through unnest rather than `= ANY`: for a batch's 200 cards the planner's first plans
    // of `= ANY` scanned variants with parallel workers, several times slower than these probes.
    const [cardRows, variantRows] = await Promise.all([
      preparedQuery<CardRow>(
        this.reads,
        `SELECT ${CARD_COLUMNS}
         FROM ${CARD_FROM}
         WHERE c.uuid = ANY($1::uuid[])`,
        [params[1]],
      ),
      preparedQuery<VariantRow>(
        this.reads,
        `SELECT ${variantColumnsSql('v')}, ${primary}, ${others} AS others
         FROM unnest($2::uuid[]) AS k(card_uuid)
         JOIN variants v ON v.card_uuid = k.card_uuid
         LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = $1
         WHERE ${conditions}
         ORDER BY v.card_uuid, v.id`,
        params,
      ),
    ]);
    const byCard = new Map<string, CardWithVariants>();
    for (const r of cardRows) {
      byCard.set(r.uuid, {
        card: toCard(r),
        setName: r.set_name,
        gameName: r.game_name,
        variants: [],
      });
    }
    for (const r of variantRows) {
      const variant = toVariant(r);
      const primary = r.updatedAt === null ? null : storedSeries(r, read);
      byCard
        .get(r.cardUuid)
        ?.variants.push(
          r.others === null
            ? { variant, primary }
            : { variant, primary, otherRegions: JSON.parse(r.others) as Record<string, StoredSeries> },
        );
    }
    return inOrder(cardUuids, byCard);
  }
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

/** Cards `c` that `where` selects, with their set's and game's names and their variants' JSON joined. */
function joinedCardsSql(
  json: JoinedVariantJson,
  filter: VariantFilter,
  p: Bind,
  region: string,
  where: string,
  onlyVariant?: string,
  onlySku?: string,
): string {
  return `SELECT ${CARD_COLUMNS}, ${joinedVariantsSql(json, filter, p, onlyVariant, onlySku, region)} AS variants
          FROM ${CARD_FROM}
          WHERE ${where}`;
}

/**
 * The correlated subquery that joins the JSON of card `c`'s variants (those the filter returns) in
 * SQL, NULL for none; `$1` is `region`, the region of the series read. What a stored document
 * holds (`CARD_DOCUMENTS`: the raw variants with those options' parts) is read from it, one text
 * per card; a card whose
 * document is missing is joined from its variants' parts.
 */
function joinedVariantsSql(
  json: JoinedVariantJson,
  filter: VariantFilter,
  p: Bind,
  onlyVariant: string | undefined,
  onlySku: string | undefined,
  region: string,
): string {
  const conditions = variantWhere(filter, p, onlyVariant, onlySku);
  const joined = variantsAggregateSql(json, conditions, p, '$1');
  const document = storedDocument(json, { filter, onlyVariant, onlySku }, region);
  return document
    ? `COALESCE((SELECT d.${document.column} FROM card_documents d WHERE d.card_uuid = c.uuid), ${joined})`
    : joined;
}

/**
 * The variants `v` (with their prices `vp`) a read returns: the filter's, or the one variant an
 * identifier names, to which the language rule does not apply (docs/spec/interface.md rule 4).
 */
function variantWhere(
  filter: VariantFilter,
  p: Bind,
  onlyVariant: string | undefined,
  onlySku: string | undefined,
): string {
  const conditions = variantConditions(filter, p, !onlyVariant, onlySku);
  return onlyVariant ? `${conditions} AND ${refClause(onlyVariant, p, 'v')}` : conditions;
}

/** A card row with its variants' joined JSON. */
type JoinedRow = CardRow & { variants: string | null };

function toJoinedCard(r: JoinedRow): JoinedCard {
  return { card: toCard(r), setName: r.set_name, gameName: r.game_name, variantsJson: r.variants ?? '' };
}

/** Cards `c` with their sets `s` and games `g`, as `CARD_COLUMNS` reads them. */
const CARD_FROM = 'cards c JOIN sets s ON s.uuid = c.set_uuid JOIN games g ON g.id = c.game_id';

/** A card's columns with its set's and game's names, over `c`, `s` and `g`. */
const CARD_COLUMNS = `c.uuid, c.id, c.game_id, g.name AS game_name, s.id AS set_id, s.name AS set_name,
  c.name, c.number, c.rarity, c.details, c.vendor_id, c.openset_id, c.imagedb_id, c.sealed`;

function toCard(r: CardRow): Card {
  return {
    uuid: r.uuid,
    id: r.id,
    gameId: r.game_id,
    setId: r.set_id,
    name: r.name,
    number: r.number,
    rarity: r.rarity,
    details: r.details,
    vendorId: r.vendor_id,
    opensetId: r.openset_id,
    imagedbId: r.imagedb_id,
    sealed: r.sealed,
  };
}

interface CardRow {
  uuid: string;
  id: string;
  game_id: string;
  game_name: string;
  set_id: string;
  set_name: string;
  name: string;
  number: string | null;
  rarity: string | null;
  details: string | null;
  vendor_id: string | null;
  openset_id: string | null;
  imagedb_id: string | null;
  sealed: boolean;
}

/**
 * A variant row: its columns aliased as the entity names them, and its primary series' members
 * (null without observations), statistics as text.
 */
interface VariantRow extends VariantColumns, Partial<RenderedSeries> {
  updatedAt: number | null;
  stats?: string | null;
  others: string | null;
}

function storedSeries(r: VariantRow, read: SeriesRead): StoredSeries {
  const out: { -readonly [K in keyof StoredSeries]: StoredSeries[K] } = { updatedAt: r.updatedAt! };
  if (read.stats) out.stats = JSON.parse(r.stats!) as SeriesStats;
  for (const part of read.parts) out[part] = r[part]!;
  return out;
}

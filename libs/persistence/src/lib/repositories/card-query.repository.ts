import { Card, Condition, Language, Variant } from '@tcg/domain';
import { SeriesStats } from '@tcg/pricing-stats';
import { DataSource } from 'typeorm';
import { joinChunks, monthKey, monthStartOf } from '../prices/month-chunks';
import { toVariant } from './catalogue.mapper';
import { VariantEntity } from '../entities';

/** Which cards a request names: one identifier (in decisions.md precedence) or a browse. */
export type CardSelector =
  | { readonly by: 'variant'; readonly ref: string }
  | { readonly by: 'vendorSku'; readonly sku: string }
  | { readonly by: 'card'; readonly ref: string }
  | { readonly by: 'vendorId' | 'opensetId' | 'imagedbId'; readonly value: string }
  | {
      readonly by: 'browse';
      readonly gameId?: string;
      readonly setId?: string;
      readonly number?: string;
      /** Free text on the card name: trigram similarity (typo-tolerant) or substring, best first. */
      readonly q?: string;
    };

export interface VariantFilter {
  /** Print types, lower-case; undefined: any. */
  readonly printings?: readonly string[];
  readonly conditions?: readonly Condition[];
  /** Narrows the returned variants only; never removes a card (interface.md language rules). */
  readonly languages?: readonly Language[];
  /** Unix seconds: only variants updated after it; cards left with none are dropped. */
  readonly updatedAfter?: number;
  /** false: drop cards none of whose matching variants has a price. */
  readonly includeNullPrices: boolean;
}

/** Sorting and price floor on each card's highest-priced returned variant (decisions.md). */
export interface CardOrder {
  readonly by?: 'price' | '24h' | '7d' | '30d' | '90d';
  readonly direction: 'asc' | 'desc';
  /** Minor units: only cards whose highest-priced returned variant costs at least this. */
  readonly minPrice?: number;
}

const ORDER_COLUMN = {
  price: 'top.price',
  '24h': 'top.change_24h',
  '7d': 'top.change_7d',
  '30d': 'top.change_30d',
  '90d': 'top.change_90d',
} as const;

export interface PricedVariant {
  readonly variant: Variant;
  readonly stats: SeriesStats | null;
}

export interface CardWithVariants {
  readonly card: Card;
  readonly setName: string;
  readonly variants: PricedVariant[];
}

export interface CardPage {
  readonly total: number;
  readonly cards: CardWithVariants[];
}

/** The identifiers a batch item may carry (interface.md BatchCardRequestItem). */
export type BatchIdentifier = 'variantId' | 'vendorSkuId' | 'cardId' | 'vendorId' | 'opensetId' | 'imagedbId';

const IDENTIFIER_COLUMN = {
  vendorId: 'c.vendor_id',
  opensetId: 'c.openset_id',
  imagedbId: 'c.imagedb_id',
} as const;

/**
 * The read side of /v1/cards: a page of cards (one query, total included), their variants with
 * precomputed statistics (one query), and their price history sliced from the month rows (one
 * query) — a bounded number of queries whatever the page size, and no aggregation of history.
 */
export class CardQueryRepository {
  constructor(private readonly ds: DataSource) {}

  async findCards(
    selector: CardSelector,
    filter: VariantFilter,
    page: { limit: number; offset: number },
    region: string,
    order: CardOrder = { direction: 'desc' },
  ): Promise<CardPage> {
    const params: unknown[] = [region];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    const where: string[] = [];
    let onlyVariant: string | undefined;
    let rank = '';
    switch (selector.by) {
      case 'variant':
        where.push(`c.uuid = (SELECT card_uuid FROM variants WHERE ${variantRefClause(selector.ref, p)})`);
        onlyVariant = selector.ref;
        break;
      case 'vendorSku':
        where.push(`c.uuid = (SELECT card_uuid FROM variants WHERE vendor_sku_id = ${p(selector.sku)})`);
        break;
      case 'card':
        where.push(
          /^[0-9a-f-]{36}$/i.test(selector.ref)
            ? `c.uuid = ${p(selector.ref.toLowerCase())}::uuid`
            : `c.id = ${p(selector.ref)}`,
        );
        break;
      case 'browse':
        if (selector.gameId) where.push(`c.game_id = ${p(selector.gameId)}`);
        if (selector.setId) where.push(`s.id = ${p(selector.setId)}`);
        if (selector.number) where.push(`c.number = ${p(selector.number)}`);
        if (selector.q) {
          const q = p(selector.q.toLowerCase());
          where.push(`(lower(c.name) % ${q} OR strpos(lower(c.name), ${q}) > 0)`);
          rank = `(strpos(lower(c.name), ${q}) > 0) DESC, similarity(lower(c.name), ${q}) DESC, `;
        }
        break;
      default:
        where.push(`${IDENTIFIER_COLUMN[selector.by]} = ${p(selector.value)}`);
    }
    const variantWhere = this.variantConditions(
      filter,
      p,
      false,
      selector.by === 'vendorSku' ? selector.sku : undefined,
    );
    where.push(`EXISTS (SELECT 1 FROM variants v LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = $1
                        WHERE v.card_uuid = c.uuid AND ${variantWhere}${
                          filter.includeNullPrices ? '' : ' AND vp.variant_uuid IS NOT NULL'
                        }${onlyVariant ? ` AND ${variantRefClause(onlyVariant, p, 'v')}` : ''})`);
    // A card's price for sorting and min_price: its highest-priced variant among those returned.
    const needsTop = order.by !== undefined || order.minPrice !== undefined;
    const top = needsTop
      ? `LEFT JOIN LATERAL (
           SELECT vp.price, vp.change_24h, vp.change_7d, vp.change_30d, vp.change_90d
           FROM variants v JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = $1
           WHERE v.card_uuid = c.uuid AND ${this.variantConditions(filter, p, true, selector.by === 'vendorSku' ? selector.sku : undefined)}
           ORDER BY vp.price DESC LIMIT 1) top ON true`
      : '';
    if (order.minPrice !== undefined) where.push(`top.price >= ${p(order.minPrice)}`);
    const sort = order.by
      ? `${ORDER_COLUMN[order.by]} ${order.direction === 'asc' ? 'ASC' : 'DESC'} NULLS LAST, c.id, `
      : '';
    const rows: { uuid: string; total: string }[] = await this.ds.query(
      `SELECT c.uuid, count(*) OVER () AS total
       FROM cards c JOIN sets s ON s.uuid = c.set_uuid ${top}
       WHERE ${where.join(' AND ')}
       ORDER BY ${sort}${rank}s.id, nullif(substring(c.number FROM '^[0-9]+'), '')::int NULLS LAST, c.number NULLS LAST, c.uuid
       LIMIT ${p(page.limit)} OFFSET ${p(page.offset)}`,
      params,
    );
    const total =
      rows.length > 0 ? Number(rows[0]!.total) : await this.countOnly(top, where, params.slice(0, -2));
    if (rows.length === 0) return { total, cards: [] };
    const cards = await this.loadCards(
      rows.map((r) => r.uuid),
      filter,
      region,
      onlyVariant,
      selector.by === 'vendorSku' ? selector.sku : undefined,
    );
    return { total, cards };
  }

  /**
   * Resolves batch identifiers in one query: for each request ordinal, the cards it names (and the
   * one variant, for a variant id or vendor SKU). Ordinals that name nothing are absent.
   */
  async resolveIdentifiers(
    items: readonly { ordinal: number; by: BatchIdentifier; value: string }[],
  ): Promise<{ ordinal: number; cardUuid: string; variantUuid: string | null }[]> {
    if (items.length === 0) return [];
    const uuidLike = (v: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v);
    const kinds = items.map((i) =>
      i.by === 'cardId' || i.by === 'variantId' ? `${i.by}:${uuidLike(i.value) ? 'uuid' : 'slug'}` : i.by,
    );
    const rows: { ordinal: number; card_uuid: string; variant_uuid: string | null }[] = await this.ds.query(
      `WITH r AS (SELECT * FROM unnest($1::int[], $2::text[], $3::text[]) AS r(ordinal, kind, val))
       SELECT r.ordinal, c.uuid AS card_uuid, NULL::uuid AS variant_uuid FROM r JOIN cards c ON r.kind = 'cardId:slug' AND c.id = r.val
       UNION ALL SELECT r.ordinal, c.uuid, NULL FROM r JOIN cards c ON r.kind = 'cardId:uuid' AND c.uuid = lower(r.val)::uuid
       UNION ALL SELECT r.ordinal, c.uuid, NULL FROM r JOIN cards c ON r.kind = 'vendorId' AND c.vendor_id = r.val
       UNION ALL SELECT r.ordinal, c.uuid, NULL FROM r JOIN cards c ON r.kind = 'opensetId' AND c.openset_id = r.val
       UNION ALL SELECT r.ordinal, c.uuid, NULL FROM r JOIN cards c ON r.kind = 'imagedbId' AND c.imagedb_id = r.val
       UNION ALL SELECT r.ordinal, v.card_uuid, v.uuid FROM r JOIN variants v ON r.kind = 'variantId:slug' AND v.id = r.val
       UNION ALL SELECT r.ordinal, v.card_uuid, v.uuid FROM r JOIN variants v ON r.kind = 'variantId:uuid' AND v.uuid = lower(r.val)::uuid
       UNION ALL SELECT r.ordinal, v.card_uuid, v.uuid FROM r JOIN variants v ON r.kind = 'vendorSkuId' AND v.vendor_sku_id = r.val
       ORDER BY 1, 2`,
      [items.map((i) => i.ordinal), kinds, items.map((i) => i.value)],
    );
    return rows.map((r) => ({ ordinal: r.ordinal, cardUuid: r.card_uuid, variantUuid: r.variant_uuid }));
  }

  /** Cards with every raw variant and its statistics, in the order given (one query). */
  cardsWithAllVariants(cardUuids: string[], region: string): Promise<CardWithVariants[]> {
    return cardUuids.length === 0
      ? Promise.resolve([])
      : this.loadCards(cardUuids, { includeNullPrices: true }, region, undefined, undefined);
  }

  /** Each variant's observations in `region` from `sinceT` (exclusive) on, ascending. */
  async priceHistory(
    variantUuids: readonly string[],
    region: string,
    sinceT: number,
  ): Promise<Map<string, { t: number[]; p: number[] }>> {
    const out = new Map<string, { t: number[]; p: number[] }>();
    if (variantUuids.length === 0) return out;
    const rows: { variant_uuid: string; month_start: string; offsets: number[]; prices: number[] }[] =
      await this.ds.query(
        `SELECT variant_uuid, extract(epoch FROM month)::bigint AS month_start, offsets, prices
       FROM price_series WHERE variant_uuid = ANY($1::uuid[]) AND region = $2 AND month >= $3::date`,
        [variantUuids, region, monthKey(monthStartOf(sinceT))],
      );
    const byVariant = new Map<string, { monthStart: number; offsets: number[]; prices: number[] }[]>();
    for (const r of rows) {
      const list = byVariant.get(r.variant_uuid) ?? [];
      list.push({ monthStart: Number(r.month_start), offsets: r.offsets, prices: r.prices });
      byVariant.set(r.variant_uuid, list);
    }
    for (const [uuid, chunks] of byVariant) {
      const { t, p } = joinChunks(chunks);
      const from = t.findIndex((x) => x > sinceT);
      out.set(uuid, from < 0 ? { t: [], p: [] } : { t: t.slice(from), p: p.slice(from) });
    }
    return out;
  }

  private async countOnly(top: string, where: string[], params: unknown[]): Promise<number> {
    const [row] = await this.ds.query(
      `SELECT count(*)::int AS n FROM cards c JOIN sets s ON s.uuid = c.set_uuid ${top} WHERE ${where.join(' AND ')}`,
      params,
    );
    return row.n;
  }

  private async loadCards(
    cardUuids: string[],
    filter: VariantFilter,
    region: string,
    onlyVariant: string | undefined,
    onlySku: string | undefined,
  ): Promise<CardWithVariants[]> {
    const params: unknown[] = [region, cardUuids];
    const p = (v: unknown) => {
      params.push(v);
      return `$${params.length}`;
    };
    // The language rule does not apply to a single-variant lookup (interface.md rule 4).
    const conditions = this.variantConditions(filter, p, !onlyVariant, onlySku);
    const rows: (Record<string, unknown> & { card_uuid: string; stats: SeriesStats | null })[] =
      await this.ds.query(
        `SELECT c.uuid AS c_uuid, c.id AS c_id, c.game_id, s.id AS set_id, s.name AS set_name, c.name AS c_name, c.number,
              c.rarity, c.details, c.vendor_id, c.openset_id, c.imagedb_id, c.sealed, x.*
       FROM cards c
       JOIN sets s ON s.uuid = c.set_uuid
       LEFT JOIN LATERAL (
         SELECT v.uuid, v.id, v.card_uuid, v.type, v.condition, v.printing, v.language, v.vendor_sku_id,
                v.grading_company, v.grade, v.grade_label, v.grading_qualifier, vp.stats
         FROM variants v LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = $1
         WHERE v.card_uuid = c.uuid AND ${conditions}${onlyVariant ? ` AND ${variantRefClause(onlyVariant, p, 'v')}` : ''}
       ) x ON true
       WHERE c.uuid = ANY($2::uuid[])
       ORDER BY c.uuid, x.id`,
        params,
      );
    const byCard = new Map<string, CardWithVariants>();
    for (const r of rows) {
      let entry = byCard.get(r['c_uuid'] as string);
      if (!entry) {
        entry = {
          card: {
            uuid: r['c_uuid'] as string,
            id: r['c_id'] as string,
            gameId: r['game_id'] as string,
            setId: r['set_id'] as string,
            name: r['c_name'] as string,
            number: r['number'] as string | null,
            rarity: r['rarity'] as string | null,
            details: r['details'] as string | null,
            vendorId: r['vendor_id'] as string | null,
            opensetId: r['openset_id'] as string | null,
            imagedbId: r['imagedb_id'] as string | null,
            sealed: r['sealed'] as boolean,
          },
          setName: r['set_name'] as string,
          variants: [],
        };
        byCard.set(entry.card.uuid, entry);
      }
      if (r['uuid']) {
        const variant = toVariant({
          uuid: r['uuid'],
          id: r['id'],
          cardUuid: r['card_uuid'],
          type: r['type'],
          condition: r['condition'],
          printing: r['printing'],
          language: r['language'],
          vendorSkuId: r['vendor_sku_id'],
          gradingCompany: r['grading_company'],
          grade: r['grade'],
          gradeLabel: r['grade_label'],
          gradingQualifier: r['grading_qualifier'],
        } as VariantEntity);
        entry.variants.push({ variant, stats: r.stats });
      }
    }
    return cardUuids.map((u) => byCard.get(u)!).filter(Boolean);
  }

  /** SQL over `v` (variants) and `vp` (its prices) for the variant filters; v1 is raw only. */
  private variantConditions(
    filter: VariantFilter,
    p: (v: unknown) => string,
    withLanguage: boolean,
    onlySku?: string,
  ): string {
    const c = [`v.type = 'raw'`];
    if (filter.printings) c.push(`lower(v.printing) = ANY(${p(filter.printings)}::text[])`);
    if (filter.conditions) c.push(`v.condition = ANY(${p(filter.conditions)}::text[])`);
    if (withLanguage && filter.languages) c.push(`v.language = ANY(${p(filter.languages)}::text[])`);
    if (filter.updatedAfter !== undefined) c.push(`vp.updated_at > ${p(filter.updatedAfter)}`);
    if (onlySku) c.push(`v.vendor_sku_id = ${p(onlySku)}`);
    return c.join(' AND ');
  }
}

function variantRefClause(ref: string, p: (v: unknown) => string, alias = ''): string {
  const col = (name: string) => (alias ? `${alias}.${name}` : name);
  return /^[0-9a-f-]{36}$/i.test(ref)
    ? `${col('uuid')} = ${p(ref.toLowerCase())}::uuid`
    : `${col('id')} = ${p(ref)}`;
}

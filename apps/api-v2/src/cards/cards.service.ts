import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { invalidParameter, NotFoundError, PlanLimits, Region } from '@tcg/domain';
import {
  BatchIdentifier,
  CardKeysetRepository,
  CardSelector,
  VariantFilter,
  CardQueryRepository,
  CardWithVariants,
  KeysetQuery,
  TypeOrmCatalogueRepository,
} from '@tcg/persistence';
import { DataSource } from 'typeorm';
import { CursorCodec, CursorPosition } from './cursor/cursor-codec';
import { CardsV2Response, CardV2, CardV2Response, toCardV2 } from './dto/card-v2.dto';
import { Include, parseCardsV2Query, parseCardV2Query } from './dto/cards-v2-query';

/** A response body plus the headers that describe it (Link, X-Total-Count). */
export interface WithHeaders<T> {
  readonly body: T;
  readonly headers: Record<string, string>;
}

@Injectable()
export class CardsService {
  private readonly cards: CardQueryRepository;
  private readonly keyset: CardKeysetRepository;
  private readonly catalogue: TypeOrmCatalogueRepository;
  private readonly cursors: CursorCodec;
  private readonly countBudgetMs: number;

  constructor(ds: DataSource, config: ConfigService) {
    this.cards = new CardQueryRepository(ds);
    this.keyset = new CardKeysetRepository(ds);
    this.catalogue = new TypeOrmCatalogueRepository(ds);
    const secret =
      config.get<string>('CURSOR_SECRET') ??
      createHmac('sha256', config.getOrThrow<string>('INTERNAL_TOKEN')).update('v2-cursor').digest('hex');
    this.cursors = new CursorCodec(secret);
    this.countBudgetMs = config.getOrThrow<number>('TOTAL_COUNT_BUDGET_MS');
  }

  /**
   * GET /v2/cards. A lookup costs three queries (cards, variants with statistics per region,
   * history per region with data); a browse page adds the keyset page and a time-boxed count.
   */
  async list(raw: Record<string, unknown>, plan: PlanLimits): Promise<WithHeaders<CardsV2Response>> {
    const query = parseCardsV2Query(raw, plan.maxLimit);
    const storage = storageRegions(query.regions);
    const position =
      query.cursor === undefined ? undefined : this.cursors.decode(query.cursor, query.fingerprint);
    if (query.selector.by !== 'browse') {
      if (position)
        throw invalidParameter(
          'cursor',
          query.cursor!,
          'cursors page through a browse or search, not a lookup',
        );
      const data = await this.present(
        await this.lookup(query.selector, query.filter, storage),
        query.regions,
        query.include,
      );
      const total = data.length;
      const meta = {
        count: total,
        total,
        limit: query.limit,
        has_more: false,
        cursor: { next: null, prev: null },
      };
      return { body: { data, meta }, headers: { 'X-Total-Count': String(total) } };
    }
    const keysetQuery: KeysetQuery = {
      browse: {
        ...query.selector,
        gameId: query.game === undefined ? undefined : await this.gameId(query.game),
      },
      filter: query.filter,
      region: storage[0]!,
      orderBy: query.orderBy,
      direction: 'desc',
      minPrice: query.minPrice,
    };
    // A walk counts once, on its first page; its cursors carry the total to the later pages. The
    // count runs beside the page and its cards, not before them.
    const [{ page, loaded }, total] = await Promise.all([
      this.keyset.page(keysetQuery, query.limit, position).then(async (page) => ({
        page,
        loaded: await this.cards.loadCards(
          page.rows.map((r) => r.cardUuid),
          query.filter,
          storage,
          undefined,
          undefined,
        ),
      })),
      position?.total ?? this.keyset.count(keysetQuery, this.countBudgetMs),
    ]);
    const data = await this.present(loaded, query.regions, query.include);
    const cursor = this.cursorsOf(
      page.rows.map((r) => r.key),
      page.more,
      position,
      query.fingerprint,
      total,
    );
    const headers: Record<string, string> = {};
    if (total !== null) headers['X-Total-Count'] = String(total);
    const links = [
      cursor.next && `<${pageUrl(raw, cursor.next)}>; rel="next"`,
      cursor.prev && `<${pageUrl(raw, cursor.prev)}>; rel="prev"`,
    ].filter(Boolean);
    if (links.length > 0) headers['Link'] = links.join(', ');
    return {
      body: {
        data,
        meta: { count: data.length, total, limit: query.limit, has_more: cursor.next !== null, cursor },
      },
      headers,
    };
  }

  /** GET /v2/cards/{id}: one card by UUID or legacy slug; 404 when there is none. */
  async one(id: string, raw: Record<string, unknown>): Promise<CardV2Response> {
    const query = parseCardV2Query(raw);
    const storage = storageRegions(query.regions);
    const cards = await this.lookup({ by: 'card', ref: id }, query.filter, storage);
    if (cards.length === 0) throw new NotFoundError(`Card '${id}'`);
    const [card] = await this.present(cards, query.regions, query.include);
    return { data: card! };
  }

  /**
   * The card an identifier names, with the variants the filters return — possibly none: a card
   * that exists is returned even when none of its variants fit. A variant id or SKU returns that
   * one variant whatever its kind: like the language rule, the graded scope does not hide it.
   */
  private async lookup(
    selector: Exclude<CardSelector, { by: 'browse' }>,
    filter: VariantFilter,
    storage: string[],
  ): Promise<CardWithVariants[]> {
    const [by, value] = identifierOf(selector);
    const [match] = await this.cards.resolveIdentifiers([{ ordinal: 0, by, value }]);
    if (!match) return [];
    const scope = match.variantUuid ? { includeNullPrices: true, graded: 'include' as const } : filter;
    return this.cards.loadCards([match.cardUuid], scope, storage, match.variantUuid ?? undefined, undefined);
  }

  private async gameId(game: string): Promise<string> {
    const found = await this.catalogue.findGame(game);
    if (found) return found.id;
    const games = await this.catalogue.listGames();
    throw invalidParameter(
      'game',
      game,
      games.flatMap((g) => [g.id, g.name]),
    );
  }

  /** Next and previous cursors of a page read from `position` (none: the first page). */
  private cursorsOf(
    keys: string[][],
    more: boolean,
    position: CursorPosition | undefined,
    fingerprint: string,
    total: number | null,
  ): { next: string | null; prev: string | null } {
    const first = keys[0];
    const last = keys[keys.length - 1];
    const at = (key: readonly string[] | undefined, backward: boolean) =>
      key ? this.cursors.encode({ key, backward, ...(total === null ? {} : { total }) }, fingerprint) : null;
    if (position?.backward) {
      // Read backward from a `prev` cursor: the page it came from lies ahead.
      return { next: at(last, false), prev: more ? at(first, true) : null };
    }
    return { next: more ? at(last, false) : null, prev: position ? at(first ?? position.key, true) : null };
  }

  /** Cards to v2 DTOs, with one history query per region that has observations. */
  private async present(
    cards: CardWithVariants[],
    regions: readonly Region[],
    include: Include,
  ): Promise<CardV2[]> {
    const history = new Map<string, Map<string, { t: number[]; p: number[] }>>();
    if (include.historySeconds !== undefined) {
      const primary = regions[0]!.storageRegion;
      for (const region of storageRegions(regions)) {
        // Each variant observed in this region, back from its own latest observation there.
        const since = new Map<string, number>();
        for (const c of cards)
          for (const v of c.variants) {
            const latest = (region === primary ? v.stats : v.otherRegions?.[region])?.current?.t;
            if (latest !== undefined) since.set(v.variant.uuid, latest - include.historySeconds);
          }
        if (since.size > 0) history.set(region, await this.cards.priceHistory(since, region));
      }
    }
    return cards.map((c) => toCardV2(c, regions, include, history));
  }
}

/** The batch-lookup identifier that resolves a selector (one shared resolution path). */
function identifierOf(selector: Exclude<CardSelector, { by: 'browse' }>): [BatchIdentifier, string] {
  switch (selector.by) {
    case 'variant':
      return ['variantId', selector.ref];
    case 'vendorSku':
      return ['vendorSkuId', selector.sku];
    case 'card':
      return ['cardId', selector.ref];
    default:
      return [selector.by, selector.value];
  }
}

/** The distinct storage regions to read, primary first (`US` and `NA` are one). */
function storageRegions(regions: readonly Region[]): string[] {
  return [...new Set(regions.map((r) => r.storageRegion))];
}

/** The same request with another cursor: a relative reference, valid behind any host. */
function pageUrl(raw: Record<string, unknown>, cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(raw)) {
    if (name === 'cursor') continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
  }
  params.set('cursor', cursor);
  return `/v2/cards?${params.toString()}`;
}

import { createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  CardKeysetReads,
  CatalogueRepository,
  IdentifierSelector,
  invalidParameter,
  JoinedCard,
  KeysetQuery,
  NotFoundError,
  PriceSeries,
  Region,
  required,
  requireGame,
  VariantFilter,
} from '@tcg/domain';
import {
  ALL_PERIOD_WINDOWS,
  CardWithVariants,
  DEFAULT_HISTORY_SECONDS,
  JoinedVariantJson,
  listJson,
  RenderedCardReads,
  SeriesRead,
  StoredSeries,
  v2CardJson,
  v2HistoryMember,
  v2JoinedJson,
  v2MarketJson,
  v2PeriodsMember,
  v2Unpriced,
  v2VariantJson,
} from '@tcg/rendering';
import { CARD_KEYSET_READS, CARD_READS, CATALOGUE } from '@tcg/persistence/nest';
import { Environment } from '../config/environment';
import { CursorCodec, CursorPosition } from './cursor/cursor-codec';
import { CardShape } from './dto/card-v2-query.schema';
import { CardsV2Query, Include } from './dto/cards-v2-query.schema';

/** A response body's JSON text (its parts in order) plus the headers that describe it (Link, X-Total-Count). */
export interface JsonWithHeaders {
  readonly json: readonly string[];
  readonly headers: Record<string, string>;
}

@Injectable()
export class CardsService {
  private readonly cursors: CursorCodec;
  private readonly countBudgetMs: number;

  constructor(
    @Inject(CARD_READS) private readonly cards: RenderedCardReads,
    @Inject(CARD_KEYSET_READS) private readonly keyset: CardKeysetReads,
    @Inject(CATALOGUE) private readonly catalogue: CatalogueRepository,
    env: Environment,
  ) {
    const secret =
      env.CURSOR_SECRET ?? createHmac('sha256', env.INTERNAL_TOKEN).update('v2-cursor').digest('hex');
    this.cursors = new CursorCodec(secret);
    this.countBudgetMs = env.TOTAL_COUNT_BUDGET_MS;
  }

  /**
   * GET /v2/cards. A lookup costs two statements (the identifier; the card with its variants'
   * JSON joined in SQL), a browse page the keyset page, the joined cards and a time-boxed count;
   * options whose parts are not all stored read series and history and render them instead.
   */
  async list(query: CardsV2Query, raw: Record<string, unknown>): Promise<JsonWithHeaders> {
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
      const data = await this.lookup(query.selector, query.filter, query.regions, query.include);
      const total = data.length;
      const meta = {
        count: total,
        total,
        limit: query.limit,
        has_more: false,
        cursor: { next: null, prev: null },
      };
      return { json: listJson(data, meta), headers: { 'X-Total-Count': String(total) } };
    }
    const keysetQuery: KeysetQuery = {
      browse: {
        ...query.selector,
        gameId: query.game === undefined ? undefined : (await requireGame(this.catalogue, query.game)).id,
      },
      filter: query.filter,
      region: storage[0]!,
      orderBy: query.orderBy,
      direction: 'desc',
      minPrice: query.minPrice,
    };
    // A walk counts once, on its first page; its cursors carry the total to the later pages. The
    // count runs beside the page and its cards, not before them.
    const [{ page, data }, total] = await Promise.all([
      this.keyset.page(keysetQuery, query.limit, position).then(async (page) => ({
        page,
        data: await this.loadCards(
          page.rows.map((r) => r.cardUuid),
          query.filter,
          query.regions,
          query.include,
        ),
      })),
      position?.total ?? this.keyset.count(keysetQuery, this.countBudgetMs),
    ]);
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
      json: listJson(data, {
        count: data.length,
        total,
        limit: query.limit,
        has_more: cursor.next !== null,
        cursor,
      }),
      headers,
    };
  }

  /** GET /v2/cards/{id}: one card by UUID or legacy slug; 404 when there is none. */
  async one(id: string, query: CardShape): Promise<string> {
    const [card] = await this.lookup({ by: 'cardId', value: id }, query.filter, query.regions, query.include);
    if (card === undefined) throw new NotFoundError(`Card '${id}'`);
    return `{"data":${card}}`;
  }

  /**
   * The card an identifier names, with the variants the filters return — possibly none: a card
   * that exists is returned even when none of its variants fit. A variant id or SKU returns that
   * one variant whatever its kind: like the language rule, the graded scope does not hide it.
   */
  private async lookup(
    selector: IdentifierSelector,
    filter: VariantFilter,
    regions: readonly Region[],
    include: Include,
  ): Promise<string[]> {
    // A card by UUID or slug whose parts are stored: found and joined in one statement.
    const joined = selector.by === 'cardId' ? joinedJson(regions, include) : undefined;
    if (selector.by === 'cardId' && joined) {
      const card = await this.cards.findJoinedCard(selector.value, filter, regions[0]!.storageRegion, joined);
      return card ? [cardJson(card)] : [];
    }
    const [match] = await this.cards.resolveIdentifiers([{ ordinal: 0, ...selector }]);
    if (!match) return [];
    const scope = match.variantUuid ? { includeNullPrices: true, graded: 'include' as const } : filter;
    return this.loadCards([match.cardUuid], scope, regions, include, match.variantUuid ?? undefined);
  }

  /**
   * Cards as v2 JSON texts: with one market whose every part the options ask for is stored, the
   * variants are joined in SQL in the same statement as the cards; otherwise the variants' series
   * are read and the markets rendered here.
   */
  private async loadCards(
    cardUuids: string[],
    filter: VariantFilter,
    regions: readonly Region[],
    include: Include,
    onlyVariant?: string,
  ): Promise<string[]> {
    const joined = joinedJson(regions, include);
    if (joined) {
      const cards = await this.cards.loadJoinedCards(
        cardUuids,
        filter,
        regions[0]!.storageRegion,
        joined,
        onlyVariant,
      );
      return cards.map(cardJson);
    }
    const read = seriesRead(include);
    const cards = await this.cards.loadCards(
      cardUuids,
      filter,
      storageRegions(regions),
      read,
      onlyVariant,
      undefined,
    );
    return this.present(cards, regions, include, read);
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

  /**
   * Cards as v2 JSON texts. What default options ask for was rendered when the prices arrived and
   * is joined as it is; other period windows are rendered from the statistics, and other history
   * windows from one history query per region that has observations.
   */
  private async present(
    cards: CardWithVariants[],
    regions: readonly Region[],
    include: Include,
    read: SeriesRead,
  ): Promise<string[]> {
    const stored = new Set(read.parts);
    const primary = regions[0]!.storageRegion;
    const seriesIn = (pv: CardWithVariants['variants'][number], region: string): StoredSeries | null =>
      (region === primary ? pv.primary : pv.otherRegions?.[region]) ?? null;
    const history = new Map<string, Map<string, PriceSeries>>();
    const seconds = include.historySeconds;
    if (seconds !== undefined && !stored.has('v2History')) {
      for (const region of storageRegions(regions)) {
        // Each variant observed in this region, back from its own latest observation there.
        const since = new Map<string, number>();
        for (const c of cards)
          for (const v of c.variants) {
            const latest = seriesIn(v, region)?.updatedAt;
            if (latest !== undefined) since.set(v.variant.uuid, latest - seconds);
          }
        if (since.size > 0) history.set(region, await this.cards.priceHistory(since, region));
      }
    }
    /**
     * One market per requested region. A region without observations gets `price: null` and empty
     * components — never another region's figures (docs/spec/interface.md Regions rule 4).
     */
    const market = (pv: CardWithVariants['variants'][number], region: Region): string => {
      const s = seriesIn(pv, region.storageRegion);
      // The price members are always read stored (seriesRead).
      const empty = v2Unpriced(region.currency);
      const parts = [s ? required(s, 'v2Price') : empty.price];
      if (include.withPeriods)
        parts.push(
          s === null
            ? empty.periods
            : stored.has('v2Periods')
              ? required(s, 'v2Periods')
              : v2PeriodsMember(required(s, 'stats'), region.currency, include.periods),
        );
      if (seconds !== undefined)
        parts.push(
          s === null
            ? empty.history
            : stored.has('v2History')
              ? required(s, 'v2History')
              : v2HistoryMember(
                  s.updatedAt,
                  history.get(region.storageRegion)?.get(pv.variant.uuid),
                  seconds,
                  region.currency,
                ),
        );
      return v2MarketJson(region.code, region.currency, parts);
    };
    return cards.map((c) =>
      v2CardJson(
        c.card,
        c.gameName,
        c.setName,
        c.variants.map((v) =>
          v2VariantJson(
            v.variant,
            regions.map((r) => market(v, r)),
          ),
        ),
      ),
    );
  }
}

/**
 * How a variant's JSON is joined in SQL when the request asks for one market and every part of it
 * is stored: every period window or none, and the default history or none. Undefined: the options
 * need rendering.
 */
function joinedJson(regions: readonly Region[], include: Include): JoinedVariantJson | undefined {
  const region = regions[0]!;
  const stored = storedParts(include);
  if (regions.length !== 1) return undefined;
  if (include.withPeriods && !stored.periods) return undefined;
  if (include.historySeconds !== undefined && !stored.history) return undefined;
  return v2JoinedJson(
    region.code,
    region.currency,
    include.withPeriods,
    include.historySeconds !== undefined,
  );
}

/**
 * What a request's markets need of each series: the stored parts its `include` allows (every
 * period window, the default 7 days of history), else statistics.
 */
function seriesRead(include: Include): SeriesRead {
  const stored = storedParts(include);
  return {
    stats: include.withPeriods && !stored.periods,
    parts: [
      'v2Price',
      ...(include.withPeriods && stored.periods ? (['v2Periods'] as const) : []),
      ...(stored.history ? (['v2History'] as const) : []),
    ],
  };
}

/**
 * Which parts of a request's markets were rendered when prices arrived: the periods when it asks
 * for every window, the history when it asks for the default window. One answer for the joined
 * read, the series read and the rendering, so they cannot disagree.
 */
function storedParts(include: Include): { readonly periods: boolean; readonly history: boolean } {
  return {
    periods: include.periods.size === ALL_PERIOD_WINDOWS.size,
    history: include.historySeconds === DEFAULT_HISTORY_SECONDS,
  };
}

/** A card as v2 JSON around its variants joined in SQL. */
function cardJson(c: JoinedCard): string {
  return v2CardJson(c.card, c.gameName, c.setName, [c.variantsJson]);
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

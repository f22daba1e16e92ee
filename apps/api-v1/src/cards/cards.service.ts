import { Inject, Injectable } from '@nestjs/common';
import { CatalogueRepository, JoinedCard, required, requireGame } from '@tcg/domain';
import {
  CardWithVariants,
  DEFAULT_HISTORY_SECONDS,
  HISTORY_DURATIONS,
  historyLookbackSeconds,
  listJson,
  STATISTIC_WINDOWS,
  JoinedVariantJson,
  RenderedCardReads,
  SeriesRead,
  V1_NO_HISTORY,
  V1_NO_POINTS,
  V1_UNPRICED_STATS,
  V1_REGION,
  v1CardJson,
  v1HistoryMembers,
  v1JoinedJson,
  v1StatsMembers,
  v1VariantJson,
} from '@tcg/rendering';
import { CARD_READS, CATALOGUE } from '@tcg/persistence/nest';
import { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { planOf } from '../common/send-options';
import { BatchItem, MAX_BATCH_ITEMS, parseBatch } from './dto/batch-items.schema';
import { CardsQuery, parseCardsQuery } from './dto/cards-query.schema';

const REGION = V1_REGION;

@Injectable()
export class CardsService {
  constructor(
    @Inject(CARD_READS) private readonly cards: RenderedCardReads,
    @Inject(CATALOGUE) private readonly catalogue: CatalogueRepository,
  ) {}

  /**
   * GET /v1/cards: two statements per page whatever its size: the page, then its cards with their
   * variants' JSON joined in SQL from what was rendered when prices arrived. Options that need
   * other statistics windows or another history duration read the cards beside their variants'
   * statistics instead, and history, and render those per request.
   */
  async search(query: CardsQuery): Promise<string[]> {
    let selector = query.selector;
    if (selector.by === 'browse' && query.game) {
      const game = await requireGame(this.catalogue, query.game);
      selector = { ...selector, gameId: game.id };
    }
    const range = { limit: query.limit, offset: query.offset };
    const joined = joinedJson(query);
    const page = joined
      ? await this.cards
          .findJoinedCards(selector, query.filter, range, REGION, query.order, joined)
          .then(({ total, cards }) => ({ total, cards: cards.map(cardJson) }))
      : await this.cards
          .findCards(selector, query.filter, range, REGION, query.order, seriesRead(query))
          .then(async ({ total, cards }) => ({ total, cards: await this.present(cards, query) }));
    return listJson(page.cards, {
      total: page.total,
      limit: query.limit,
      offset: query.offset,
      hasMore: query.offset + page.cards.length < page.total,
    });
  }

  /**
   * POST /v1/cards: every lookup of the batch in request order, each card once (at its first
   * lookup, with that lookup's filters). Two statements whatever the batch size when every
   * lookup takes whole cards and the options are stored: identifiers, then the cards with their
   * variants' JSON joined in SQL; otherwise identifiers, cards beside their variants' series, and
   * history when asked for. Presentation options come from the query string, as on GET.
   */
  async batch(body: unknown, raw: Record<string, unknown>, usage: UsageMetadataDto): Promise<string[]> {
    const plan = planOf(usage);
    const items = parseBatch(body, Math.min(plan.maxBatch, MAX_BATCH_ITEMS), usage.apiPlan);
    const query = parseCardsQuery(raw, plan.maxLimit);
    const order: { cardUuid: string; item: (typeof items)[number]; onlyVariant: string | null }[] = [];
    const seen = new Set<string>();
    for (const m of await this.cards.resolveIdentifiers(items)) {
      if (seen.has(m.cardUuid)) continue;
      seen.add(m.cardUuid);
      order.push({ cardUuid: m.cardUuid, item: items[m.ordinal]!, onlyVariant: m.variantUuid });
    }
    // Lookups that take whole cards are joined in SQL like a GET's; filters per lookup are applied here.
    const joined = joinedJson(query);
    if (joined && order.every(({ item, onlyVariant }) => !onlyVariant && !filtersVariants(item))) {
      const cards = await this.cards.loadJoinedCards(
        order.map((o) => o.cardUuid),
        { includeNullPrices: true },
        REGION,
        joined,
      );
      return listJson(cards.map(cardJson), {
        total: cards.length,
        limit: items.length,
        offset: 0,
        hasMore: false,
      });
    }
    const loaded = new Map(
      (
        await this.cards.cardsWithAllVariants(
          order.map((o) => o.cardUuid),
          REGION,
          seriesRead(query),
        )
      ).map((c) => [c.card.uuid, c]),
    );
    const cards: CardWithVariants[] = [];
    for (const { cardUuid, item, onlyVariant } of order) {
      const c = loaded.get(cardUuid)!;
      const variants = c.variants.filter(
        ({ variant: v, primary }) =>
          (!onlyVariant || v.uuid === onlyVariant) &&
          (!item.printings || item.printings.includes(v.printing.toLowerCase())) &&
          (!item.conditions || (v.condition !== null && item.conditions.includes(v.condition))) &&
          (item.updatedAfter === undefined || (primary?.updatedAt ?? -1) > item.updatedAfter),
      );
      // Delta sync: a card none of whose variants changed after updated_after is left out.
      if (item.updatedAfter !== undefined && variants.length === 0) continue;
      cards.push({ ...c, variants });
    }
    return listJson(await this.present(cards, query), {
      total: cards.length,
      limit: items.length,
      offset: 0,
      hasMore: false,
    });
  }

  /**
   * Cards as v1 JSON texts. What default options ask for was rendered when the prices arrived and
   * is joined as it is; other statistics windows are rendered from the statistics, and other
   * history durations from one history query for all the variants.
   */
  private async present(cards: CardWithVariants[], query: CardsQuery): Promise<string[]> {
    const durationSeconds = HISTORY_DURATIONS[query.historyDuration];
    const stored = storedParts(query);
    // Each priced variant's history back from its own latest observation, over the longer of the
    // requested duration and the 30 days of `priceHistory30d`.
    const since = new Map<string, number>();
    if (query.includeHistory && !stored.history) {
      const back = historyLookbackSeconds(durationSeconds);
      for (const c of cards)
        for (const v of c.variants) if (v.primary) since.set(v.variant.uuid, v.primary.updatedAt - back);
    }
    const history = await this.cards.priceHistory(since, REGION);
    const unpricedHistory = query.includeHistory ? V1_NO_POINTS : V1_NO_HISTORY;
    return cards.map((c) =>
      v1CardJson(
        c.card,
        c.setName,
        c.variants.map(({ variant, primary: s }) =>
          s === null
            ? v1VariantJson(variant, V1_UNPRICED_STATS, unpricedHistory)
            : v1VariantJson(
                variant,
                stored.stats
                  ? required(s, 'v1Stats')
                  : v1StatsMembers(required(s, 'stats'), query.statistics),
                !query.includeHistory
                  ? V1_NO_HISTORY
                  : stored.history
                    ? required(s, 'v1History')
                    : v1HistoryMembers(s.updatedAt, history.get(variant.uuid), durationSeconds),
              ),
        ),
      ),
    );
  }
}

/** A batch lookup that narrows its card's variants. */
function filtersVariants(item: BatchItem): boolean {
  return item.printings !== undefined || item.conditions !== undefined || item.updatedAfter !== undefined;
}

/** A card as v1 JSON around its variants joined in SQL. */
function cardJson(c: JoinedCard): string {
  return v1CardJson(c.card, c.setName, [c.variantsJson]);
}

/**
 * How a variant's JSON is joined in SQL when every part the options ask for is stored: every
 * statistics window, and the default history or none. Undefined: the options need rendering.
 */
function joinedJson(query: CardsQuery): JoinedVariantJson | undefined {
  const stored = storedParts(query);
  if (!stored.stats || (query.includeHistory && !stored.history)) return undefined;
  return v1JoinedJson(query.includeHistory);
}

/** What a request's variants need of their NA series: the stored parts its options allow, else statistics. */
function seriesRead(query: CardsQuery): SeriesRead {
  const stored = storedParts(query);
  return {
    stats: !stored.stats,
    parts: [
      ...(stored.stats ? (['v1Stats'] as const) : []),
      ...(query.includeHistory && stored.history ? (['v1History'] as const) : []),
    ],
  };
}

/**
 * Which parts of a request's variants were rendered when prices arrived: the statistics when it
 * asks for every window, the history when it asks for the default duration. One answer for the
 * joined read, the series read and the rendering, so they cannot disagree.
 */
function storedParts(query: CardsQuery): { readonly stats: boolean; readonly history: boolean } {
  return {
    stats: query.statistics.size === STATISTIC_WINDOWS.length,
    history: HISTORY_DURATIONS[query.historyDuration] === DEFAULT_HISTORY_SECONDS,
  };
}

import { Inject, Injectable } from '@nestjs/common';
import { CatalogueRepository, invalidParameter } from '@tcg/domain';
import { CardQueryRepository, CardWithVariants } from '@tcg/persistence';
import { DataSource } from 'typeorm';
import { CATALOGUE } from '../catalogue/catalogue.module';
import { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { planOf } from '../common/send-options';
import { MAX_BATCH_ITEMS, parseBatch } from './dto/batch-items';
import { CardDto, CardsResponseDto, toCardDto, toVariantDto } from './dto/card.dto';
import { CardsQuery, HISTORY_DURATIONS, historyLookbackSeconds, parseCardsQuery } from './dto/cards-query';

const REGION = 'NA'; // v1 prices are NA (US) prices

@Injectable()
export class CardsService {
  private readonly cards: CardQueryRepository;

  constructor(
    ds: DataSource,
    @Inject(CATALOGUE) private readonly catalogue: CatalogueRepository,
  ) {
    this.cards = new CardQueryRepository(ds);
  }

  /**
   * GET /v1/cards: three round trips per page whatever its size (the page; its cards beside their
   * variants with statistics; history).
   */
  async search(raw: Record<string, unknown>, usage: UsageMetadataDto): Promise<CardsResponseDto> {
    const query = parseCardsQuery(raw, planOf(usage).maxLimit);
    let selector = query.selector;
    if (selector.by === 'browse' && query.game) {
      const game = await this.catalogue.findGame(query.game);
      if (!game) {
        throw invalidParameter(
          'game',
          query.game,
          (await this.catalogue.listGames()).flatMap((g) => [g.id, g.name]),
        );
      }
      selector = { ...selector, gameId: game.id };
    }
    const page = await this.cards.findCards(
      selector,
      query.filter,
      { limit: query.limit, offset: query.offset },
      REGION,
      query.order,
    );
    return {
      data: await this.present(page.cards, query),
      meta: {
        total: page.total,
        limit: query.limit,
        offset: query.offset,
        hasMore: query.offset + page.cards.length < page.total,
      },
      _metadata: usage,
    };
  }

  /**
   * POST /v1/cards: every lookup of the batch in request order, each card once (at its first
   * lookup, with that lookup's filters). Three queries whatever the batch size: identifiers,
   * cards with variants, history. Presentation options come from the query string, as on GET.
   */
  async batch(
    body: unknown,
    raw: Record<string, unknown>,
    usage: UsageMetadataDto,
  ): Promise<CardsResponseDto> {
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
    const loaded = new Map(
      (
        await this.cards.cardsWithAllVariants(
          order.map((o) => o.cardUuid),
          REGION,
        )
      ).map((c) => [c.card.uuid, c]),
    );
    const cards: CardWithVariants[] = [];
    for (const { cardUuid, item, onlyVariant } of order) {
      const c = loaded.get(cardUuid)!;
      const variants = c.variants.filter(
        ({ variant: v, stats }) =>
          (!onlyVariant || v.uuid === onlyVariant) &&
          (!item.printings || item.printings.includes(v.printing.toLowerCase())) &&
          (!item.conditions || (v.condition !== null && item.conditions.includes(v.condition))) &&
          (item.updatedAfter === undefined || (stats?.current?.t ?? -1) > item.updatedAfter),
      );
      // Delta sync: a card none of whose variants changed after updated_after is left out.
      if (item.updatedAfter !== undefined && variants.length === 0) continue;
      cards.push({ ...c, variants });
    }
    return {
      data: await this.present(cards, query),
      meta: { total: cards.length, limit: items.length, offset: 0, hasMore: false },
      _metadata: usage,
    };
  }

  /** Cards to v1 DTOs, with one history query for all their variants. */
  private async present(cards: CardWithVariants[], query: CardsQuery): Promise<CardDto[]> {
    const durationSeconds = HISTORY_DURATIONS[query.historyDuration];
    // Each priced variant's history back from its own latest observation, over the longer of
    // the requested duration and the 30 days of `priceHistory30d`.
    const since = new Map<string, number>();
    if (query.includeHistory) {
      const back = historyLookbackSeconds(durationSeconds);
      for (const c of cards)
        for (const v of c.variants) {
          const latest = v.stats?.current?.t;
          if (latest !== undefined) since.set(v.variant.uuid, latest - back);
        }
    }
    const history = await this.cards.priceHistory(since, REGION);
    const opts = { windows: query.statistics, includeHistory: query.includeHistory, durationSeconds };
    return cards.map((c) =>
      toCardDto(
        c,
        c.variants.map((v) => toVariantDto(v, history.get(v.variant.uuid), opts)),
      ),
    );
  }
}

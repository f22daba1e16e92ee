import { Inject, Injectable } from '@nestjs/common';
import { CatalogueRepository, invalidParameter, isPlanName, PLANS } from '@tcg/domain';
import { CardQueryRepository } from '@tcg/persistence';
import { DataSource } from 'typeorm';
import { CATALOGUE } from '../catalogue/catalogue.module';
import { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { CardsResponseDto, toCardDto, toVariantDto } from './dto/card.dto';
import { HISTORY_DURATIONS, parseCardsQuery } from './dto/cards-query';

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

  /** GET /v1/cards: three queries per page (cards, variants with statistics, history), whatever its size. */
  async search(raw: Record<string, unknown>, usage: UsageMetadataDto): Promise<CardsResponseDto> {
    const maxLimit = isPlanName(usage.apiPlan) ? PLANS[usage.apiPlan].maxLimit : PLANS.free.maxLimit;
    const query = parseCardsQuery(raw, maxLimit);
    let selector = query.selector;
    if (selector.by === 'browse' && query.game) {
      const game = await this.catalogue.findGame(query.game);
      if (!game)
        throw invalidParameter(
          'game',
          query.game,
          (await this.catalogue.listGames()).flatMap((g) => [g.id, g.name]),
        );
      selector = { ...selector, gameId: game.id };
    }
    const page = await this.cards.findCards(
      selector,
      query.filter,
      { limit: query.limit, offset: query.offset },
      REGION,
    );

    const durationSeconds = HISTORY_DURATIONS[query.historyDuration];
    const variants = page.cards.flatMap((c) => c.variants);
    const latest = variants.map((v) => v.stats?.current?.t).filter((t): t is number => t !== undefined);
    const history =
      query.includeHistory && latest.length > 0
        ? await this.cards.priceHistory(
            variants.map((v) => v.variant.uuid),
            REGION,
            Math.min(...latest) - Math.max(durationSeconds, HISTORY_DURATIONS['30d']),
          )
        : new Map<string, { t: number[]; p: number[] }>();
    const opts = { windows: query.statistics, includeHistory: query.includeHistory, durationSeconds };

    return {
      data: page.cards.map((c) =>
        toCardDto(
          c,
          c.variants.map((v) => toVariantDto(v, history.get(v.variant.uuid), opts)),
        ),
      ),
      meta: {
        total: page.total,
        limit: query.limit,
        offset: query.offset,
        hasMore: query.offset + page.cards.length < page.total,
      },
      _metadata: usage,
    };
  }
}

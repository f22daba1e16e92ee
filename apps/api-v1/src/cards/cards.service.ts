import { Inject, Injectable } from '@nestjs/common';
import { RenderedCardReads, v1BatchView, v1CardsView } from '@tcg/rendering';
import { CARD_READS, CATALOGUE, CatalogueRepository, requireGame } from '@tcg/persistence';
import { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { planOf } from '../common/send-options';
import { MAX_BATCH_ITEMS, parseBatch } from './dto/batch-items.schema';
import { CardsQuery, parseCardsQuery } from './dto/cards-query.schema';

/** The v1 card routes: each parses its request, chooses its view (`@tcg/rendering`), reads what the view needs and sends what it writes. */
@Injectable()
export class CardsService {
  constructor(
    @Inject(CARD_READS) private readonly cards: RenderedCardReads,
    @Inject(CATALOGUE) private readonly catalogue: CatalogueRepository,
  ) {}

  /**
   * GET /v1/cards: the view decides how the page's variants are read (card-view.ts): joined in SQL
   * from what was rendered when prices arrived (two statements per page whatever its size), or,
   * for options that need other statistics windows or another history duration, beside their
   * statistics and history, rendered per request.
   */
  async search(query: CardsQuery): Promise<{ json: string[]; cards?: readonly string[] }> {
    const view = v1CardsView(query);
    let selector = query.selector;
    if (selector.by === 'browse' && query.game)
      selector = { ...selector, gameId: (await requireGame(this.catalogue, query.game)).id };
    const range = { limit: query.limit, offset: query.offset };
    const { total, cards, madeOf } = await view.search(
      this.cards,
      selector,
      query.filter,
      range,
      query.order,
    );
    return { json: view.page(total, cards), cards: madeOf };
  }

  /**
   * POST /v1/cards. Two statements whatever the batch size when every lookup takes whole cards
   * and the options are stored: identifiers, then the cards with their variants' JSON joined in
   * SQL; otherwise identifiers, cards beside their variants' series, and history when asked for.
   * Presentation options come from the query string, as on GET.
   */
  async batch(body: unknown, raw: Record<string, unknown>, usage: UsageMetadataDto): Promise<string[]> {
    const plan = planOf(usage);
    const items = parseBatch(body, Math.min(plan.maxBatch, MAX_BATCH_ITEMS), usage.apiPlan);
    const view = v1BatchView(parseCardsQuery(raw, plan.maxLimit), items);
    const cards = view.cardsOf(await this.cards.resolveIdentifiers(items));
    const uuids = cards.map((c) => c.cardUuid);
    const read = await this.cards.loadCards(uuids, { includeNullPrices: true }, view.variantsFor(cards));
    return view.answer(await view.write(view.narrow(cards, read), this.cards));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import { CatalogueRepository, requireGame } from '@tcg/domain';
import { RenderedCardReads, v1BatchView, v1CardsView } from '@tcg/rendering';
import { CARD_READS, CATALOGUE } from '@tcg/persistence/nest';
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
   * GET /v1/cards: two statements per page whatever its size: the page, then its cards with their
   * variants' JSON joined in SQL from what was rendered when prices arrived. Options that need
   * other statistics windows or another history duration read the cards beside their variants'
   * statistics instead, and history, and render those per request.
   */
  async search(query: CardsQuery): Promise<string[]> {
    const view = v1CardsView(query);
    let selector = query.selector;
    if (selector.by === 'browse' && query.game)
      selector = { ...selector, gameId: (await requireGame(this.catalogue, query.game)).id };
    const { filter, order } = query;
    const range = { limit: query.limit, offset: query.offset };
    if (view.joined) {
      const page = await this.cards.findJoinedCards(selector, filter, range, view.region, order, view.joined);
      return view.page(page.total, view.joinedCards(page.cards));
    }
    const page = await this.cards.findCards(selector, filter, range, view.region, order, view.read);
    return view.page(page.total, await view.render(page.cards, this.cards));
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
    const joined = view.joinedFor(cards);
    if (joined) {
      const read = await this.cards.loadJoinedCards(uuids, { includeNullPrices: true }, view.region, joined);
      return view.answer(view.joinedCards(read));
    }
    const read = await this.cards.cardsWithAllVariants(uuids, view.region, view.read);
    return view.answer(await view.render(view.narrow(cards, read), this.cards));
  }
}

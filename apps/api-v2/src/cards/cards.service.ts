import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError } from '@tcg/domain';
import { JsonWithHeaders, RenderedCardReads, v2CardsView, v2CardView } from '@tcg/rendering';
import { CARD_READS } from '@tcg/persistence';
import { CardPages } from './cursor/card-pages';
import { CardShape } from './dto/card-v2-query.schema';
import { CardsV2Query } from './dto/cards-v2-query.schema';

/** The v2 card routes: each chooses its view (`@tcg/rendering`), reads what the view needs and sends what it writes. */
@Injectable()
export class CardsService {
  constructor(
    @Inject(CARD_READS) private readonly cards: RenderedCardReads,
    private readonly pages: CardPages,
  ) {}

  /**
   * GET /v2/cards. A lookup costs two statements (the identifier; the card with its variants'
   * JSON joined in SQL), a browse page the keyset page, the joined cards and a time-boxed count;
   * options whose parts are not all stored read series and history and render them instead.
   */
  async list(query: CardsV2Query, raw: Record<string, unknown>): Promise<JsonWithHeaders> {
    const view = v2CardsView(query, raw);
    if (query.selector.by === 'browse') return this.pages.page(query, view);
    this.pages.refuseCursor(query);
    return view.lookup(await view.byIdentifier(this.cards, query.selector, query.filter));
  }

  /** GET /v2/cards/{id}: one card by UUID or legacy slug, and what it is made of; 404 when there is none. */
  async one(id: string, query: CardShape): Promise<{ json: string; cards?: readonly string[] }> {
    const view = v2CardView(query);
    const found = await view.byIdentifier(this.cards, { by: 'cardId', value: id }, query.filter);
    const [card] = found.cards;
    if (card === undefined) throw new NotFoundError(`Card '${id}'`);
    return { json: view.one(card), cards: found.madeOf };
  }
}

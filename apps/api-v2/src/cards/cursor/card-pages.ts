import { Inject, Injectable } from '@nestjs/common';
import { KeysetQuery } from '@tcg/domain';
import { JsonWithHeaders, RenderedCardReads, V2CardsView } from '@tcg/rendering';
import {
  CARD_KEYSET_READS,
  CARD_READS,
  CardKeysetReads,
  CATALOGUE,
  CatalogueRepository,
  requireGame,
} from '@tcg/persistence';
import { Environment } from '../../config/environment';
import { CardsV2Query } from '../dto/cards-v2-query.schema';
import { CardCursors } from './page-cursors';

/**
 * The pages of a browse or search of GET /v2/cards: the keyset page, its cards, and the walk's
 * total, counted (time-boxed) on its first page and carried by its cursors to the later ones.
 */
@Injectable()
export class CardPages {
  private readonly cursors: CardCursors;
  private readonly countBudgetMs: number;

  constructor(
    @Inject(CARD_READS) private readonly cards: RenderedCardReads,
    @Inject(CARD_KEYSET_READS) private readonly keyset: CardKeysetReads,
    @Inject(CATALOGUE) private readonly catalogue: CatalogueRepository,
    env: Environment,
  ) {
    this.cursors = new CardCursors(env);
    this.countBudgetMs = env.TOTAL_COUNT_BUDGET_MS;
  }

  /** Refuses a lookup's cursor with a 400, as a page refuses a cursor it cannot open. */
  refuseCursor(query: CardsV2Query): void {
    this.cursors.position(query);
  }

  /** The page the query's cursor (or none: the first) points to, in the view's shape. */
  async page(query: CardsV2Query, view: V2CardsView): Promise<JsonWithHeaders> {
    if (query.selector.by !== 'browse') throw new Error('a lookup has no pages');
    const position = this.cursors.position(query);
    const keysetQuery: KeysetQuery = {
      browse: {
        ...query.selector,
        gameId: query.game === undefined ? undefined : (await requireGame(this.catalogue, query.game)).id,
      },
      filter: query.filter,
      region: view.region,
      orderBy: query.orderBy,
      direction: 'desc',
      minPrice: query.minPrice,
    };
    // The count runs beside the page and its cards, not before them.
    const [{ page, data }, total] = await Promise.all([
      this.keyset.page(keysetQuery, query.limit, position).then(async (page) => ({
        page,
        data: await view.load(
          this.cards,
          page.rows.map((r) => r.cardUuid),
          query.filter,
        ),
      })),
      position?.total ?? this.keyset.count(keysetQuery, this.countBudgetMs),
    ]);
    return view.page(data, total, this.cursors.around(page, position, query.fingerprint, total));
  }
}

import { Inject, Injectable } from '@nestjs/common';
import {
  CardKeysetReads,
  CatalogueRepository,
  IdentifierSelector,
  KeysetQuery,
  NotFoundError,
  requireGame,
  VariantFilter,
} from '@tcg/domain';
import { CardView, JsonWithHeaders, RenderedCardReads, v2CardsView, v2CardView } from '@tcg/rendering';
import { CARD_KEYSET_READS, CARD_READS, CATALOGUE } from '@tcg/persistence/nest';
import { Environment } from '../config/environment';
import { CardCursors } from './cursor/page-cursors';
import { CardShape } from './dto/card-v2-query.schema';
import { CardsV2Query } from './dto/cards-v2-query.schema';

/** The v2 card routes: each chooses its view (`@tcg/rendering`), reads what the view needs and sends what it writes. */
@Injectable()
export class CardsService {
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

  /**
   * GET /v2/cards. A lookup costs two statements (the identifier; the card with its variants'
   * JSON joined in SQL), a browse page the keyset page, the joined cards and a time-boxed count;
   * options whose parts are not all stored read series and history and render them instead.
   */
  async list(query: CardsV2Query, raw: Record<string, unknown>): Promise<JsonWithHeaders> {
    const view = v2CardsView(query, raw);
    const position = this.cursors.position(query);
    if (query.selector.by !== 'browse')
      return view.lookup(await this.lookup(query.selector, query.filter, view));
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
    // A walk counts once, on its first page; its cursors carry the total to the later pages. The
    // count runs beside the page and its cards, not before them.
    const [{ page, data }, total] = await Promise.all([
      this.keyset.page(keysetQuery, query.limit, position).then(async (page) => ({
        page,
        data: await this.load(
          page.rows.map((r) => r.cardUuid),
          query.filter,
          view,
        ),
      })),
      position?.total ?? this.keyset.count(keysetQuery, this.countBudgetMs),
    ]);
    return view.page(data, total, this.cursors.around(page, position, query.fingerprint, total));
  }

  /** GET /v2/cards/{id}: one card by UUID or legacy slug; 404 when there is none. */
  async one(id: string, query: CardShape): Promise<string> {
    const view = v2CardView(query);
    const [card] = await this.lookup({ by: 'cardId', value: id }, query.filter, view);
    if (card === undefined) throw new NotFoundError(`Card '${id}'`);
    return view.one(card);
  }

  /**
   * The card an identifier names, with the variants the filters return — possibly none: a card
   * that exists is returned even when none of its variants fit. A variant id or SKU returns that
   * one variant whatever its kind: like the language rule, the graded scope does not hide it.
   */
  private async lookup(
    selector: IdentifierSelector,
    filter: VariantFilter,
    view: CardView,
  ): Promise<string[]> {
    // A card by UUID or slug whose parts are stored: found and joined in one statement.
    if (selector.by === 'cardId' && view.joined) {
      const card = await this.cards.findJoinedCard(selector.value, filter, view.region, view.joined);
      return view.joinedCards(card ? [card] : []);
    }
    const [match] = await this.cards.resolveIdentifiers([{ ordinal: 0, ...selector }]);
    if (!match) return [];
    const scope = match.variantUuid ? { includeNullPrices: true, graded: 'include' as const } : filter;
    return this.load([match.cardUuid], scope, view, match.variantUuid ?? undefined);
  }

  /** Cards joined in SQL with their variants when the view's one market is stored, else read with their series and rendered. */
  private async load(
    uuids: string[],
    filter: VariantFilter,
    view: CardView,
    onlyVariant?: string,
  ): Promise<string[]> {
    if (view.joined)
      return view.joinedCards(
        await this.cards.loadJoinedCards(uuids, filter, view.region, view.joined, onlyVariant),
      );
    const cards = await this.cards.loadCards(uuids, {
      filter,
      regions: view.regions,
      read: view.read,
      onlyVariant,
    });
    return view.render(cards, this.cards);
  }
}

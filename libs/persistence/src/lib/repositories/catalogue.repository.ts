import { Card, CatalogueCounts, CatalogueRepository, Game, isUuid, Variant } from '@tcg/domain';
import { DataSource, In } from 'typeorm';
import { CardEntity, GameEntity, VariantEntity } from '../entities';
import { toCard, toGame, toVariant } from './catalogue.mapper';

export class TypeOrmCatalogueRepository implements CatalogueRepository {
  constructor(private readonly ds: DataSource) {}

  async listGames(): Promise<Game[]> {
    const rows = await this.ds.getRepository(GameEntity).find({ order: { name: 'ASC' } });
    return rows.map(toGame);
  }

  async findGame(idOrName: string): Promise<Game | null> {
    const row = await this.ds
      .getRepository(GameEntity)
      .createQueryBuilder('g')
      .where('g.id = :v OR lower(g.name) = lower(:v)', { v: idOrName })
      .getOne();
    return row ? toGame(row) : null;
  }

  async findCardByUuidOrSlug(idOrSlug: string): Promise<Card | null> {
    const repo = this.ds.getRepository(CardEntity);
    const where = isUuid(idOrSlug) ? { uuid: idOrSlug.toLowerCase() } : { id: idOrSlug };
    const row = await repo.findOne({ where, relations: { set: true } });
    return row ? toCard(row) : null;
  }

  async variantsOfCards(cardUuids: readonly string[]): Promise<Map<string, Variant[]>> {
    const out = new Map<string, Variant[]>(cardUuids.map((u) => [u, []]));
    if (cardUuids.length === 0) return out;
    const rows = await this.ds
      .getRepository(VariantEntity)
      .find({ where: { cardUuid: In([...cardUuids]) }, order: { id: 'ASC' } });
    for (const row of rows) out.get(row.cardUuid)?.push(toVariant(row));
    return out;
  }

  async counts(): Promise<CatalogueCounts> {
    const [row] = await this.ds.query(`
      SELECT (SELECT count(*) FROM games)::int AS games,
             (SELECT count(*) FROM sets)::int AS sets,
             (SELECT count(*) FROM cards)::int AS cards,
             (SELECT count(*) FROM cards WHERE sealed)::int AS sealed,
             (SELECT count(*) FROM variants WHERE type = 'raw')::int AS raw_variants,
             (SELECT count(*) FROM variants WHERE type = 'graded')::int AS graded_variants,
             (SELECT count(*) FROM variant_prices)::int AS priced_series,
             (SELECT coalesce(sum(cardinality(offsets)), 0) FROM price_series)::bigint AS observations`);
    return {
      games: row.games,
      sets: row.sets,
      cards: row.cards,
      sealed: row.sealed,
      rawVariants: row.raw_variants,
      gradedVariants: row.graded_variants,
      pricedSeries: row.priced_series,
      observations: Number(row.observations),
    };
  }
}

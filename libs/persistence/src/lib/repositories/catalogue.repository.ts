import {
  Card,
  CatalogueCounts,
  CatalogueRepository,
  Game,
  GameSummary,
  isUuid,
  SetQuery,
  SetSummary,
  Variant,
} from '@tcg/domain';
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

  async listGameSummaries(): Promise<GameSummary[]> {
    const rows: {
      id: string;
      name: string;
      cards_count: number;
      variants_count: number;
      sealed_count: number;
      sets_count: number;
      last_updated: string | null;
      value_cents: string;
      value_7d_ago_cents: number | null;
    }[] = await this.ds.query(
      `SELECT g.id, g.name, s.cards_count, s.variants_count, s.sealed_count, s.sets_count,
              s.last_updated, s.value_cents, s.value_7d_ago_cents
       FROM games g JOIN game_summaries s ON s.game_id = g.id
       ORDER BY g.name`,
    );
    return rows.map((r) => ({
      game: { id: r.id, name: r.name },
      cardsCount: r.cards_count,
      variantsCount: r.variants_count,
      sealedCount: r.sealed_count,
      setsCount: r.sets_count,
      lastUpdated: r.last_updated === null ? null : Number(r.last_updated),
      valueIndexCents: Number(r.value_cents),
      valueIndex7dAgoCents: r.value_7d_ago_cents === null ? null : Number(r.value_7d_ago_cents),
    }));
  }

  async listSetSummaries(gameId: string, query: SetQuery): Promise<SetSummary[]> {
    const column = query.orderBy === 'release_date' ? 's.release_date' : 'lower(s.name)';
    const direction = query.order === 'asc' ? 'ASC' : 'DESC';
    const rows: {
      uuid: string;
      id: string;
      game_id: string;
      name: string;
      code: string;
      release_date: string | null;
      game_name: string;
      cards_count: number;
      value_cents: string;
    }[] = await this.ds.query(
      `SELECT s.uuid, s.id, s.game_id, s.name, s.code, to_char(s.release_date, 'YYYY-MM-DD') AS release_date,
              g.name AS game_name, ss.cards_count, ss.value_cents
       FROM sets s
       JOIN games g ON g.id = s.game_id
       JOIN set_summaries ss ON ss.set_uuid = s.uuid
       WHERE s.game_id = $1 AND ($2::text IS NULL OR s.name ILIKE $2)
       ORDER BY ${column} ${direction} NULLS LAST, s.id`,
      [gameId, query.q ? `%${query.q.replace(/[\\%_]/g, '\\$&')}%` : null],
    );
    return rows.map((r) => ({
      set: {
        uuid: r.uuid,
        id: r.id,
        gameId: r.game_id,
        name: r.name,
        code: r.code,
        releaseDate: r.release_date,
      },
      gameName: r.game_name,
      cardsCount: r.cards_count,
      valueCents: Number(r.value_cents),
    }));
  }

  async counts(): Promise<CatalogueCounts> {
    const [row] = (await this.ds.query(`
      SELECT (SELECT count(*) FROM games)::int AS games,
             (SELECT count(*) FROM sets)::int AS sets,
             (SELECT count(*) FROM cards)::int AS cards,
             (SELECT count(*) FROM cards WHERE sealed)::int AS sealed,
             (SELECT count(*) FROM variants WHERE type = 'raw')::int AS raw_variants,
             (SELECT count(*) FROM variants WHERE type = 'graded')::int AS graded_variants,
             (SELECT count(*) FROM variant_prices)::int AS priced_series,
             (SELECT coalesce(sum(cardinality(offsets)), 0) FROM price_series)::bigint AS observations`)) as CountsRow[];
    const { games, sets, cards, sealed, raw_variants, graded_variants, priced_series, observations } = row!;
    return {
      games,
      sets,
      cards,
      sealed,
      rawVariants: raw_variants,
      gradedVariants: graded_variants,
      pricedSeries: priced_series,
      observations: Number(observations),
    };
  }
}

interface CountsRow {
  readonly games: number;
  readonly sets: number;
  readonly cards: number;
  readonly sealed: number;
  readonly raw_variants: number;
  readonly graded_variants: number;
  readonly priced_series: number;
  /** A bigint: node-postgres returns it as text. */
  readonly observations: string;
}

import { CatalogueRepository, Game, GameSummary, PriceSource, SetQuery, SetSummary } from '@tcg/domain';
import { GameEntity } from '../entities';
import { readOn, type ReadSource } from '../read-replicas';
import { toGame } from './catalogue.mapper';

export class TypeOrmCatalogueRepository implements CatalogueRepository {
  /** `reads`: a data source, or `ReadReplicas` (replicas up to date, else the primary). */
  constructor(private readonly reads: ReadSource) {}

  async listGames(): Promise<Game[]> {
    const rows = await readOn(this.reads, (ds) =>
      ds.getRepository(GameEntity).find({ order: { name: 'ASC' } }),
    );
    return rows.map(toGame);
  }

  async findGame(idOrName: string): Promise<Game | null> {
    const row = await readOn(this.reads, (ds) =>
      ds
        .getRepository(GameEntity)
        .createQueryBuilder('g')
        .where('g.id = :v OR lower(g.name) = lower(:v)', { v: idOrName })
        .getOne(),
    );
    return row ? toGame(row) : null;
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
      sources: PriceSource[] | null;
    }[] = await readOn(this.reads, (ds) =>
      ds.query(
        `SELECT g.id, g.name, s.cards_count, s.variants_count, s.sealed_count, s.sets_count,
              s.last_updated, s.value_cents, s.value_7d_ago_cents, ps.sources
       FROM games g JOIN game_summaries s ON s.game_id = g.id
       LEFT JOIN game_price_sources ps ON ps.game_id = g.id
       ORDER BY g.name`,
      ),
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
      priceSources: r.sources ?? [],
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
    }[] = await readOn(this.reads, (ds) =>
      ds.query(
        `SELECT s.uuid, s.id, s.game_id, s.name, s.code, to_char(s.release_date, 'YYYY-MM-DD') AS release_date,
              g.name AS game_name, ss.cards_count, ss.value_cents
       FROM sets s
       JOIN games g ON g.id = s.game_id
       JOIN set_summaries ss ON ss.set_uuid = s.uuid
       WHERE s.game_id = $1 AND ($2::text IS NULL OR s.name ILIKE $2)
       ORDER BY ${column} ${direction} NULLS LAST, s.id`,
        [gameId, query.q ? `%${query.q.replace(/[\\%_]/g, '\\$&')}%` : null],
      ),
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
}

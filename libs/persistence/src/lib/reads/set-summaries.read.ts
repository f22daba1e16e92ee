import type { SetQuery } from './catalogue.repository.port';
import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import { db, shared } from '../sql/compile';
import { escapeLike } from '../sql/like-pattern';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { runRead } from './run-read';

const ROW = rowSchema('set summaries', {
  uuid: 'string',
  id: 'string',
  game_id: 'string',
  name: 'string',
  code: 'string',
  release_date: 'string?',
  game_name: 'string',
  cards_count: 'int',
  value_cents: 'string',
});
export type SetSummaryRow = RowOf<typeof ROW>;

/**
 * A game's sets with their summaries (set_summaries), those whose name contains `query.q` if
 * given, in the order asked (unknown release dates last), then by id.
 */
export function setSummariesStatement(gameId: string, query: SetQuery) {
  // One statement with or without a search: the pattern is null without one.
  const pattern = shared(query.q ? `%${escapeLike(query.q)}%` : null);
  const column = query.orderBy === 'release_date' ? sql.ref('s.release_date') : sql`lower(s.name)`;
  return db
    .selectFrom('sets as s')
    .innerJoin('games as g', 'g.id', 's.game_id')
    .innerJoin('set_summaries as ss', 'ss.set_uuid', 's.uuid')
    .select([
      's.uuid',
      's.id',
      's.game_id',
      's.name',
      's.code',
      sql<string | null>`to_char(s.release_date, 'YYYY-MM-DD')`.as('release_date'),
      'g.name as game_name',
      'ss.cards_count',
      'ss.value_cents',
    ])
    .where('s.game_id', '=', gameId)
    .where(sql<boolean>`(${pattern}::text IS NULL OR s.name ILIKE ${pattern})`)
    .orderBy(column, (o) => (query.order === 'asc' ? o.asc() : o.desc()).nullsLast())
    .orderBy('s.id');
}

export function readSetSummaries(
  source: ReadSource,
  gameId: string,
  query: SetQuery,
): Promise<SetSummaryRow[]> {
  return runRead(source, ROW, setSummariesStatement(gameId, query));
}

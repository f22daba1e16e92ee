import type { ReadSource } from './read-replicas';
import { db } from '../sql/compile';
import { rowSchema, type RowOf } from '../sql/row-schema';
import { runRead } from './run-read';

/** bigint figures as text (the 7-day-old value too: a sum of stored 7-day references). */
const ROW = rowSchema('game summaries', {
  id: 'string',
  name: 'string',
  cards_count: 'int',
  variants_count: 'int',
  sealed_count: 'int',
  sets_count: 'int',
  last_updated: 'string?',
  value_cents: 'string',
  value_7d_ago_cents: 'string?',
  sources: 'string[]?',
});
export type GameSummaryRow = RowOf<typeof ROW>;

/** Every game with its summary (game_summaries) and price sources, by name. */
export function gameSummariesStatement() {
  return db
    .selectFrom('games as g')
    .innerJoin('game_summaries as s', 's.game_id', 'g.id')
    .leftJoin('game_price_sources as ps', 'ps.game_id', 'g.id')
    .select([
      'g.id',
      'g.name',
      's.cards_count',
      's.variants_count',
      's.sealed_count',
      's.sets_count',
      's.last_updated',
      's.value_cents',
      's.value_7d_ago_cents',
      'ps.sources',
    ])
    .orderBy('g.name');
}

export function readGameSummaries(source: ReadSource): Promise<GameSummaryRow[]> {
  return runRead(source, ROW, gameSummariesStatement());
}

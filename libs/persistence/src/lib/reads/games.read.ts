import type { Game } from '@tcg/domain';
import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import { db, shared } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { runRead } from './run-read';

const ROW = rowSchema('games', { id: 'string', name: 'string' });

/** Every game, by name. */
export function gamesStatement() {
  return db.selectFrom('games').select(['id', 'name']).orderBy('name');
}

/** The game whose id is `idOrName`, or else whose name it is in any case. */
export function gameStatement(idOrName: string) {
  const value = shared(idOrName);
  return (
    db
      .selectFrom('games as g')
      .select(['g.id', 'g.name'])
      .where(sql<boolean>`(g.id = ${value} OR lower(g.name) = lower(${value}))`)
      // An id is unique; a name may equal another game's id: the id wins.
      .orderBy(sql`g.id = ${value}`, 'desc')
      .orderBy('g.id')
      .limit(sql.lit(1))
  );
}

export async function readGames(source: ReadSource): Promise<Game[]> {
  return (await runRead(source, ROW, gamesStatement())).map((r) => ({ id: r.id, name: r.name }));
}

export async function readGame(source: ReadSource, idOrName: string): Promise<Game | null> {
  const [row] = await runRead(source, ROW, gameStatement(idOrName));
  return row ? { id: row.id, name: row.name } : null;
}

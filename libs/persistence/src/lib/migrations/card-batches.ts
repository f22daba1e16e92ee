import type { CardDocument } from '@tcg/rendering';
import { QueryResult, QueryRunner } from 'typeorm';
import { refreshCardDocuments } from '../documents';
import type { Connection, QueryRow } from '../sql/run';
import { logMigrationProgress } from './progress';

/**
 * The cards' UUIDs in batches, in UUID order by the primary key: a backfill that walks them and
 * updates each batch's variants or series writes a card's rows together, on few pages, as a read
 * of one card wants them; and each batch starts from the index, so the walk stays linear.
 */
export async function* cardBatches(q: QueryRunner, size: number): AsyncGenerator<string[]> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = (await q.query(`SELECT uuid FROM cards WHERE uuid > $1::uuid ORDER BY uuid LIMIT ${size}`, [
      after,
    ])) as { uuid: string }[];
    if (rows.length === 0) return;
    yield rows.map((r) => r.uuid);
    after = rows[rows.length - 1]!.uuid;
  }
}

/** Cards whose documents are rendered per statement of a backfill. */
const DOCUMENT_CARDS_PER_BATCH = 500;

/**
 * Renders every stored card's documents in `columns` (of `CARD_DOCUMENTS`), 500 cards per
 * statement, with a progress line `msg` per batch: a migration that adds a document, or changes
 * the format of what documents hold, passes every column it must render.
 */
export async function renderStoredCardDocuments(
  q: QueryRunner,
  columns: readonly CardDocument['column'][],
  msg: string,
): Promise<void> {
  const [{ n: total }] = (await q.query(`SELECT count(*)::int AS n FROM cards`)) as { n: number }[];
  let done = 0;
  const started = Date.now();
  const connection = runnerConnection(q);
  for await (const cards of cardBatches(q, DOCUMENT_CARDS_PER_BATCH)) {
    await refreshCardDocuments(connection, cards, columns);
    done += cards.length;
    logMigrationProgress(msg, done, total, started);
  }
}

/** The migration's runner as a `Connection`: statements run, and are logged, as the migration's own. */
function runnerConnection(q: QueryRunner): Connection {
  return {
    query: async ({ text, values }) => {
      const result = (await q.query(text, values, true)) as QueryResult<QueryRow>;
      return { rows: result.records, rowCount: result.affected ?? null };
    },
  };
}

import { QueryRunner } from 'typeorm';

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

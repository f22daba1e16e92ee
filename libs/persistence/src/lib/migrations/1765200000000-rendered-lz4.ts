import { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns that hold rendered JSON text, long enough to be compressed (TOAST). */
const RENDERED_TEXT_COLUMNS = {
  variant_prices: ['stats', 'v1_stats', 'v1_history', 'v2_price', 'v2_periods', 'v2_history'],
  card_documents: ['v1_variants', 'v1_bare_variants', 'v2_variants'],
} as const;

/**
 * The rendered JSON columns are compressed with lz4 where the server has it, pglz (the default)
 * where it has not. A load writes each card's history several times over (its parts, then the
 * documents joined from them); with pglz, compressing them was a fifth of PostgreSQL's CPU in the
 * first load (decision 0003). lz4 costs 15–25% more space for them. A server built without lz4
 * (the embedded PostgreSQL that `npm start` uses without DATABASE_URL) keeps pglz: the migration
 * reads which methods `default_toast_compression` accepts. Values already stored keep their
 * method; both are read alike.
 */
export class RenderedLz4Compression1765200000000 implements MigrationInterface {
  name = 'RenderedLz4Compression1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await this.compressWith(q, 'lz4');
  }

  async down(q: QueryRunner): Promise<void> {
    await this.compressWith(q, 'pglz');
  }

  private async compressWith(q: QueryRunner, method: 'lz4' | 'pglz'): Promise<void> {
    if (!(await compressionAvailable(q, method))) return;
    for (const [table, columns] of Object.entries(RENDERED_TEXT_COLUMNS))
      await q.query(
        `ALTER TABLE ${table} ${columns.map((c) => `ALTER COLUMN ${c} SET COMPRESSION ${method}`).join(', ')}`,
      );
  }
}

/** Whether the server was built with this TOAST compression method. */
export async function compressionAvailable(
  q: { query(sql: string, parameters: unknown[]): Promise<unknown> },
  method: 'lz4' | 'pglz',
): Promise<boolean> {
  const rows = (await q.query(
    `SELECT $1 = ANY(enumvals) AS available FROM pg_settings WHERE name = 'default_toast_compression'`,
    [method],
  )) as { available: boolean }[];
  return rows[0]?.available === true;
}

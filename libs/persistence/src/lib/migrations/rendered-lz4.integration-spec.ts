import { DataSource } from 'typeorm';
import { useTestDatabase } from '../../testing';
import { compressionAvailable, RenderedLz4Compression1765200000000 } from './1765200000000-rendered-lz4';

const RENDERED = `('variant_prices', 'stats'), ('variant_prices', 'v1_history'), ('variant_prices', 'v2_history'),
  ('card_documents', 'v1_variants'), ('card_documents', 'v1_bare_variants'), ('card_documents', 'v2_variants')`;

describe('RenderedLz4Compression1765200000000 (PostgreSQL)', () => {
  let ds: DataSource;
  useTestDatabase((opened) => (ds = opened), { truncate: 'never' });

  /** Each rendered column's method: 'l' lz4, '' the server default (pglz). */
  const methods = async () =>
    (
      (await ds.query(`
        SELECT DISTINCT a.attcompression AS method
        FROM (VALUES ${RENDERED}) AS r(tbl, col)
        JOIN pg_attribute a ON a.attrelid = r.tbl::regclass AND a.attname = r.col`)) as { method: string }[]
    ).map((r) => r.method);

  // down sets pglz wherever the server has it (every server does), so a server without lz4 ends
  // down with pglz stated, and up, finding no lz4, leaves it so: pglz either way, as before up.
  it('compresses the rendered columns with lz4 where the server has it, and back with down', async () => {
    const lz4 = await compressionAvailable(ds, 'lz4');
    // Without lz4 each column reads '' as migrated, or 'p' where a suite before this one in the
    // same database ran migrations down and up again (some columns may be rebuilt, others not):
    // pglz either way.
    const before = await methods();
    if (lz4) expect(before).toEqual(['l']);
    else expect(before.filter((m) => m !== '' && m !== 'p')).toEqual([]);
    const runner = ds.createQueryRunner();
    try {
      await new RenderedLz4Compression1765200000000().down(runner);
      expect(await methods()).toEqual(['p']);
      await new RenderedLz4Compression1765200000000().up(runner);
      expect(await methods()).toEqual([lz4 ? 'l' : 'p']);
    } finally {
      await runner.release();
    }
  });
});

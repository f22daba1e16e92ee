import { v1VariantHead, v2VariantHead } from '@tcg/rendering';
import type { PoolClient } from 'pg';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { copyInto, copyLine } from '../sql/copy';
import { cardBatches } from './card-batches';
import { logMigrationProgress } from './progress';
import { toVariant, VariantColumns, variantColumnsSql } from '../sql/variant-row';

/** Cards whose variants are rendered per statement of the backfill (about 14 variants each at full). */
const CARDS_PER_BATCH = 700;

/**
 * Each variant's identity as the two versions write it (`v1VariantHead`, `v2VariantHead`), stored
 * with the variant so that a read joins a card's variants into JSON in one statement, from text
 * only. Variants are written once and never change; the catalogue writer renders them on insert.
 * This migration renders the variants already stored, in batches with progress lines.
 */
export class RenderedVariantHeads1764700000000 implements MigrationInterface {
  name = 'RenderedVariantHeads1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE variants ADD COLUMN v1_head text, ADD COLUMN v2_head text`);
    const [{ n: total }] = (await q.query(`SELECT count(*)::int AS n FROM variants`)) as { n: number }[];
    const client = (await q.connect()) as PoolClient;
    await q.query(`CREATE TEMP TABLE head_backfill (uuid uuid, v1_head text, v2_head text) ON COMMIT DROP`);
    let done = 0;
    const started = Date.now();
    for await (const cards of cardBatches(q, CARDS_PER_BATCH)) {
      const rows = (await q.query(
        `SELECT ${variantColumnsSql('v')} FROM variants v WHERE v.card_uuid = ANY($1::uuid[])
         ORDER BY v.card_uuid, v.uuid`,
        [cards],
      )) as VariantColumns[];
      if (rows.length === 0) continue;
      await copyInto(
        client,
        'head_backfill (uuid, v1_head, v2_head)',
        rows.map((r) => {
          const v = toVariant(r);
          return copyLine([v.uuid, v1VariantHead(v), v2VariantHead(v)]);
        }),
      );
      await q.query(
        `UPDATE variants v SET v1_head = h.v1_head, v2_head = h.v2_head FROM head_backfill h WHERE v.uuid = h.uuid`,
      );
      await q.query(`TRUNCATE head_backfill`);
      done += rows.length;
      logMigrationProgress('render stored variants progress', done, total, started);
    }
    await q.query(
      `ALTER TABLE variants ALTER COLUMN v1_head SET NOT NULL, ALTER COLUMN v2_head SET NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE variants DROP COLUMN v1_head, DROP COLUMN v2_head`);
  }
}

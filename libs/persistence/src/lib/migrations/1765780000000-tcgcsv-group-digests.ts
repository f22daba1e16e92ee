import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `tcgcsv_group_digests`: per TCGCSV category, group and day, the digest of the documents a sync
 * last applied in full (issue 36). A later sync that reads the same documents for the same game
 * skips the group without matching or writing anything: a daily sync re-reads the days it has
 * (a back-fill's folder keeps every one) and a no-op re-sync of the whole marketplace (4,316
 * groups a day) must end in minutes. A row is written only after its group's writes committed, so
 * a sync killed in between does that group again. Rows go with their game (a reset truncates games
 * with CASCADE).
 */
export class TcgcsvGroupDigests1765780000000 implements MigrationInterface {
  name = 'TcgcsvGroupDigests1765780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tcgcsv_group_digests (
        category_id integer NOT NULL,
        group_id    integer NOT NULL,
        day         date NOT NULL,
        game_id     text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        digest      text NOT NULL,
        applied_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (category_id, day, group_id)
      )`);
    await q.query(`CREATE INDEX tcgcsv_group_digests_game_idx ON tcgcsv_group_digests (game_id)`);
    await q.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON tcgcsv_group_digests TO tcg_importer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE tcgcsv_group_digests`);
  }
}

import { MigrationInterface, QueryRunner } from 'typeorm';

const FUNCTIONS = ['similarity_op', 'word_similarity_commutator_op', 'similarity', 'word_similarity'];

/**
 * pg_trgm declares its functions as cheap as an integer comparison (COST 1), so the planner
 * reads a 40k-row cards table sequentially, computing trigram similarity for every name, instead
 * of using the trigram GIN index, an order of magnitude slower for a typo search. A truthful cost lets it choose the index. Where the role running
 * migrations does not own the extension's functions (a managed server), the search still works,
 * only slower, so that case is a notice rather than a failed migration.
 */
export class TrigramCosts1764200000000 implements MigrationInterface {
  name = 'TrigramCosts1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await this.setCost(q, 200);
  }

  async down(q: QueryRunner): Promise<void> {
    await this.setCost(q, 1);
  }

  private async setCost(q: QueryRunner, cost: number): Promise<void> {
    const statements = FUNCTIONS.map((f) => `ALTER FUNCTION ${f}(text, text) COST ${cost};`).join(' ');
    await q.query(`
      DO $$ BEGIN ${statements}
      EXCEPTION WHEN insufficient_privilege THEN
        RAISE NOTICE 'pg_trgm function costs left as they are: %', SQLERRM;
      END $$`);
  }
}

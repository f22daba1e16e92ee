import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue, compact price series, precomputed statistics, plans and hashed API keys.
 * Price history is stored one row per variant, region and UTC month (arrays of second offsets
 * and minor-unit prices), not one row per observation: two years of daily points for a million
 * variants would otherwise be half a billion rows.
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);

    await q.query(`
      CREATE TABLE games (
        id   text PRIMARY KEY,
        name text NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX games_name_lower_idx ON games (lower(name))`);

    await q.query(`
      CREATE TABLE sets (
        uuid         uuid PRIMARY KEY,
        id           text NOT NULL UNIQUE,
        game_id      text NOT NULL REFERENCES games (id),
        name         text NOT NULL,
        code         text NOT NULL,
        release_date date
      )`);
    await q.query(`CREATE INDEX sets_game_name_idx ON sets (game_id, name)`);
    await q.query(`CREATE INDEX sets_name_trgm_idx ON sets USING gin (name gin_trgm_ops)`);

    await q.query(`
      CREATE TABLE cards (
        uuid       uuid PRIMARY KEY,
        id         text NOT NULL UNIQUE,
        game_id    text NOT NULL REFERENCES games (id),
        set_uuid   uuid NOT NULL REFERENCES sets (uuid),
        name       text NOT NULL,
        number     text,
        rarity     text,
        details    text,
        vendor_id  text,
        openset_id text,
        imagedb_id text,
        sealed     boolean NOT NULL DEFAULT false
      )`);
    await q.query(`CREATE INDEX cards_set_number_idx ON cards (set_uuid, number)`);
    await q.query(`CREATE INDEX cards_game_idx ON cards (game_id)`);
    await q.query(`CREATE INDEX cards_vendor_id_idx ON cards (vendor_id) WHERE vendor_id IS NOT NULL`);
    await q.query(`CREATE INDEX cards_openset_id_idx ON cards (openset_id) WHERE openset_id IS NOT NULL`);
    await q.query(`CREATE INDEX cards_imagedb_id_idx ON cards (imagedb_id) WHERE imagedb_id IS NOT NULL`);
    await q.query(`CREATE INDEX cards_name_trgm_idx ON cards USING gin (lower(name) gin_trgm_ops)`);

    await q.query(`
      CREATE TABLE variants (
        uuid              uuid PRIMARY KEY,
        id                text NOT NULL UNIQUE,
        card_uuid         uuid NOT NULL REFERENCES cards (uuid),
        type              text NOT NULL CHECK (type IN ('raw', 'graded')),
        condition         text,
        printing          text NOT NULL,
        language          text NOT NULL DEFAULT 'English',
        vendor_sku_id     text,
        grading_company   text,
        grade             numeric(3, 1),
        grade_label       text,
        grading_qualifier text,
        CONSTRAINT variants_raw_or_graded CHECK (
          (type = 'raw' AND condition IS NOT NULL AND grading_company IS NULL)
          OR (type = 'graded' AND condition IS NULL AND grading_company IS NOT NULL)
        )
      )`);
    await q.query(`CREATE INDEX variants_card_idx ON variants (card_uuid)`);
    await q.query(
      `CREATE UNIQUE INDEX variants_vendor_sku_idx ON variants (vendor_sku_id) WHERE vendor_sku_id IS NOT NULL`,
    );

    // One row per variant, region and UTC month: offsets are seconds since the month's start,
    // ascending and unique; prices are integer minor units of the region's currency.
    await q.query(`
      CREATE TABLE price_series (
        variant_uuid uuid NOT NULL REFERENCES variants (uuid) ON DELETE CASCADE,
        region       text NOT NULL,
        month        date NOT NULL,
        offsets      integer[] NOT NULL,
        prices       integer[] NOT NULL,
        PRIMARY KEY (variant_uuid, region, month),
        CONSTRAINT price_series_parallel CHECK (cardinality(offsets) = cardinality(prices) AND cardinality(offsets) > 0)
      )`);

    // Statistics of each variant's series per region, refreshed by the importer whenever
    // observations arrive; read paths never aggregate a history.
    await q.query(`
      CREATE TABLE variant_prices (
        variant_uuid uuid NOT NULL REFERENCES variants (uuid) ON DELETE CASCADE,
        region       text NOT NULL,
        currency     char(3) NOT NULL,
        price        bigint NOT NULL,
        updated_at   bigint NOT NULL,
        change_24h   double precision,
        change_7d    double precision,
        change_30d   double precision,
        change_90d   double precision,
        stats        jsonb NOT NULL,
        PRIMARY KEY (variant_uuid, region)
      )`);
    await q.query(`CREATE INDEX variant_prices_region_updated_idx ON variant_prices (region, updated_at)`);

    await q.query(`
      CREATE TABLE plans (
        name       text PRIMARY KEY,
        per_minute integer NOT NULL,
        per_day    integer NOT NULL,
        per_month  integer NOT NULL,
        max_limit  integer NOT NULL,
        max_batch  integer NOT NULL
      )`);
    await q.query(`
      INSERT INTO plans (name, per_minute, per_day, per_month, max_limit, max_batch) VALUES
        ('free', 10, 100, 1000, 20, 20),
        ('starter', 60, 2000, 30000, 100, 100),
        ('professional', 200, 10000, 200000, 100, 100),
        ('enterprise', 1000, 100000, 2000000, 200, 200)`);

    // Keys are stored as SHA-256 digests of high-entropy random keys; the clear key is shown once.
    await q.query(`
      CREATE TABLE api_keys (
        id         uuid PRIMARY KEY,
        key_hash   bytea NOT NULL UNIQUE,
        key_prefix text NOT NULL,
        plan       text NOT NULL REFERENCES plans (name),
        label      text NOT NULL DEFAULT '',
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'api_keys',
      'plans',
      'variant_prices',
      'price_series',
      'variants',
      'cards',
      'sets',
      'games',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}

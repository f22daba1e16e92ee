import { v1VariantHead, v2VariantHead } from '@tcg/rendering';
import { Card, CardSet, Game, Variant } from '@tcg/domain';
import { sql } from 'kysely';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { copyInto, copyLine } from '../sql/copy';
import { poolOf } from '../db/data-source';
import { dropDocumentsOfVariants, refreshDocumentsOfVariants, renderUndocumentedCards } from '../documents';
import { db } from '../sql/compile';
import type { Database } from '../sql/database';
import { rowSchema } from '../sql/row-schema';
import { execute, rowOf, rowsOf } from '../sql/run';
import { markSummariesStale } from '../summaries';
import { inTransaction } from '../db/transaction';

/** New variants whose cards' documents one statement renders: a whole catalogue goes in several. */
const VARIANTS_PER_DOCUMENT_REFRESH = 20_000;

type CatalogueTable = 'games' | 'sets' | 'cards' | 'variants';

/**
 * The columns a catalogue write loads into each table, in its COPY lines' order, and the table's
 * key. Table and column names go into the statements as they are: they come from here only.
 */
const LOADS = {
  games: { key: 'id', columns: ['id', 'name'] },
  sets: { key: 'uuid', columns: ['uuid', 'id', 'game_id', 'name', 'code', 'release_date'] },
  cards: {
    key: 'uuid',
    columns: [
      'uuid',
      'id',
      'game_id',
      'set_uuid',
      'name',
      'number',
      'rarity',
      'details',
      'vendor_id',
      'openset_id',
      'imagedb_id',
      'sealed',
    ],
  },
  variants: {
    key: 'uuid',
    columns: [
      'uuid',
      'id',
      'card_uuid',
      'type',
      'condition',
      'printing',
      'language',
      'vendor_sku_id',
      'grading_company',
      'grade',
      'grade_label',
      'grading_qualifier',
      'v1_head',
      'v2_head',
    ],
  },
} as const satisfies {
  [T in CatalogueTable]: { key: keyof Database[T]; columns: readonly (keyof Database[T])[] };
};

const NEW_VARIANT = rowSchema('new variants', { uuid: 'string' });
const COUNT = rowSchema('card count', { n: 'int' });

/** An empty temp table like `table`, for its rows to be COPYed into; dropped at the commit. */
export function createLoadTableStatement(table: CatalogueTable) {
  return sql`CREATE TEMP TABLE ${sql.raw(`load_${table}`)} (LIKE ${sql.raw(table)} INCLUDING DEFAULTS) ON COMMIT DROP`;
}

/** Inserts the loaded rows of `table` that are new (by its key); the new variants' UUIDs. */
export function insertNewRowsStatement(table: CatalogueTable) {
  const { key, columns } = LOADS[table];
  const list = sql.raw(columns.join(', '));
  return sql`INSERT INTO ${sql.raw(table)} (${list}) SELECT ${list} FROM ${sql.raw(`load_${table}`)} ON CONFLICT (${sql.raw(key)}) DO NOTHING${
    table === 'variants' ? sql` RETURNING uuid` : sql``
  }`;
}

export function analyzeDatabaseStatement() {
  return sql`ANALYZE`;
}

export function countCardsStatement() {
  return db.selectFrom('cards').select(sql<number>`count(*)::int`.as('n'));
}

export interface CatalogueData {
  readonly games: readonly Game[];
  readonly sets: readonly CardSet[];
  readonly cards: readonly Card[];
  readonly variants: readonly Variant[];
}

export interface CatalogueWriteOptions {
  /**
   * Whether the stored documents of the cards that gained variants are rendered (default true).
   * A first load leaves them out: its price writes render every priced card's documents again
   * anyway, and `renderMissingDocuments` then renders the rest. A card without its documents is
   * answered all the same, its variants joined per request.
   */
  readonly documents?: boolean;
}

/**
 * Bulk-writes a catalogue with COPY, in one transaction. Rows that already exist (same UUID) are
 * left as they are, so writing the same catalogue twice changes nothing; new rows mark the
 * summaries stale in the same transaction.
 */
export async function writeCatalogue(
  ds: DataSource,
  data: CatalogueData,
  options: CatalogueWriteOptions = {},
): Promise<void> {
  const setUuidOf = new Map(data.sets.map((s) => [s.id, s.uuid]));
  await inTransaction(ds, async (client) => {
    let written = 0;
    written += await upsert(
      client,
      'games',
      data.games.map((g) => [g.id, g.name]),
    );
    written += await upsert(
      client,
      'sets',
      data.sets.map((s) => [s.uuid, s.id, s.gameId, s.name, s.code, s.releaseDate]),
    );
    written += await upsert(
      client,
      'cards',
      data.cards.map((c) => {
        const setUuid = setUuidOf.get(c.setId);
        if (!setUuid) throw new Error(`card ${c.id} names unknown set ${c.setId}`);
        return [
          c.uuid,
          c.id,
          c.gameId,
          setUuid,
          c.name,
          c.number,
          c.rarity,
          c.details,
          c.vendorId,
          c.opensetId,
          c.imagedbId,
          c.sealed,
        ];
      }),
    );
    const newVariants = await upsertVariants(
      client,
      data.variants.map((v) => [
        v.uuid,
        v.id,
        v.cardUuid,
        v.type,
        v.condition,
        v.printing,
        v.language,
        v.vendorSkuId,
        v.grading?.company ?? null,
        v.grading?.grade ?? null,
        v.grading?.gradeLabel ?? null,
        v.grading?.qualifier ?? null,
        // Its identity as each version writes it, rendered once: a variant never changes.
        v1VariantHead(v),
        v2VariantHead(v),
      ]),
    );
    written += newVariants.length;
    // The documents of the cards that gained variants (a variant never changes). Left out, those
    // of a card that had them go: they would miss its new variants.
    if (options.documents === false) await dropDocumentsOfVariants(client, newVariants);
    else
      for (let i = 0; i < newVariants.length; i += VARIANTS_PER_DOCUMENT_REFRESH)
        await refreshDocumentsOfVariants(client, newVariants.slice(i, i + VARIANTS_PER_DOCUMENT_REFRESH));
    if (written > 0) await markSummariesStale(client);
  });
}

/** Renders the documents of the cards that have none (see `CatalogueWriteOptions.documents`). */
export function renderMissingDocuments(ds: DataSource): Promise<void> {
  return inTransaction(ds, (client) => renderUndocumentedCards(client));
}

/**
 * Brings the planner's statistics up to date (ANALYZE of the whole database): after a bulk load,
 * before which the planner takes the tables it filled for empty.
 */
export async function analyzeDatabase(ds: DataSource): Promise<void> {
  await execute(poolOf(ds), analyzeDatabaseStatement());
}

/** How many cards are stored. */
export async function countCards(ds: DataSource): Promise<number> {
  return (await rowOf(poolOf(ds), COUNT, countCardsStatement())).n;
}

type Rows = ReadonlyArray<ReadonlyArray<string | number | boolean | null>>;

/** COPYs the rows into a temp table like `table`; false, without a statement, when there are none. */
async function load(client: PoolClient, table: CatalogueTable, rows: Rows): Promise<boolean> {
  if (rows.length === 0) return false;
  await execute(client, createLoadTableStatement(table));
  await copyInto(
    client,
    `load_${table} (${LOADS[table].columns.join(', ')})`,
    rows.map((r) => copyLine(r)),
  );
  return true;
}

/** Inserts the rows that are new; how many. */
async function upsert(client: PoolClient, table: 'games' | 'sets' | 'cards', rows: Rows): Promise<number> {
  return (await load(client, table, rows)) ? execute(client, insertNewRowsStatement(table)) : 0;
}

/** Inserts the variants that are new; their UUIDs. */
async function upsertVariants(client: PoolClient, rows: Rows): Promise<string[]> {
  if (!(await load(client, 'variants', rows))) return [];
  const inserted = await rowsOf(client, NEW_VARIANT, insertNewRowsStatement('variants'));
  return inserted.map((r) => r.uuid);
}

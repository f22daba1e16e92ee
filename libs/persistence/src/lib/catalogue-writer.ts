import { v1VariantHead, v2VariantHead } from '@tcg/rendering';
import { Card, CardSet, Game, Variant } from '@tcg/domain';
import type { PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import { copyInto, copyLine } from './copy';
import {
  dropDocumentsOfVariants,
  refreshDocumentsOfVariants,
  renderUndocumentedCards,
} from './prices/card-documents';
import { markSummariesStale } from './summaries';
import { inTransaction } from './transaction';

/** New variants whose cards' documents one statement renders: a whole catalogue goes in several. */
const VARIANTS_PER_DOCUMENT_REFRESH = 20_000;

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
    written += (
      await upsert(
        client,
        'games',
        ['id', 'name'],
        'id',
        data.games.map((g) => [g.id, g.name]),
      )
    ).count;
    written += (
      await upsert(
        client,
        'sets',
        ['uuid', 'id', 'game_id', 'name', 'code', 'release_date'],
        'uuid',
        data.sets.map((s) => [s.uuid, s.id, s.gameId, s.name, s.code, s.releaseDate]),
      )
    ).count;
    written += (
      await upsert(
        client,
        'cards',
        [
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
        'uuid',
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
      )
    ).count;
    const newVariants = await upsert(
      client,
      'variants',
      [
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
      'uuid',
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
      'uuid',
    );
    written += newVariants.count;
    // The documents of the cards that gained variants (a variant never changes). Left out, those
    // of a card that had them go: they would miss its new variants.
    if (options.documents === false) await dropDocumentsOfVariants(client, newVariants.returned);
    else
      for (let i = 0; i < newVariants.returned.length; i += VARIANTS_PER_DOCUMENT_REFRESH)
        await refreshDocumentsOfVariants(
          client,
          newVariants.returned.slice(i, i + VARIANTS_PER_DOCUMENT_REFRESH),
        );
    if (written > 0) await markSummariesStale(client);
  });
}

/** Renders the documents of the cards that have none (see `CatalogueWriteOptions.documents`). */
export function renderMissingDocuments(ds: DataSource): Promise<void> {
  return inTransaction(ds, (client) => renderUndocumentedCards(client));
}

/** Inserts the rows that are new: how many, and the `returning` column of each. */
async function upsert(
  client: PoolClient,
  table: string,
  columns: readonly string[],
  key: string,
  rows: ReadonlyArray<ReadonlyArray<string | number | boolean | null>>,
  returning?: string,
): Promise<{ count: number; returned: string[] }> {
  if (rows.length === 0) return { count: 0, returned: [] };
  const tmp = `load_${table}`;
  const cols = columns.join(', ');
  await client.query(`CREATE TEMP TABLE ${tmp} (LIKE ${table} INCLUDING DEFAULTS) ON COMMIT DROP`);
  await copyInto(
    client,
    `${tmp} (${cols})`,
    rows.map((r) => copyLine(r)),
  );
  const result = await client.query<Record<string, string>>(
    `INSERT INTO ${table} (${cols}) SELECT ${cols} FROM ${tmp} ON CONFLICT (${key}) DO NOTHING
     ${returning ? `RETURNING ${returning}` : ''}`,
  );
  return { count: result.rowCount ?? 0, returned: returning ? result.rows.map((r) => r[returning]!) : [] };
}

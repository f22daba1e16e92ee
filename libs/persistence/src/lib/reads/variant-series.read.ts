import type { SeriesStats } from '@tcg/pricing-stats';
import type { PricedVariant, RenderedSeries, SeriesRead, StoredSeries } from '@tcg/rendering';
import { sql } from 'kysely';
import type { VariantScope } from '../documents';
import { RENDERED_COLUMN_OF } from '../sql/rendered-columns';
import type { ReadSource } from './read-replicas';
import { toVariant, VARIANT_COLUMN_TYPES, variantColumnsSql } from '../sql/variant-row';
import { variantWhere } from './card-fragments';
import { joined, type Sql } from '../sql/compile';
import { checkRow, rowSchema, type RowSchema } from '../sql/row-schema';
import { runRead } from './run-read';

export interface VariantSeriesQuery {
  readonly cardUuids: readonly string[];
  readonly scope: VariantScope;
  /** Storage regions, the first primary. */
  readonly regions: readonly string[];
  readonly read: SeriesRead;
}

/**
 * A variant row: its columns aliased as the entity names them, its primary series' time (null
 * without observations) and the other regions' series as JSON text (null without others).
 */
const ROW = rowSchema('variant series', {
  ...VARIANT_COLUMN_TYPES,
  updatedAt: 'float?',
  others: 'string?',
});

/** A rendered part's column: v1's parts are null outside v1's region. */
const PART_TYPE = {
  v1Stats: 'string?',
  v1History: 'string?',
  v2Price: 'string',
  v2Periods: 'string',
  v2History: 'string',
} as const satisfies Record<keyof RenderedSeries, 'string' | 'string?'>;

type SeriesColumns = { readonly stats?: 'string' } & {
  readonly [P in keyof RenderedSeries]?: (typeof PART_TYPE)[P];
};

/** What a priced variant's row carries of its primary series as `read` asks (statistics as text). */
const seriesSchemas = new Map<string, RowSchema<SeriesColumns>>();
function seriesSchema(read: SeriesRead): RowSchema<SeriesColumns> {
  const key = `${read.stats}|${read.parts.join()}`;
  let schema = seriesSchemas.get(key);
  if (!schema) {
    const columns: { -readonly [K in keyof SeriesColumns]: SeriesColumns[K] } = {};
    if (read.stats) columns.stats = 'string';
    for (const part of read.parts) copy(columns, PART_TYPE, part);
    schema = rowSchema('variant series, primary region', columns);
    seriesSchemas.set(key, schema);
  }
  return schema;
}

/** `to[key] = from[key]`, for a key of a union type. */
function copy<T, K extends keyof T>(to: { -readonly [P in keyof T]?: T[P] }, from: Partial<T>, key: K): void {
  to[key] = from[key];
}

/**
 * The variants the scope returns of the given cards, one row each without their card's columns,
 * with their series in each region as `read` asks: the primary region's as columns, the other
 * regions' as one JSON object per variant, {region: {updatedAt, stats, parts…}}. Statistics as text
 * in a column (parsed here), as jsonb inside the other regions' object. Of the shapes tried (one
 * row per variant with the card's columns, a json_agg of the variants per card) this one costs the
 * server least, and the driver's parsing no more. The cards drive the join through unnest rather
 * than `= ANY`: for a batch's 200 cards the planner's first plans of `= ANY` scanned variants with
 * parallel workers, several times slower than these probes.
 */
export function variantSeriesStatement({ cardUuids, scope, regions, read }: VariantSeriesQuery) {
  // A series' members as [name, SQL] over the prices alias; names and columns are our own.
  const seriesOf = (alias: 'vp' | 'o', statsAsText: boolean): [string, Sql][] => [
    ['updatedAt', sql.raw(`${alias}.updated_at::float8`)],
    ...(read.stats
      ? [['stats', sql.raw(`${alias}.stats${statsAsText ? '::text' : ''}`)] as [string, Sql]]
      : []),
    ...read.parts.map((part): [string, Sql] => [part, sql.raw(`${alias}.${RENDERED_COLUMN_OF[part]}`)]),
  ];
  const primary = joined(
    seriesOf('vp', true).map(([name, column]) => sql`${column} AS ${sql.raw(`"${name}"`)}`),
  );
  const others =
    regions.length > 1
      ? sql`(SELECT json_object_agg(o.region, json_build_object(${joined(
          seriesOf('o', false).map(([name, column]) => sql`${sql.lit(name)}, ${column}`),
        )}))
            FROM variant_prices o
            WHERE o.variant_uuid = v.uuid AND o.region = ANY(${regions.slice(1)}::text[]))::text`
      : sql`NULL`;
  return sql`SELECT ${sql.raw(variantColumnsSql('v'))}, ${primary}, ${others} AS others
         FROM unnest(${cardUuids}::uuid[]) AS k(card_uuid)
         JOIN variants v ON v.card_uuid = k.card_uuid
         LEFT JOIN variant_prices vp ON vp.variant_uuid = v.uuid AND vp.region = ${regions[0]}
         WHERE ${variantWhere(scope.filter, scope.onlyVariant, scope.onlySku)}
         ORDER BY v.card_uuid, v.id`;
}

/** Each variant with its series, by card, in the cards' variant order. */
export async function readVariantSeries(
  source: ReadSource,
  query: VariantSeriesQuery,
): Promise<{ readonly cardUuid: string; readonly priced: PricedVariant }[]> {
  const rows = await runRead(source, ROW, variantSeriesStatement(query));
  const primary = seriesSchema(query.read);
  return rows.map((r) => {
    const variant = toVariant(r);
    const series = r.updatedAt === null ? null : storedSeries(r.updatedAt, checkRow(primary, r), query.read);
    return {
      cardUuid: r.cardUuid,
      priced:
        r.others === null
          ? { variant, primary: series }
          : { variant, primary: series, otherRegions: JSON.parse(r.others) as Record<string, StoredSeries> },
    };
  });
}

function storedSeries(
  updatedAt: number,
  r: { readonly stats?: string } & Partial<RenderedSeries>,
  read: SeriesRead,
): StoredSeries {
  const out: { -readonly [K in keyof StoredSeries]: StoredSeries[K] } = { updatedAt };
  if (read.stats) out.stats = JSON.parse(r.stats!) as SeriesStats;
  for (const part of read.parts) copy<RenderedSeries, typeof part>(out, r, part);
  return out;
}

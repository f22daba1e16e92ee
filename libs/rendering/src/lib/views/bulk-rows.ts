import { canonicalGrade, Grading, Language, minorUnitsPerMajor, v1Printing } from '@tcg/domain';
import { presentStats, SeriesStats } from '@tcg/pricing-stats';
import { v1StatisticFields } from '../v1';

/**
 * One bulk row: a variant in one region where it has observations (a variant with none in any
 * region gets one row with the market columns empty), with its card's and set's identifiers.
 * Names and units are v1's wherever v1 has the field (docs/bulk-data.md lists every column):
 * money in the region's currency as a decimal, percentages and ratios rounded as v1 rounds them,
 * times in Unix seconds, and v1's printing (with its ` - <Language>` suffix).
 */
export type BulkRow = Readonly<Record<(typeof BULK_COLUMNS)[number], string | number | boolean | null>>;

const IDENTITY_COLUMNS = [
  'game',
  'set',
  'set_name',
  'card_id',
  'card_uuid',
  'name',
  'number',
  'rarity',
  'sealed',
  'vendorId',
  'opensetId',
  'imagedbId',
  'variant_id',
  'variant_uuid',
  'type',
  'condition',
  'printing',
  'language',
  'vendorSkuId',
  'grading_company',
  'grade',
  'grade_label',
  'grading_qualifier',
  'grade_canonical',
  'region',
  'currency',
] as const;

/** v1's flat price and statistic fields, in v1's order (`v1StatisticFields`). */
const STATISTIC_COLUMNS = Object.keys(v1StatisticFields(null)) as readonly string[];

export const BULK_COLUMNS: readonly string[] = [...IDENTITY_COLUMNS, ...STATISTIC_COLUMNS];

/**
 * A variant joined with its card and set and, when priced there, one region's statistics: a row of
 * the bulk read (`@tcg/persistence`'s snapshot generator), columns as its SQL names them.
 */
export interface BulkSourceRow {
  readonly game_id: string;
  readonly set_id: string;
  readonly set_name: string;
  readonly card_id: string;
  readonly card_uuid: string;
  readonly name: string;
  readonly number: string | null;
  readonly rarity: string | null;
  readonly sealed: boolean;
  readonly vendor_id: string | null;
  readonly openset_id: string | null;
  readonly imagedb_id: string | null;
  readonly variant_id: string;
  readonly variant_uuid: string;
  /** The variants.type column as read (text): 'raw' or 'graded'. */
  readonly type: string;
  readonly condition: string | null;
  readonly printing: string;
  readonly language: string;
  readonly vendor_sku_id: string | null;
  readonly grading_company: string | null;
  readonly grade: number | null;
  readonly grade_label: string | null;
  readonly grading_qualifier: string | null;
  readonly region: string | null;
  readonly currency: string | null;
  /** `variant_prices.stats` as JSON text (minor units), null without observations. */
  readonly stats: string | null;
}

export function toBulkRow(r: BulkSourceRow): BulkRow {
  const grading: Grading | null =
    r.grading_company === null
      ? null
      : {
          company: r.grading_company as Grading['company'],
          grade: r.grade,
          gradeLabel: r.grade_label,
          qualifier: r.grading_qualifier,
        };
  const stats =
    r.stats === null || r.currency === null
      ? null
      : presentStats(JSON.parse(r.stats) as SeriesStats, minorUnitsPerMajor(r.currency.trim()));
  return {
    game: r.game_id,
    set: r.set_id,
    set_name: r.set_name,
    card_id: r.card_id,
    card_uuid: r.card_uuid,
    name: r.name,
    number: r.number,
    rarity: r.rarity,
    sealed: r.sealed,
    vendorId: r.vendor_id,
    opensetId: r.openset_id,
    imagedbId: r.imagedb_id,
    variant_id: r.variant_id,
    variant_uuid: r.variant_uuid,
    type: r.type,
    condition: r.condition,
    printing: v1Printing(r.printing, r.language as Language),
    language: r.language,
    vendorSkuId: r.vendor_sku_id,
    grading_company: grading?.company ?? null,
    grade: grading?.grade ?? null,
    grade_label: grading?.gradeLabel ?? null,
    grading_qualifier: grading?.qualifier ?? null,
    grade_canonical: grading ? canonicalGrade(grading) : null,
    region: r.region,
    currency: r.currency?.trim() ?? null,
    ...v1StatisticFields(stats),
  };
}

/** The rows as NDJSON: one JSON object per line, members in column order. */
export function ndjsonLines(rows: readonly BulkRow[]): string {
  let out = '';
  for (const row of rows) out += `${JSON.stringify(row)}\n`;
  return out;
}

/** The CSV header line (RFC 4180 with `\n` line ends, as the rows). */
export function csvHeader(): string {
  return `${BULK_COLUMNS.map(csvCell).join(',')}\n`;
}

/**
 * The rows as CSV lines: null is an empty cell, booleans `true`/`false`, numbers as JSON writes
 * them (the same text as in the NDJSON file), and a text with a comma, a quote or a line break
 * quoted with its quotes doubled (RFC 4180). Written here rather than with csv-stringify, which
 * took three times as long per row (measured at medium: 2.2 s of a 5 s generation's CPU).
 */
export function csvLines(rows: readonly BulkRow[]): string {
  let out = '';
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < BULK_COLUMNS.length; i++) {
      if (i > 0) line += ',';
      line += csvCell(row[BULK_COLUMNS[i] as keyof BulkRow]);
    }
    out += `${line}\n`;
  }
  return out;
}

const NEEDS_QUOTES = /[",\r\n]/;

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

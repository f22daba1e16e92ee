import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  CONDITIONS,
  GradingCompany,
  GRADING_COMPANIES,
  LANGUAGE_NAMES,
  PRICE_SOURCES,
  PriceSource,
} from '@tcg/domain';

/** docs/spec/interface.md "v2 PricePoint". */
export class PricePointV2 {
  @ApiProperty({ type: 'integer', description: 'Unix timestamp (seconds).', example: 1767225600 })
  t!: number;

  @ApiProperty({ type: 'number', description: "Price in the market's currency.", example: 28500 })
  p!: number;
}

/** A statistic of a period: optional (only the windows that carry it) and null when undefined. */
function PeriodStat(description: string, example: number | string, windows?: string): PropertyDecorator {
  return ApiPropertyOptional({
    type: typeof example === 'string' ? 'string' : 'number',
    format: typeof example === 'string' ? 'date' : undefined,
    nullable: true,
    description: windows ? `${description} ${windows}` : description,
    example,
  });
}

/**
 * docs/spec/interface.md "v2 PeriodStats": only the fields the window carries. 7d, 30d and 90d carry
 * `change_pct` to `changes_count` (30d and 90d add `range_position`); 1y carries `min` and `max`;
 * all_time `min`, `max`, `min_date` and `max_date`. Values equal v1's flat statistic fields.
 */
export class PeriodStatsV2 {
  @PeriodStat('Percent change over the window.', 5.1, '7d, 30d and 90d only.')
  change_pct?: number | null;

  @PeriodStat('Mean price.', 27950.5, '7d, 30d and 90d only.')
  avg?: number | null;

  @PeriodStat('Lowest price.', 27100)
  min?: number | null;

  @PeriodStat('Highest price.', 28500)
  max?: number | null;

  @PeriodStat('Population standard deviation.', 402.77, '7d, 30d and 90d only.')
  stddev?: number | null;

  @PeriodStat('Coefficient of variation (stddev / avg, a ratio).', 0.0144, '7d, 30d and 90d only.')
  cov?: number | null;

  @PeriodStat('Interquartile range.', 600, '7d, 30d and 90d only.')
  iqr?: number | null;

  @PeriodStat('Least-squares trend, currency units per day.', 41.3, '7d, 30d and 90d only.')
  trend_slope?: number | null;

  @PeriodStat('Adjacent observations with different prices.', 9, '7d, 30d and 90d only.')
  changes_count?: number | null;

  @PeriodStat("Position of the current price in the window's low-high range, 0 to 1.", 1, '30d and 90d only.')
  range_position?: number | null;

  @PeriodStat('UTC date of the earliest observation at the all-time low.', '2025-01-14', 'all_time only.')
  min_date?: string | null;

  @PeriodStat('UTC date of the earliest observation at the all-time high.', '2026-01-01', 'all_time only.')
  max_date?: string | null;
}

/**
 * The five windows, each with its statistics (`stats`): `periods` and its converted twin list the
 * same windows. `allTime` says which statistics all_time carries.
 */
function Windows<T>(stats: Type<T>, allTime: string) {
  class WindowsOfStats {
    @ApiPropertyOptional({ type: () => stats })
    '7d'?: T;

    @ApiPropertyOptional({ type: () => stats })
    '30d'?: T;

    @ApiPropertyOptional({ type: () => stats })
    '90d'?: T;

    @ApiPropertyOptional({ type: () => stats, description: '`min` and `max` only.' })
    '1y'?: T;

    @ApiPropertyOptional({ type: () => stats, description: allTime })
    all_time?: T;
  }
  return WindowsOfStats;
}

/** The requested windows of `include` (all of them by default); windows not requested are omitted. */
export class PeriodsV2 extends Windows(PeriodStatsV2, '`min`, `max`, `min_date` and `max_date` only.') {}

/** A converted history point: its own day's rate (docs/currencies.md). */
export class ConvertedPricePointV2 {
  @ApiProperty({
    type: 'integer',
    description: "The point's Unix timestamp (seconds), as in `price_history`.",
    example: 1488542400,
  })
  t!: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'The price in the asked currency; null when its day has no rate (`reason`).',
    example: 10.41,
  })
  p!: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Units of the asked currency per unit of the native one, 6 decimals.',
    example: 0.946522,
  })
  rate!: number | null;

  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    description: "The date of the rate used: the point's UTC day, or the latest ECB business day before it.",
    example: '2017-03-03',
  })
  rate_date!: string | null;

  @ApiPropertyOptional({ description: 'Why there is no converted price (no ECB rate within 7 days).' })
  reason?: string;
}

/** The money statistics of a window in the asked currency: `avg`, `min`, `max`, `stddev`, `iqr`, `trend_slope`. */
export class ConvertedPeriodStatsV2 {
  @PeriodStat('Mean price.', 9.94)
  avg?: number | null;

  @PeriodStat('Lowest price.', 9.47)
  min?: number | null;

  @PeriodStat('Highest price.', 10.41)
  max?: number | null;

  @PeriodStat('Population standard deviation.', 0.47)
  stddev?: number | null;

  @PeriodStat('Interquartile range.', 0.47)
  iqr?: number | null;

  @PeriodStat('Least-squares trend, units of the asked currency per day.', 0.9465)
  trend_slope?: number | null;
}

/** The windows of `periods`, each with its money statistics converted. */
export class ConvertedPeriodsV2 extends Windows(ConvertedPeriodStatsV2, '`min` and `max` only.') {}

/**
 * `currency=`: the market's price in the asked currency beside the native one (docs/currencies.md),
 * converted with the ECB's euro reference rate of the market's own observation day.
 */
export class ConversionV2 {
  @ApiProperty({ description: 'The asked ISO 4217 code.', example: 'EUR' })
  currency!: string;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      '`price` in the asked currency, rounded once to its minor unit; null when there is no price or no rate (`reason`).',
    example: 10.41,
  })
  price!: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      'Units of the asked currency per unit of the native one (cross rates through the euro), 6 decimals; 1 when they are the same.',
    example: 0.946522,
  })
  rate!: number | null;

  @ApiProperty({
    type: 'string',
    format: 'date',
    nullable: true,
    description:
      "The rate's own date: the UTC day of `updated_at`, or the latest ECB business day before it (weekends, TARGET holidays), at most 7 days back; null without a rate or when nothing was converted.",
    example: '2017-03-03',
  })
  rate_date!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Who published the rate; null without a rate or when nothing was converted.',
    example: 'ECB euro foreign exchange reference rates',
  })
  source!: string | null;

  @ApiPropertyOptional({
    description:
      'Why `price` is null: the market has no price, or the ECB has no rate for the currency within 7 days of the day.',
    example: 'no ECB rate for USD on 2017-03-20 or in the 7 days before it',
  })
  reason?: string;

  @ApiPropertyOptional({
    type: () => ConvertedPeriodsV2,
    description:
      "The windows of `periods`, their money statistics at the rate of the market's observation day (the day every window ends on).",
  })
  periods?: ConvertedPeriodsV2;

  @ApiPropertyOptional({
    type: () => [ConvertedPricePointV2],
    description: 'The points of `price_history`, each converted with the rate of its own day.',
  })
  price_history?: ConvertedPricePointV2[];
}

/** docs/spec/interface.md "v2 Market". `price` is always present; `periods` and `price_history` when asked for. */
export class MarketV2 {
  @ApiProperty({
    description:
      'The requested region code: a market code (NA, EU, UK, JP, OCE, LATAM, OTHER) or an ISO 3166-1 alpha-2 country code.',
    example: 'NA',
  })
  region!: string;

  @ApiProperty({
    description:
      "ISO 4217 code quoting `price` and every `periods` value: the market's main currency, or the country's.",
    example: 'USD',
  })
  currency!: string;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description:
      'Observed price in this region; null when the region has no data. Never converted or copied from another region.',
    example: 28500,
  })
  price!: number | null;

  /** null when the region has no observation of this variant. */
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix timestamp (seconds) of the latest observation; null when the region has none.',
    example: 1767225600,
  })
  updated_at!: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Percent change over 24 hours (v1 `priceChange24hr`).',
    example: 0.85,
  })
  change_24h_pct!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: nullableEnum(PRICE_SOURCES),
    description:
      "Where this market's observations come from: `tcgplayer` (TCGplayer market price, NA's primary source), " +
      "`cardmarket` (Cardmarket trend price, EU's), `imported` (the operator's own price files) or `simulated` " +
      '(generated sample prices, not market data); null when the region has no observation. `updated_at` is ' +
      'the time of its last observation.',
    example: 'tcgplayer',
  })
  source!: PriceSource | null;

  @ApiPropertyOptional({
    type: () => PeriodsV2,
    description:
      'Statistics per window; present when `include` asks for periods (the default); `{}` for a region without data.',
  })
  periods?: PeriodsV2;

  @ApiPropertyOptional({
    type: () => [PricePointV2],
    description:
      'Observed prices, oldest first, over the `price_history` window back from the latest one; present when `include` asks for it (the default); `[]` for a region without data.',
  })
  price_history?: PricePointV2[];

  @ApiPropertyOptional({
    type: () => ConversionV2,
    description:
      'Present only with `currency=`: the price in that currency, with the rate, its date and its source (docs/currencies.md).',
  })
  conversion?: ConversionV2;
}

/** docs/spec/interface.md "v2 Grading". */
export class GradingV2 {
  @ApiProperty({ enum: GRADING_COMPANIES, example: 'PSA' })
  company!: GradingCompany;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Numeric grade, 1 to 10 in halves; null only for cards graded as authentic.',
    example: 9,
  })
  grade!: number | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Special designation, e.g. `Black Label`.',
    example: null,
  })
  grade_label!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Grading qualifier (e.g. an off-centre mark); qualified cards are priced separately.',
    example: null,
  })
  qualifier!: string | null;

  @ApiProperty({ description: 'Display-ready grade.', example: 'PSA 9' })
  canonical!: string;
}

export class VariantExternalIdsV2 {
  @ApiProperty({ type: 'string', nullable: true, description: 'Marketplace SKU ID.', example: null })
  vendor_sku!: string | null;
}

/** docs/spec/interface.md "v2 Variant": raw (condition set, grading null) or graded (condition null, grading set). */
export class VariantV2 {
  @ApiProperty({
    format: 'uuid',
    description: 'Stable identifier (v1 variant `uuid`).',
    example: 'd8ee383d-b80b-543c-a417-dba03eca7cf4',
  })
  id!: string;

  @ApiProperty({
    description: 'Legacy v1 variant `id`; still accepted for lookups.',
    example: 'magic-the-gathering-limited-edition-alpha-black-lotus-rare_near-mint_normal',
  })
  slug!: string;

  @ApiProperty({ enum: ['raw', 'graded'], example: 'raw' })
  type!: 'raw' | 'graded';

  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: nullableEnum(CONDITIONS.map((c) => c.long)),
    description: 'Set for raw variants; null for graded ones.',
    example: 'Near Mint',
  })
  condition!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Print type only (no language suffix, unlike v1).',
    example: 'Normal',
  })
  printing!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    enum: nullableEnum(LANGUAGE_NAMES.filter((l) => l !== 'English')),
    description: 'Set only for non-English printings; null means English.',
    example: null,
  })
  language!: string | null;

  @ApiProperty({ type: () => VariantExternalIdsV2 })
  external_ids!: VariantExternalIdsV2;

  @ApiProperty({
    type: () => GradingV2,
    nullable: true,
    description: 'Set for graded variants; null for raw ones.',
    example: null,
  })
  grading!: GradingV2 | null;

  @ApiProperty({
    type: () => [MarketV2],
    description: 'One entry per requested region, in request order; `markets[0]` is the primary market.',
  })
  markets!: MarketV2[];
}

export class CardGameV2 {
  @ApiProperty({ example: 'magic-the-gathering' })
  id!: string;

  @ApiProperty({ example: 'Magic: The Gathering' })
  name!: string;
}

export class CardSetV2 {
  @ApiProperty({ example: 'magic-the-gathering-limited-edition-alpha' })
  id!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'Limited Edition Alpha' })
  name!: string | null;
}

export class CardExternalIdsV2 {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Marketplace product ID (v1 `vendorId`).',
    example: null,
  })
  vendor!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Card-data provider ID (v1 `imagedbId`).',
    example: null,
  })
  imagedb!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Card-data provider ID (v1 `opensetId`).',
    example: 'c944c7dc960c4832604973844edee2a1fdc82d98',
  })
  openset!: string | null;
}

/** docs/spec/interface.md "v2 Card". Fields that were not requested are omitted, not sent as null. */
export class CardV2 {
  @ApiProperty({
    format: 'uuid',
    description: 'Stable native identifier (v1 `uuid`); key on it.',
    example: '9b687c18-3204-583e-ba39-00de37c7b19c',
  })
  id!: string;

  @ApiProperty({
    description: 'Legacy v1 card `id`; still accepted for lookups.',
    example: 'magic-the-gathering-limited-edition-alpha-black-lotus-rare',
  })
  slug!: string;

  @ApiProperty({ example: 'Black Lotus' })
  name!: string;

  @ApiProperty({ type: () => CardGameV2 })
  game!: CardGameV2;

  @ApiProperty({ type: () => CardSetV2 })
  set!: CardSetV2;

  @ApiProperty({ type: 'string', nullable: true, description: 'Card number in its set.', example: '232' })
  number!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Rare' })
  rarity!: string | null;

  @ApiProperty({ type: () => CardExternalIdsV2 })
  external_ids!: CardExternalIdsV2;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Free-form extra detail.',
    example: 'Artifact',
  })
  details!: string | null;

  @ApiProperty({ type: () => [VariantV2] })
  variants!: VariantV2[];
}

export class CursorsV2 {
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Opaque cursor of the next page; null on the last one.',
    example: 'eyJrIjpbIm1hZ2ljIiwiMjMyIl19.c2lnbmF0dXJl',
  })
  next!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Opaque cursor of the previous page; null on the first one.',
    example: null,
  })
  prev!: string | null;
}

/** docs/spec/interface.md "v2 pagination meta". */
export class PaginationMetaV2 {
  @ApiProperty({ type: 'integer', description: "Items in this response's `data`.", example: 20 })
  count!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Matches across pages; null means unknown (not counted in time), not zero.',
    example: 295,
  })
  total!: number | null;

  @ApiProperty({
    type: 'integer',
    description: 'Page size used (a larger `limit` is clamped to the plan).',
    example: 20,
  })
  limit!: number;

  @ApiProperty({ example: true })
  has_more!: boolean;

  @ApiProperty({ type: () => CursorsV2 })
  cursor!: CursorsV2;
}

/** docs/spec/interface.md "CardsV2Response". */
export class CardsV2Response {
  @ApiProperty({ type: () => [CardV2] })
  data!: CardV2[];

  @ApiProperty({ type: () => PaginationMetaV2 })
  meta!: PaginationMetaV2;
}

/** docs/spec/interface.md "CardV2Response": one card, no `meta`. */
export class CardV2Response {
  @ApiProperty({ type: () => CardV2 })
  data!: CardV2;
}

/**
 * An enum whose property may be null: in OpenAPI 3.0, `nullable: true` does not admit null past an
 * `enum` that leaves it out, so validators and client generators would refuse the null the API
 * sends. (The decorator's type has no room for null, hence the cast.)
 */
function nullableEnum(values: readonly string[]): string[] {
  return [...values, null] as unknown as string[];
}

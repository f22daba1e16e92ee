import { ApiProperty } from '@nestjs/swagger';
import { CONDITIONS, LANGUAGE_NAMES, toMajor, v1Printing } from '@tcg/domain';
import { emptySeriesStats, presentStats } from '@tcg/pricing-stats';
import { CardWithVariants, PricedVariant } from '@tcg/persistence';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';
import { PaginationMetaDto } from '../../common/dto/pagination-meta.dto';
import { HISTORY_DURATIONS, historyLookbackSeconds, StatisticWindow } from './cards-query';

/** A price observation: `p` in USD at `t`, a Unix timestamp in seconds. */
export class PricePointDto {
  @ApiProperty({ type: 'number', format: 'float', description: 'Price in USD.', example: 28500 })
  p!: number;

  @ApiProperty({ type: 'integer', description: 'Unix timestamp (seconds).', example: 1767225600 })
  t!: number;
}

const NOT_REQUESTED = 'null when the window is not requested through `include_statistics`';

/** A flat statistic of decisions.md: a number (or date) that is null when not requested or undefined. */
function Stat(
  description: string,
  example: number | string,
  nullWhen: string,
  type: 'number' | 'integer' | 'date' = 'number',
): PropertyDecorator {
  return ApiProperty({
    type: type === 'date' ? 'string' : type,
    format: type === 'date' ? 'date' : undefined,
    nullable: true,
    description: `${description}; ${NOT_REQUESTED} or ${nullWhen}.`,
    example,
  });
}

/**
 * interface.md "v1 Variant" with every flat statistic field of decisions.md. Windows are anchored
 * at the variant's latest observation; money is USD, rounded to cents.
 */
export class VariantDto {
  @ApiProperty({
    description: 'Variant slug: `<cardId>_<condition>_<printing>[_<language>]`.',
    example: 'magic-the-gathering-limited-edition-alpha-black-lotus-rare_near-mint_normal',
  })
  id!: string;

  @ApiProperty({
    format: 'uuid',
    description: 'UUID of the variant.',
    example: 'd8ee383d-b80b-543c-a417-dba03eca7cf4',
  })
  uuid!: string;

  @ApiProperty({
    description: 'Long form of the condition name.',
    enum: CONDITIONS.map((c) => c.long),
    example: 'Near Mint',
  })
  condition!: string;

  @ApiProperty({
    description:
      'Printing type; a non-English variant carries the suffix ` - <Language>` (`Normal - Japanese`).',
    example: 'Normal',
  })
  printing!: string;

  @ApiProperty({ enum: LANGUAGE_NAMES, example: 'English' })
  language!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Marketplace SKU ID.', example: null })
  vendorSkuId!: string | null;

  @ApiProperty({
    type: 'number',
    format: 'float',
    nullable: true,
    description: 'Current price in USD (NA market); null when the variant has no price.',
    example: 28500,
  })
  price!: number | null;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix timestamp (seconds) of the latest observation; null when the variant has no price.',
    example: 1767225600,
  })
  lastUpdated!: number | null;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Percent change over 24 hours; null without an earlier observation to compare with.',
    example: 0.85,
  })
  priceChange24hr!: number | null;

  @Stat('Percent change over 7 days', 2.4, 'without an earlier observation to compare with')
  priceChange7d!: number | null;

  @Stat('Mean price over 7 days, USD', 28321.43, 'without observations in the window')
  avgPrice!: number | null;

  @Stat('Lowest price over 7 days, USD', 27800, 'without observations in the window')
  minPrice7d!: number | null;

  @Stat('Highest price over 7 days, USD', 28500, 'without observations in the window')
  maxPrice7d!: number | null;

  @Stat(
    'Population standard deviation of the prices over 7 days, USD',
    254.1,
    'without observations in the window',
  )
  stddevPopPrice7d!: number | null;

  @Stat('Coefficient of variation over 7 days (stddev / avg, a ratio)', 0.009, 'when the mean is 0')
  covPrice7d!: number | null;

  @Stat('Interquartile range of the prices over 7 days, USD', 350, 'without observations in the window')
  iqrPrice7d!: number | null;

  @Stat('Least-squares trend over 7 days, USD per day', 98.2143, 'with fewer than two distinct times')
  trendSlope7d!: number | null;

  @Stat(
    'Adjacent observations with different prices over 7 days',
    3,
    'without observations in the window',
    'integer',
  )
  priceChangesCount7d!: number | null;

  @Stat('Percent change over 30 days', 5.1, 'without an earlier observation to compare with')
  priceChange30d!: number | null;

  @Stat('Mean price over 30 days, USD', 27950.5, 'without observations in the window')
  avgPrice30d!: number | null;

  @Stat('Lowest price over 30 days, USD', 27100, 'without observations in the window')
  minPrice30d!: number | null;

  @Stat('Highest price over 30 days, USD', 28500, 'without observations in the window')
  maxPrice30d!: number | null;

  @Stat(
    'Population standard deviation of the prices over 30 days, USD',
    402.77,
    'without observations in the window',
  )
  stddevPopPrice30d!: number | null;

  @Stat('Coefficient of variation over 30 days (stddev / avg, a ratio)', 0.0144, 'when the mean is 0')
  covPrice30d!: number | null;

  @Stat('Interquartile range of the prices over 30 days, USD', 600, 'without observations in the window')
  iqrPrice30d!: number | null;

  @Stat('Least-squares trend over 30 days, USD per day', 41.3, 'with fewer than two distinct times')
  trendSlope30d!: number | null;

  @Stat(
    'Adjacent observations with different prices over 30 days',
    9,
    'without observations in the window',
    'integer',
  )
  priceChangesCount30d!: number | null;

  @Stat(
    'Position of the current price in the 30-day low-high range, 0 to 1',
    1,
    'when the low equals the high',
  )
  priceRelativeTo30dRange!: number | null;

  @Stat('Percent change over 90 days', 9.62, 'without an earlier observation to compare with')
  priceChange90d!: number | null;

  @Stat('Mean price over 90 days, USD', 27012.34, 'without observations in the window')
  avgPrice90d!: number | null;

  @Stat('Lowest price over 90 days, USD', 25600, 'without observations in the window')
  minPrice90d!: number | null;

  @Stat('Highest price over 90 days, USD', 28500, 'without observations in the window')
  maxPrice90d!: number | null;

  @Stat(
    'Population standard deviation of the prices over 90 days, USD',
    811.06,
    'without observations in the window',
  )
  stddevPopPrice90d!: number | null;

  @Stat('Coefficient of variation over 90 days (stddev / avg, a ratio)', 0.03, 'when the mean is 0')
  covPrice90d!: number | null;

  @Stat('Interquartile range of the prices over 90 days, USD', 1250, 'without observations in the window')
  iqrPrice90d!: number | null;

  @Stat('Least-squares trend over 90 days, USD per day', 29.1, 'with fewer than two distinct times')
  trendSlope90d!: number | null;

  @Stat(
    'Adjacent observations with different prices over 90 days',
    24,
    'without observations in the window',
    'integer',
  )
  priceChangesCount90d!: number | null;

  @Stat(
    'Position of the current price in the 90-day low-high range, 0 to 1',
    1,
    'when the low equals the high',
  )
  priceRelativeTo90dRange!: number | null;

  @Stat('Lowest price over 1 year, USD', 22150, 'without observations in the window')
  minPrice1y!: number | null;

  @Stat('Highest price over 1 year, USD', 28500, 'without observations in the window')
  maxPrice1y!: number | null;

  @Stat('All-time lowest price, USD', 15400, 'without observations')
  minPriceAllTime!: number | null;

  @Stat(
    'UTC date of the earliest observation at the all-time low',
    '2025-01-14',
    'without observations',
    'date',
  )
  minPriceAllTimeDate!: string | null;

  @Stat('All-time highest price, USD', 28500, 'without observations')
  maxPriceAllTime!: number | null;

  @Stat(
    'UTC date of the earliest observation at the all-time high',
    '2026-01-01',
    'without observations',
    'date',
  )
  maxPriceAllTimeDate!: string | null;

  @ApiProperty({
    type: () => [PricePointDto],
    nullable: true,
    description:
      'Observations over `priceHistoryDuration` back from the latest one, oldest first; `[]` when the variant has no price, null with `include_price_history=false`.',
  })
  priceHistory!: PricePointDto[] | null;

  @ApiProperty({
    type: () => [PricePointDto],
    nullable: true,
    deprecated: true,
    description:
      'Deprecated: observations over 30 days back from the latest one; null with `include_price_history=false`.',
  })
  priceHistory30d!: PricePointDto[] | null;
}

/** interface.md "v1 Card": pricing is inside `variants`. */
export class CardDto {
  @ApiProperty({
    description: 'Card slug: `game-set-name-rarity`.',
    example: 'magic-the-gathering-limited-edition-alpha-black-lotus-rare',
  })
  id!: string;

  @ApiProperty({
    format: 'uuid',
    description: 'UUID of the card; use it for unique identification.',
    example: '9b687c18-3204-583e-ba39-00de37c7b19c',
  })
  uuid!: string;

  @ApiProperty({ example: 'Black Lotus' })
  name!: string;

  @ApiProperty({ description: 'Game ID.', example: 'magic-the-gathering' })
  game!: string;

  @ApiProperty({ description: 'Set ID.', example: 'magic-the-gathering-limited-edition-alpha' })
  set!: string;

  @ApiProperty({ example: 'Limited Edition Alpha' })
  set_name!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Card number in its set.', example: '232' })
  number!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Marketplace product ID.', example: null })
  vendorId!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Identifier from a card-data provider.',
    example: 'c944c7dc960c4832604973844edee2a1fdc82d98',
  })
  opensetId!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Identifier from a card-data provider.',
    example: null,
  })
  imagedbId!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Rare' })
  rarity!: string | null;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Free-form extra detail.',
    example: 'Artifact',
  })
  details!: string | null;

  @ApiProperty({ type: () => [VariantDto] })
  variants!: VariantDto[];
}

/** interface.md "CardsResponse". */
export class CardsResponseDto {
  @ApiProperty({ type: () => [CardDto] })
  data!: CardDto[];

  @ApiProperty({ type: () => PaginationMetaDto })
  meta!: PaginationMetaDto;

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

type History = { t: number[]; p: number[] } | undefined;

function points(h: History, since: number): PricePointDto[] {
  const out: PricePointDto[] = [];
  if (!h) return out;
  // Read once: every read of an imported function goes through the re-export getters of the
  // library's index, and a batch converts a hundred thousand prices.
  const major = toMajor;
  for (let i = 0; i < h.t.length; i++) if (h.t[i]! > since) out.push({ p: major(h.p[i]!), t: h.t[i]! });
  return out;
}

/** The points of an ascending list after `since`: a suffix of it. */
function suffixAfter(list: PricePointDto[], since: number): PricePointDto[] {
  let from = list.length;
  while (from > 0 && list[from - 1]!.t > since) from--;
  return list.slice(from);
}

/** What a variant without observations shows for every window: the engine's empty statistics. */
const NONE = presentStats(emptySeriesStats());

/**
 * The variant with every flat v1 statistic of decisions.md (null for windows not asked for).
 * One object literal with fixed keys: a batch builds thousands of these, and building them from
 * spread fragments with computed keys cost more than the database queries (measured: 55 ms of
 * a 210 ms 200-card batch, plus the garbage it left).
 */
export function toVariantDto(
  pv: PricedVariant,
  history: History,
  opts: { windows: ReadonlySet<StatisticWindow>; includeHistory: boolean; durationSeconds: number },
): VariantDto {
  const v = pv.variant;
  const s = pv.stats ? presentStats(pv.stats) : null;
  const now = pv.stats?.current?.t;
  const pick = (w: '7d' | '30d' | '90d') => (s && opts.windows.has(w) ? s[w] : NONE[w]);
  const w7 = pick('7d');
  const w30 = pick('30d');
  const w90 = pick('90d');
  const y = s && opts.windows.has('1y') ? s['1y'] : NONE['1y'];
  const all = s && opts.windows.has('allTime') ? s.allTime : NONE.allTime;
  // History covers the duration back from the variant's latest observation, as the statistics do.
  // Both lists end at the latest point, so the shorter is a suffix of the longer: built once.
  let recent: PricePointDto[] | null = null;
  let lastThirtyDays: PricePointDto[] | null = null;
  if (opts.includeHistory) {
    if (now === undefined) {
      recent = [];
      lastThirtyDays = [];
    } else {
      const longest = points(history, now - historyLookbackSeconds(opts.durationSeconds));
      recent = suffixAfter(longest, now - opts.durationSeconds);
      lastThirtyDays = suffixAfter(longest, now - HISTORY_DURATIONS['30d']);
    }
  }
  return {
    id: v.id,
    uuid: v.uuid,
    condition: v.condition ?? '',
    printing: v1Printing(v.printing, v.language),
    language: v.language,
    vendorSkuId: v.vendorSkuId,
    price: s?.price ?? null,
    lastUpdated: s?.updatedAt ?? null,
    priceChange24hr: s?.change24h ?? null,
    priceChange7d: w7.change,
    avgPrice: w7.avg,
    minPrice7d: w7.min,
    maxPrice7d: w7.max,
    stddevPopPrice7d: w7.stddev,
    covPrice7d: w7.cov,
    iqrPrice7d: w7.iqr,
    trendSlope7d: w7.trendSlope,
    priceChangesCount7d: w7.changesCount,
    priceChange30d: w30.change,
    avgPrice30d: w30.avg,
    minPrice30d: w30.min,
    maxPrice30d: w30.max,
    stddevPopPrice30d: w30.stddev,
    covPrice30d: w30.cov,
    iqrPrice30d: w30.iqr,
    trendSlope30d: w30.trendSlope,
    priceChangesCount30d: w30.changesCount,
    priceRelativeTo30dRange: w30.rangePosition,
    priceChange90d: w90.change,
    avgPrice90d: w90.avg,
    minPrice90d: w90.min,
    maxPrice90d: w90.max,
    stddevPopPrice90d: w90.stddev,
    covPrice90d: w90.cov,
    iqrPrice90d: w90.iqr,
    trendSlope90d: w90.trendSlope,
    priceChangesCount90d: w90.changesCount,
    priceRelativeTo90dRange: w90.rangePosition,
    minPrice1y: y.min,
    maxPrice1y: y.max,
    minPriceAllTime: all.min,
    minPriceAllTimeDate: all.minDate,
    maxPriceAllTime: all.max,
    maxPriceAllTimeDate: all.maxDate,
    priceHistory: recent,
    priceHistory30d: lastThirtyDays,
  };
}

export function toCardDto(c: CardWithVariants, variants: VariantDto[]): CardDto {
  return {
    id: c.card.id,
    uuid: c.card.uuid,
    name: c.card.name,
    game: c.card.gameId,
    set: c.card.setId,
    set_name: c.setName,
    number: c.card.number,
    vendorId: c.card.vendorId,
    opensetId: c.card.opensetId,
    imagedbId: c.card.imagedbId,
    rarity: c.card.rarity,
    details: c.card.details,
    variants,
  };
}

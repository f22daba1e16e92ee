import { ApiProperty } from '@nestjs/swagger';
import { CONDITIONS, LANGUAGE_NAMES } from '@tcg/domain';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';
import { PaginationMetaDto } from '../../common/dto/pagination-meta.dto';

/** A price observation: `p` in USD at `t`, a Unix timestamp in seconds. */
export class PricePointDto {
  @ApiProperty({ type: 'number', format: 'float', description: 'Price in USD.', example: 28500 })
  p!: number;

  @ApiProperty({ type: 'integer', description: 'Unix timestamp (seconds).', example: 1767225600 })
  t!: number;
}

const NOT_REQUESTED = 'null when the window is not requested through `include_statistics`';

/** A flat statistic of docs/spec/decisions.md: a number (or date) that is null when not requested or undefined. */
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
 * docs/spec/interface.md "v1 Variant" with every flat statistic field of docs/spec/decisions.md. Windows are anchored
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

/** docs/spec/interface.md "v1 Card": pricing is inside `variants`. */
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

/** docs/spec/interface.md "CardsResponse". */
export class CardsResponseDto {
  @ApiProperty({ type: () => [CardDto] })
  data!: CardDto[];

  @ApiProperty({ type: () => PaginationMetaDto })
  meta!: PaginationMetaDto;

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

import { ApiProperty } from '@nestjs/swagger';
import { GameSummary, PRICE_SOURCES, PriceSource, roundPct } from '@tcg/domain';
import { percentChange } from '@tcg/pricing-stats';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';

/** docs/spec/interface.md "v1 Game". */
export class GameDto {
  @ApiProperty({ description: 'Game identifier (slug).', example: 'magic-the-gathering' })
  id!: string;

  @ApiProperty({ example: 'Magic: The Gathering' })
  name!: string;

  @ApiProperty({ type: 'integer', description: 'Cards of the game.', example: 4518 })
  cards_count!: number;

  @ApiProperty({ type: 'integer', description: 'Raw and graded variants.', example: 62630 })
  variants_count!: number;

  @ApiProperty({ type: 'integer', description: 'Sealed products.', example: 68 })
  sealed_count!: number;

  @ApiProperty({ type: 'integer', example: 17 })
  sets_count!: number;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Unix timestamp (seconds) of the latest price observation; null before the first one.',
    example: 1767225600,
  })
  last_updated!: number | null;

  @ApiProperty({
    type: 'integer',
    description:
      "Market index in cents: the sum over the game's cards of their highest-priced raw variant (NA).",
    example: 184467523,
  })
  game_value_index_cents!: number;

  @ApiProperty({
    type: 'number',
    format: 'float',
    nullable: true,
    description: 'Percent change of the market index over 7 days; null when there is no index 7 days back.',
    example: 1.37,
  })
  game_value_change_7d_pct!: number | null;

  @ApiProperty({
    type: 'string',
    isArray: true,
    enum: PRICE_SOURCES,
    description:
      "Where the game's prices come from, sorted: `simulated` (generated sample prices, not market data), " +
      "`imported` (the operator's own price files), `tcgplayer` (TCGplayer market price, NA), `cardmarket` " +
      '(Cardmarket trend price, EU). Empty before the first price. Each v2 market names its own `source`.',
    example: ['cardmarket', 'tcgplayer'],
  })
  price_sources!: PriceSource[];
}

/** docs/spec/interface.md "GamesResponse". */
export class GamesResponseDto {
  @ApiProperty({ type: () => [GameDto] })
  data!: GameDto[];

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

/**
 * The index's 7-day change is the engine's percent-change rule (`percentChange`, libs/pricing-stats)
 * over the index now and 7 days back, the sum of its variants' stored 7-day references: the rule
 * that states each variant's own change, applied to the sums. Rounded once, here.
 */
export function toGameDto(s: GameSummary): GameDto {
  return {
    id: s.game.id,
    name: s.game.name,
    cards_count: s.cardsCount,
    variants_count: s.variantsCount,
    sealed_count: s.sealedCount,
    sets_count: s.setsCount,
    last_updated: s.lastUpdated,
    game_value_index_cents: Math.round(s.valueIndexCents),
    game_value_change_7d_pct: roundPct(percentChange(s.valueIndexCents, s.valueIndex7dAgoCents)),
    price_sources: [...s.priceSources],
  };
}

import { ApiProperty } from '@nestjs/swagger';
import { SetSummary, toMajor } from '@tcg/domain';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';
import { PaginationMetaDto } from '../../common/dto/pagination-meta.dto';

/** docs/spec/interface.md "v1 Set". */
export class SetDto {
  @ApiProperty({
    description: 'Set identifier (slug).',
    example: 'magic-the-gathering-limited-edition-alpha',
  })
  id!: string;

  @ApiProperty({ example: 'Limited Edition Alpha' })
  name!: string;

  @ApiProperty({ description: "Identifier of the set's game.", example: 'magic-the-gathering' })
  game_id!: string;

  @ApiProperty({ description: "Display name of the set's game.", example: 'Magic: The Gathering' })
  game!: string;

  @ApiProperty({ type: 'string', format: 'date', nullable: true, example: '1993-08-05' })
  release_date!: string | null;

  @ApiProperty({ type: 'integer', example: 295 })
  cards_count!: number;

  @ApiProperty({
    type: 'number',
    format: 'float',
    description:
      'Market value of the set in USD: the sum over its cards of their highest-priced raw variant (NA).',
    example: 1534872.5,
  })
  set_value_usd!: number;
}

/** docs/spec/interface.md "SetsResponse": every set of the game, so `meta` reports the whole list. */
export class SetsResponseDto {
  @ApiProperty({ type: () => [SetDto] })
  data!: SetDto[];

  @ApiProperty({ type: () => PaginationMetaDto })
  meta!: PaginationMetaDto;

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

export function toSetDto(s: SetSummary): SetDto {
  return {
    id: s.set.id,
    name: s.set.name,
    game_id: s.set.gameId,
    game: s.gameName,
    release_date: s.set.releaseDate,
    cards_count: s.cardsCount,
    set_value_usd: toMajor(s.valueCents),
  };
}

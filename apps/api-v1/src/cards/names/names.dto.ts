import { ApiProperty } from '@nestjs/swagger';
import type { NameSuggestion } from '@tcg/domain';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';

/** One suggested card name. */
export class NameSuggestionDto {
  @ApiProperty({ description: 'The card name, as the cards carry it.', example: 'Lightning Bolt' })
  name!: string;

  @ApiProperty({ description: "Identifier of the name's game.", example: 'magic-the-gathering' })
  game_id!: string;

  @ApiProperty({ type: 'integer', description: 'How many cards of the game carry the name.', example: 4 })
  cards_count!: number;

  @ApiProperty({
    enum: ['prefix', 'similar'],
    description:
      '`prefix`: a word of the name starts with `q` (those come first, the names more cards carry first); `similar`: the name is close to `q`, for a typo (looked for when no name matches by prefix).',
    example: 'prefix',
  })
  match!: 'prefix' | 'similar';
}

export class NameSuggestionsResponseDto {
  @ApiProperty({ type: () => [NameSuggestionDto] })
  data!: NameSuggestionDto[];

  @ApiProperty({ type: () => UsageMetadataDto })
  _metadata!: UsageMetadataDto;
}

export function toNameSuggestionDto(s: NameSuggestion): NameSuggestionDto {
  return { name: s.name, game_id: s.gameId, cards_count: s.cardsCount, match: s.match };
}

import { SetSummary, toMajor } from '@tcg/domain';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';

/** interface.md "v1 Set". */
export interface SetDto {
  id: string;
  name: string;
  game_id: string;
  game: string;
  release_date: string | null;
  cards_count: number;
  set_value_usd: number;
}

export interface SetsResponseDto {
  data: SetDto[];
  meta: { total: number; limit: number; offset: number; hasMore: boolean };
  _metadata: UsageMetadataDto;
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

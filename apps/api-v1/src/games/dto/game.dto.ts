import { GameSummary, roundPct } from '@tcg/domain';
import { UsageMetadataDto } from '../../common/decorators/usage.decorator';

/** interface.md "v1 Game". */
export interface GameDto {
  id: string;
  name: string;
  cards_count: number;
  variants_count: number;
  sealed_count: number;
  sets_count: number;
  last_updated: number | null;
  game_value_index_cents: number;
  game_value_change_7d_pct: number | null;
}

export interface GamesResponseDto {
  data: GameDto[];
  _metadata: UsageMetadataDto;
}

export function toGameDto(s: GameSummary): GameDto {
  const ago = s.valueIndex7dAgoCents;
  return {
    id: s.game.id,
    name: s.game.name,
    cards_count: s.cardsCount,
    variants_count: s.variantsCount,
    sealed_count: s.sealedCount,
    sets_count: s.setsCount,
    last_updated: s.lastUpdated,
    game_value_index_cents: Math.round(s.valueIndexCents),
    game_value_change_7d_pct:
      ago === null || ago === 0 ? null : roundPct(((s.valueIndexCents - ago) / ago) * 100),
  };
}

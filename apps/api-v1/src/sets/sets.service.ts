import { Inject, Injectable } from '@nestjs/common';
import { CatalogueRepository, invalidParameter } from '@tcg/domain';
import { CATALOGUE } from '@tcg/persistence/nest';
import { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { SetsQueryDto } from './dto/sets-query.dto';
import { SetsResponseDto, toSetDto } from './dto/set.dto';

@Injectable()
export class SetsService {
  constructor(@Inject(CATALOGUE) private readonly catalogue: CatalogueRepository) {}

  /** Every set of the game (no paging, decisions.md): `meta` reports the whole list. */
  async list(query: SetsQueryDto, usage: UsageMetadataDto): Promise<SetsResponseDto> {
    const game = await this.catalogue.findGame(query.game);
    if (!game) {
      const games = await this.catalogue.listGames();
      throw invalidParameter(
        'game',
        query.game,
        games.flatMap((g) => [g.id, g.name]),
      );
    }
    const sets = await this.catalogue.listSetSummaries(game.id, {
      q: query.q || undefined,
      orderBy: query.orderBy,
      order: query.order,
    });
    return {
      data: sets.map(toSetDto),
      meta: { total: sets.length, limit: sets.length, offset: 0, hasMore: false },
      _metadata: usage,
    };
  }
}

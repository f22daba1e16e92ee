import { Inject, Injectable } from '@nestjs/common';
import { ParsedBy } from '@tcg/http-service';
import { CATALOGUE, CatalogueRepository, requireGame } from '@tcg/persistence';
import { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { SETS_QUERY } from './dto/sets-query.schema';
import { SetsResponseDto, toSetDto } from './dto/set.dto';

@Injectable()
export class SetsService {
  constructor(@Inject(CATALOGUE) private readonly catalogue: CatalogueRepository) {}

  /** Every set of the game (no paging, docs/spec/decisions.md): `meta` reports the whole list. */
  async list(query: ParsedBy<typeof SETS_QUERY>, usage: UsageMetadataDto): Promise<SetsResponseDto> {
    const game = await requireGame(this.catalogue, query.game);
    const sets = await this.catalogue.listSetSummaries(game.id, {
      q: query.q,
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

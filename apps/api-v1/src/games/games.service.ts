import { Inject, Injectable } from '@nestjs/common';
import { CATALOGUE, CatalogueRepository } from '@tcg/persistence';
import { UsageMetadataDto } from '../common/decorators/usage.decorator';
import { GamesResponseDto, toGameDto } from './dto/game.dto';

@Injectable()
export class GamesService {
  constructor(@Inject(CATALOGUE) private readonly catalogue: CatalogueRepository) {}

  async list(usage: UsageMetadataDto): Promise<GamesResponseDto> {
    const games = await this.catalogue.listGameSummaries();
    return { data: games.map(toGameDto), _metadata: usage };
  }
}

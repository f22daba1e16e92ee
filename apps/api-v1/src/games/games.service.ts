import { Inject, Injectable } from '@nestjs/common';
import { CatalogueRepository } from '@tcg/domain';
import { CATALOGUE } from '@tcg/persistence/nest';
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

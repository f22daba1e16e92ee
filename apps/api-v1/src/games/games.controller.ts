import { Controller, Get } from '@nestjs/common';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { GamesResponseDto } from './dto/game.dto';
import { GamesService } from './games.service';

@Controller('v1/games')
export class GamesController {
  constructor(private readonly games: GamesService) {}

  @Get()
  list(@Usage() usage: UsageMetadataDto): Promise<GamesResponseDto> {
    return this.games.list(usage);
  }
}

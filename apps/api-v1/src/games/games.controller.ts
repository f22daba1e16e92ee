import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, ApiKeyAuth } from '../common/decorators/api-docs.decorator';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { GamesResponseDto } from './dto/game.dto';
import { GamesService } from './games.service';

@ApiTags('games')
@ApiKeyAuth()
@Controller('v1/games')
export class GamesController {
  constructor(private readonly games: GamesService) {}

  @Get()
  @ApiOperation({
    operationId: 'listGames',
    summary: 'List the supported games',
    description: 'Every game with its summary counts and market index.',
  })
  @ApiOkResponse({ type: GamesResponseDto, description: 'Every supported game.' })
  @ApiErrorResponses(401, 429)
  list(@Usage() usage: UsageMetadataDto): Promise<GamesResponseDto> {
    return this.games.list(usage);
  }
}

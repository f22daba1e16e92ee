import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CachedResponder } from '@tcg/http-service';
import type { Request, Response } from 'express';
import { ApiErrorResponses } from '../common/decorators/api-docs.decorator';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { v1SendOptions } from '../common/send-options';
import { GamesResponseDto } from './dto/game.dto';
import { GamesService } from './games.service';

@ApiTags('games')
@ApiKeyAuth()
@Controller('v1/games')
export class GamesController {
  constructor(
    private readonly games: GamesService,
    private readonly responses: CachedResponder,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listGames',
    summary: 'List the supported games',
    description: 'Every game with its summary counts and market index.',
  })
  @ApiOkResponse({ type: GamesResponseDto, description: 'Every supported game.' })
  @ApiErrorResponses(401, 429)
  async list(@Usage() usage: UsageMetadataDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.responses.send(req, res, v1SendOptions(req, usage, {}, '*'), async () => ({
      body: await this.games.list(usage),
    }));
  }
}

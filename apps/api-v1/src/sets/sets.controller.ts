import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth, CachedResponder } from '@tcg/http-service';
import type { Request, Response } from 'express';
import { ApiErrorResponses } from '../common/decorators/api-docs.decorator';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { v1SendOptions } from '../common/send-options';
import { SETS_QUERY } from './dto/sets-query.schema';
import { SetsResponseDto } from './dto/set.dto';
import { SetsService } from './sets.service';

@ApiTags('sets')
@ApiKeyAuth()
@Controller('v1/sets')
export class SetsController {
  constructor(
    private readonly sets: SetsService,
    private readonly responses: CachedResponder,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listSets',
    summary: 'List the sets of a game',
    description: 'Every set of the game, unpaged: `meta` reports the whole list.',
  })
  @SETS_QUERY.document()
  @ApiOkResponse({ type: SetsResponseDto, description: 'The sets of the game.' })
  @ApiErrorResponses(400, 401, 429)
  async list(
    @Query() query: Record<string, unknown>,
    @Usage() usage: UsageMetadataDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const parsed = SETS_QUERY.parse(query);
    await this.responses.send(req, res, v1SendOptions(req, usage, parsed, '*'), async () => ({
      body: await this.sets.list(parsed, usage),
    }));
  }
}

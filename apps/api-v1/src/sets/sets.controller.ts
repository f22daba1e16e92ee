import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponses, ApiKeyAuth } from '../common/decorators/api-docs.decorator';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { SetsQueryDto } from './dto/sets-query.dto';
import { ApiSetsQuery } from './dto/sets-query.decorator';
import { SetsResponseDto } from './dto/set.dto';
import { SetsService } from './sets.service';

@ApiTags('sets')
@ApiKeyAuth()
@Controller('v1/sets')
export class SetsController {
  constructor(private readonly sets: SetsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listSets',
    summary: 'List the sets of a game',
    description: 'Every set of the game, unpaged: `meta` reports the whole list.',
  })
  @ApiSetsQuery()
  @ApiOkResponse({ type: SetsResponseDto, description: 'The sets of the game.' })
  @ApiErrorResponses(400, 401, 429)
  list(@Query() query: SetsQueryDto, @Usage() usage: UsageMetadataDto): Promise<SetsResponseDto> {
    return this.sets.list(query, usage);
  }
}

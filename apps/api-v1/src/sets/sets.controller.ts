import { Controller, Get, Query } from '@nestjs/common';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { SetsQueryDto } from './dto/sets-query.dto';
import { SetsResponseDto } from './dto/set.dto';
import { SetsService } from './sets.service';

@Controller('v1/sets')
export class SetsController {
  constructor(private readonly sets: SetsService) {}

  @Get()
  list(@Query() query: SetsQueryDto, @Usage() usage: UsageMetadataDto): Promise<SetsResponseDto> {
    return this.sets.list(query, usage);
  }
}

import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { CardsService } from './cards.service';
import { CardsResponseDto } from './dto/card.dto';

@Controller('v1/cards')
export class CardsController {
  constructor(private readonly cards: CardsService) {}

  @Get()
  search(
    @Query() query: Record<string, unknown>,
    @Usage() usage: UsageMetadataDto,
  ): Promise<CardsResponseDto> {
    return this.cards.search(query, usage);
  }

  @Post()
  @HttpCode(200)
  batch(
    @Body() body: unknown,
    @Query() query: Record<string, unknown>,
    @Usage() usage: UsageMetadataDto,
  ): Promise<CardsResponseDto> {
    return this.cards.batch(body, query, usage);
  }
}

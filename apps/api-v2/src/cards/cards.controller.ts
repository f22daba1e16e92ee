import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { PlanLimits } from '@tcg/domain';
import type { Response } from 'express';
import { Plan } from '../common/decorators/plan.decorator';
import { CardsService } from './cards.service';
import { CardsV2Response, CardV2Response } from './dto/card-v2.dto';

@Controller('v2/cards')
export class CardsController {
  constructor(private readonly cards: CardsService) {}

  @Get()
  async list(
    @Query() query: Record<string, unknown>,
    @Plan() plan: PlanLimits,
    @Res({ passthrough: true }) res: Response,
  ): Promise<CardsV2Response> {
    const { body, headers } = await this.cards.list(query, plan);
    res.set(headers);
    return body;
  }

  @Get(':id')
  one(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<CardV2Response> {
    return this.cards.one(id, query);
  }
}

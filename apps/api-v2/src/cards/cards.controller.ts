import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { PlanLimits } from '@tcg/domain';
import { CachedResponder, requestCacheKey } from '@tcg/http-service';
import type { Request, Response } from 'express';
import { Plan } from '../common/decorators/plan.decorator';
import { CardsService } from './cards.service';
import { CurrencyConversion } from './currency/currency-conversion';
import { CardsDocs, GetCardDocs, ListCardsDocs } from './cards.docs.decorator';
import { parseCardV2Query } from './dto/card-v2-query.schema';
import { parseCardsV2Query } from './dto/cards-v2-query.schema';

@CardsDocs()
@Controller('v2/cards')
export class CardsController {
  constructor(
    private readonly cards: CardsService,
    private readonly responses: CachedResponder,
    private readonly conversion: CurrencyConversion,
  ) {}

  @Get()
  @ListCardsDocs()
  async list(
    @Query() query: Record<string, unknown>,
    @Plan() plan: PlanLimits,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const parsed = parseCardsV2Query(query, plan.maxLimit);
    await this.responses.send(req, res, { key: requestCacheKey(req, plan.maxLimit, parsed) }, () =>
      this.conversion.page(parsed.currency, this.cards.list(parsed, query)),
    );
  }

  @Get(':id')
  @GetCardDocs()
  async one(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // One card: nothing in it depends on the plan.
    const parsed = parseCardV2Query(query);
    await this.responses.send(req, res, { key: requestCacheKey(req, '*', parsed) }, async () => {
      const { json, cards } = await this.cards.one(id, parsed);
      return { json: await this.conversion.one(parsed.currency, json), cards };
    });
  }
}

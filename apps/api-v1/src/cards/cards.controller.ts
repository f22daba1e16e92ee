import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { CachedResponder } from '@tcg/http-service';
import type { Request, Response } from 'express';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { planOf, v1SendOptions } from '../common/send-options';
import { CardsService } from './cards.service';
import { BatchCardsDocs, CardsDocs, SearchCardsDocs } from './cards.docs.decorator';
import { parseCardsQuery } from './dto/cards-query.schema';

@CardsDocs()
@Controller('v1/cards')
export class CardsController {
  constructor(
    private readonly cards: CardsService,
    private readonly responses: CachedResponder,
  ) {}

  @Get()
  @SearchCardsDocs()
  async search(
    @Query() query: Record<string, unknown>,
    @Usage() usage: UsageMetadataDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const parsed = parseCardsQuery(query, planOf(usage).maxLimit);
    await this.responses.send(req, res, v1SendOptions(req, usage, parsed), () => this.cards.search(parsed));
  }

  @Post()
  @HttpCode(200)
  @BatchCardsDocs()
  async batch(
    @Body() body: unknown,
    @Query() query: Record<string, unknown>,
    @Usage() usage: UsageMetadataDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // A POST is never cached nor validated; it is compressed like any answer.
    await this.responses.send(req, res, v1SendOptions(req, usage), async () => ({
      json: await this.cards.batch(body, query, usage),
    }));
  }
}

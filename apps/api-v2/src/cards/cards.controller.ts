import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { PlanLimits } from '@tcg/domain';
import { ApiKeyAuth, CachedResponder, requestCacheKey } from '@tcg/http-service';
import type { Request, Response } from 'express';
import {
  ApiProblemResponses,
  PAGE_HEADERS,
  RATE_LIMIT_HEADERS,
} from '../common/decorators/api-docs.decorator';
import { Plan } from '../common/decorators/plan.decorator';
import { CardsService } from './cards.service';
import { CardsV2Response, CardV2Response } from './dto/card-v2.dto';
import { CARD_V2_QUERY, parseCardV2Query } from './dto/card-v2-query.schema';
import { CARDS_V2_QUERY, parseCardsV2Query } from './dto/cards-v2-query.schema';

@ApiTags('cards')
@ApiKeyAuth()
@Controller('v2/cards')
export class CardsController {
  constructor(
    private readonly cards: CardsService,
    private readonly responses: CachedResponder,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'listCards',
    summary: 'Browse, search or look up cards, priced per region',
    description:
      "Identifier parameters win over a search, the most specific first: variant_id, vendor_sku, card_id, vendor_id. Browse and search are cursor-paginated; a lookup that matches nothing is 200 with empty `data`. Unknown parameters are a 400. With neither `regions` nor `graded`, the result equals v1's raw NA pricing in the v2 shape.",
  })
  @CARDS_V2_QUERY.document()
  @ApiOkResponse({
    type: CardsV2Response,
    description: 'A page of cards.',
    headers: { ...RATE_LIMIT_HEADERS, ...PAGE_HEADERS },
  })
  @ApiProblemResponses(400, 401, 429)
  async list(
    @Query() query: Record<string, unknown>,
    @Plan() plan: PlanLimits,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const parsed = parseCardsV2Query(query, plan.maxLimit);
    await this.responses.send(req, res, { key: requestCacheKey(req, plan.maxLimit, parsed) }, () =>
      this.cards.list(parsed, query),
    );
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getCard',
    summary: 'Look up one card, priced per region',
  })
  @ApiParam({
    name: 'id',
    description: 'Card UUID (recommended) or legacy v1 slug.',
    schema: { type: 'string' },
    example: '9b687c18-3204-583e-ba39-00de37c7b19c',
  })
  @CARD_V2_QUERY.document()
  @ApiOkResponse({ type: CardV2Response, description: 'The card.', headers: RATE_LIMIT_HEADERS })
  @ApiProblemResponses(400, 401, 404, 429)
  async one(
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    // One card: nothing in it depends on the plan.
    const parsed = parseCardV2Query(query);
    await this.responses.send(req, res, { key: requestCacheKey(req, '*', parsed) }, async () => ({
      json: await this.cards.one(id, parsed),
    }));
  }
}

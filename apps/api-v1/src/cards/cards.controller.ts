import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiKeyAuth, CachedResponder } from '@tcg/http-service';
import type { Request, Response } from 'express';
import { ApiErrorResponses } from '../common/decorators/api-docs.decorator';
import { Usage, UsageMetadataDto } from '../common/decorators/usage.decorator';
import { planOf, v1SendOptions } from '../common/send-options';
import { CardsService } from './cards.service';
import { BatchCardRequestItemDto, MAX_BATCH_ITEMS } from './dto/batch-items.schema';
import { CardsResponseDto } from './dto/card.dto';
import { CARDS_QUERY, parseCardsQuery, PRESENTATION_QUERY } from './dto/cards-query.schema';

@ApiTags('cards')
@ApiKeyAuth()
@ApiExtraModels(BatchCardRequestItemDto)
@Controller('v1/cards')
export class CardsController {
  constructor(
    private readonly cards: CardsService,
    private readonly responses: CachedResponder,
  ) {}

  @Get()
  @ApiOperation({
    operationId: 'searchCards',
    summary: 'Search or look up cards and their variant prices',
    description:
      'Identifier parameters win over a search, the most specific first: variantId, vendorSkuId, cardId, vendorId, opensetId, imagedbId. A lookup that matches nothing is 200 with empty `data`. Unknown parameters are ignored.',
  })
  @CARDS_QUERY.document()
  @ApiOkResponse({ type: CardsResponseDto, description: 'A page of cards, each with its variants.' })
  @ApiErrorResponses(400, 401, 429)
  async search(
    @Query() query: Record<string, unknown>,
    @Usage() usage: UsageMetadataDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const parsed = parseCardsQuery(query, planOf(usage).maxLimit);
    await this.responses.send(req, res, v1SendOptions(req, usage, parsed), async () => ({
      json: await this.cards.search(parsed),
    }));
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'batchCards',
    summary: 'Look up many cards in one request',
    description:
      "Every lookup of the batch in request order, each card once (at its first lookup, with that lookup's filters). The query string sets how the cards are presented, as on GET.",
  })
  @PRESENTATION_QUERY.document()
  @ApiBody({
    required: true,
    description: `Card lookups, each with exactly one identifier; at most ${MAX_BATCH_ITEMS} items, fewer on smaller plans (20 free, 100 starter and professional).`,
    schema: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH_ITEMS,
      items: { $ref: getSchemaPath(BatchCardRequestItemDto) },
    },
    examples: {
      lookups: {
        summary: 'A card by slug and a variant by UUID',
        value: [
          { cardId: 'magic-the-gathering-limited-edition-alpha-black-lotus-rare', condition: 'NM' },
          { variantId: 'd8ee383d-b80b-543c-a417-dba03eca7cf4' },
        ],
      },
    },
  })
  @ApiOkResponse({
    type: CardsResponseDto,
    description: 'The cards of the batch; `meta.limit` is the number of lookups.',
  })
  @ApiErrorResponses(400, 401, 413, 429)
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

import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '@tcg/http-service';
import {
  ApiProblemResponses,
  PAGE_HEADERS,
  RATE_LIMIT_HEADERS,
} from '../common/decorators/api-docs.decorator';
import { CardsV2Response, CardV2Response } from './dto/card-v2.dto';
import { CARD_V2_QUERY } from './dto/card-v2-query.schema';
import { CARDS_V2_QUERY } from './dto/cards-v2-query.schema';

/** The OpenAPI description of `/v2/cards` (docs/openapi/api-v2.json), beside the routes it documents. */
export const CardsDocs = (): ClassDecorator => applyDecorators(ApiTags('cards'), ApiKeyAuth());

/** GET /v2/cards. */
export const ListCardsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'listCards',
      summary: 'Browse, search or look up cards, priced per region',
      description:
        "Identifier parameters win over a search, the most specific first: variant_id, vendor_sku, card_id, vendor_id. Browse and search are cursor-paginated; a lookup that matches nothing is 200 with empty `data`. Unknown parameters are a 400. With neither `regions` nor `graded`, the result equals v1's raw NA pricing in the v2 shape.",
    }),
    CARDS_V2_QUERY.document(),
    ApiOkResponse({
      type: CardsV2Response,
      description: 'A page of cards.',
      headers: { ...RATE_LIMIT_HEADERS, ...PAGE_HEADERS },
    }),
    ApiProblemResponses(400, 401, 429),
  );

/** GET /v2/cards/{id}. */
export const GetCardDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getCard',
      summary: 'Look up one card, priced per region',
    }),
    ApiParam({
      name: 'id',
      description: 'Card UUID (recommended) or legacy v1 slug.',
      schema: { type: 'string' },
      example: '9b687c18-3204-583e-ba39-00de37c7b19c',
    }),
    CARD_V2_QUERY.document(),
    ApiOkResponse({ type: CardV2Response, description: 'The card.', headers: RATE_LIMIT_HEADERS }),
    ApiProblemResponses(400, 401, 404, 429),
  );

import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiKeyAuth } from '@tcg/http-service';
import { ApiErrorResponses } from '../common/decorators/api-docs.decorator';
import { BatchCardRequestItemDto, MAX_BATCH_ITEMS } from './dto/batch-items.schema';
import { CardsResponseDto } from './dto/card.dto';
import { CARDS_QUERY, PRESENTATION_QUERY } from './dto/cards-query.schema';

/** The OpenAPI description of `/v1/cards` (docs/openapi/api-v1.json), beside the routes it documents. */
export const CardsDocs = (): ClassDecorator =>
  applyDecorators(ApiTags('cards'), ApiKeyAuth(), ApiExtraModels(BatchCardRequestItemDto));

/** GET /v1/cards. */
export const SearchCardsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'searchCards',
      summary: 'Search or look up cards and their variant prices',
      description:
        'Identifier parameters win over a search, the most specific first: variantId, vendorSkuId, cardId, vendorId, opensetId, imagedbId. A lookup that matches nothing is 200 with empty `data`. Unknown parameters are ignored.',
    }),
    CARDS_QUERY.document(),
    ApiOkResponse({ type: CardsResponseDto, description: 'A page of cards, each with its variants.' }),
    ApiErrorResponses(400, 401, 429),
  );

/** POST /v1/cards. */
export const BatchCardsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'batchCards',
      summary: 'Look up many cards in one request',
      description:
        "Every lookup of the batch in request order, each card once (at its first lookup, with that lookup's filters). The query string sets how the cards are presented, as on GET.",
    }),
    PRESENTATION_QUERY.document(),
    ApiBody({
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
    }),
    ApiOkResponse({
      type: CardsResponseDto,
      description: 'The cards of the batch; `meta.limit` is the number of lookups.',
    }),
    ApiErrorResponses(400, 401, 413, 429),
  );

import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiKeyAuth } from '@tcg/http-service';
import { ID_KINDS } from '@tcg/persistence';
import { ApiProblemResponses, RATE_LIMIT_HEADERS } from '../common/decorators/api-docs.decorator';
import { CardIdsV2Response, IdLookupV2Response } from './dto/card-ids.dto';

/** The OpenAPI description of the id crosswalk (docs/openapi/api-v2.json), beside its routes. */
export const IdsDocs = (): ClassDecorator => applyDecorators(ApiTags('ids'), ApiKeyAuth());

/** GET /v2/cards/{id}/ids. */
export const CardIdsDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'getCardIds',
      summary: 'Every marketplace id the feeds know for a card and its variants, and where they disagree',
      description:
        'Each id with the feed that said it and the first and last UTC day a sync read it there (docs/id-crosswalk.md). `conflicts` lists every disagreement: two feeds giving the card (or a variant) different values of one kind, or one value given to another card too. No query parameters.',
    }),
    ApiParam({
      name: 'id',
      description: 'Card UUID (recommended) or legacy v1 slug, as `GET /v2/cards/{id}` takes it.',
      schema: { type: 'string' },
      example: '9b687c18-3204-583e-ba39-00de37c7b19c',
    }),
    ApiOkResponse({ type: CardIdsV2Response, description: 'The card’s ids.', headers: RATE_LIMIT_HEADERS }),
    ApiProblemResponses(400, 401, 404, 429),
  );

/** GET /v2/ids/{kind}/{value}. */
export const IdLookupDocs = (): MethodDecorator =>
  applyDecorators(
    ApiOperation({
      operationId: 'lookupId',
      summary: 'The cards a marketplace id belongs to, by kind',
      description:
        'The cards (or variants, for a SKU) any feed gave this id, each with the feeds that said so; an id no feed gave is 200 with an empty `cards`. More than one card is a conflict, listed. No query parameters.',
    }),
    ApiParam({
      name: 'kind',
      description: 'The kind of id, not case-sensitive.',
      schema: { type: 'string', enum: [...ID_KINDS] },
    }),
    ApiParam({
      name: 'value',
      description:
        'The id: a positive integer of at most 20 digits, no leading zero (products, SKUs, multiverse ids), or a UUID (`scryfall_id`, `mtgjson_uuid`, any case).',
      schema: { type: 'string', maxLength: 64 },
      example: '1029',
    }),
    ApiOkResponse({
      type: IdLookupV2Response,
      description: 'The holders of the id.',
      headers: RATE_LIMIT_HEADERS,
    }),
    ApiProblemResponses(400, 401, 429),
  );

import { OpenAPIObject } from '@nestjs/swagger';
import { CachedResponder, createOpenApiDocument } from '@tcg/http-service';
import { CardsController } from '../cards/cards.controller';
import { CardsService } from '../cards/cards.service';
import { IdsController } from '../ids/ids.controller';
import { IdsService } from '../ids/ids.service';
import { CurrencyConversion } from '../cards/currency/currency-conversion';

/** Every controller of the app; the spec beside this file checks that none is missing. */
export const DOCUMENTED_CONTROLLERS = [CardsController, IdsController];

/** The api-v2 OpenAPI document, committed as docs/openapi/api-v2.json (`npm run openapi`). */
export function buildOpenApiDocument(): Promise<OpenAPIObject> {
  return createOpenApiDocument({
    title: 'Trading-card pricing API v2 (beta)',
    description:
      'Beta API, cards only: raw and graded variants, each priced per requested region in a `markets` array, cursor pagination. ' +
      "Fields that were not requested are omitted, not sent as null (a market's `price` is always present). " +
      'Every request needs an API key in the `x-api-key` header; usage is reported in the `RateLimit` headers. ' +
      'Errors are RFC 7807 `application/problem+json`. Batch lookups are v1 only (POST /v1/cards).',
    version: '2.0.0-beta',
    tags: [
      ['cards', 'Cards with raw and graded variants, priced per region.'],
      ['ids', 'The id crosswalk: every marketplace id the feeds know for a card, by feed and day.'],
    ],
    controllers: DOCUMENTED_CONTROLLERS,
    injected: [CardsService, CurrencyConversion, CachedResponder, IdsService],
  });
}

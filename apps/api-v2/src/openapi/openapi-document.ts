import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CachedResponder } from '@tcg/http-service';
import { CardsController } from '../cards/cards.controller';
import { CardsService } from '../cards/cards.service';
import { API_KEY_SCHEME } from '../common/decorators/api-docs.decorator';

/** Every controller of the app; the spec beside this file checks that none is missing. */
export const DOCUMENTED_CONTROLLERS = [CardsController];

/**
 * The controllers with a stand-in for their service: the document is read from the decorators
 * alone, so building it needs no database or configuration (AppModule connects to PostgreSQL).
 */
@Module({
  controllers: DOCUMENTED_CONTROLLERS,
  providers: [CardsService, CachedResponder].map((service) => ({ provide: service, useValue: {} })),
})
class OpenApiDocumentModule {}

/**
 * The api-v2 OpenAPI document, committed as docs/openapi/api-v2.json (`npm run openapi`). Paths
 * are as the gateway exposes them; clients call the gateway with their `x-api-key`.
 */
export async function buildOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(OpenApiDocumentModule, { logger: false });
  try {
    const config = new DocumentBuilder()
      .setTitle('Trading-card pricing API v2 (beta)')
      .setDescription(
        'Beta API, cards only: raw and graded variants, each priced per requested region in a `markets` array, cursor pagination. ' +
          "Fields that were not requested are omitted, not sent as null (a market's `price` is always present). " +
          'Every request needs an API key in the `x-api-key` header; usage is reported in the `RateLimit` headers. ' +
          'Errors are RFC 7807 `application/problem+json`. Batch lookups are v1 only (POST /v1/cards).',
      )
      .setVersion('2.0.0-beta')
      .addTag('cards', 'Cards with raw and graded variants, priced per region.')
      .addApiKey(
        { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'Your API key.' },
        API_KEY_SCHEME,
      )
      .build();
    return SwaggerModule.createDocument(app, config);
  } finally {
    await app.close();
  }
}

import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { CachedResponder } from '@tcg/http-service';
import { BulkController } from '../bulk/bulk.controller';
import { BulkService } from '../bulk/bulk.service';
import { CardsController } from '../cards/cards.controller';
import { CardsService } from '../cards/cards.service';
import { API_KEY_SCHEME } from '../common/decorators/api-docs.decorator';
import { GamesController } from '../games/games.controller';
import { GamesService } from '../games/games.service';
import { SetsController } from '../sets/sets.controller';
import { SetsService } from '../sets/sets.service';

/** Every controller of the app; the spec beside this file checks that none is missing. */
export const DOCUMENTED_CONTROLLERS = [GamesController, SetsController, CardsController, BulkController];

/**
 * The controllers with stand-ins for their services: the document is read from the decorators
 * alone, so building it needs no database or configuration (AppModule connects to PostgreSQL).
 */
@Module({
  controllers: DOCUMENTED_CONTROLLERS,
  providers: [GamesService, SetsService, CardsService, BulkService, CachedResponder].map((service) => ({
    provide: service,
    useValue: {},
  })),
})
class OpenApiDocumentModule {}

/**
 * The api-v1 OpenAPI document, committed as docs/openapi/api-v1.json (`npm run openapi`). Paths
 * are as the gateway exposes them; clients call the gateway with their `x-api-key`.
 */
export async function buildOpenApiDocument(): Promise<OpenAPIObject> {
  const app = await NestFactory.create(OpenApiDocumentModule, { logger: false });
  try {
    const config = new DocumentBuilder()
      .setTitle('Trading-card pricing API v1')
      .setDescription(
        'Stable API: games, sets and cards with variant prices, statistics and price history, a batch card lookup, ' +
          'and bulk data files. ' +
          'Every request needs an API key in the `x-api-key` header. Errors are `{ error, code }`.',
      )
      .setVersion('1.1.0')
      .addTag('games', 'Supported games, with summary counts and a market index.')
      .addTag('sets', 'Sets of a game.')
      .addTag('cards', 'Cards with their variants: prices, statistics and price history.')
      .addTag('bulk', 'Bulk data: every variant of a game with its prices and statistics, as one gzip file.')
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

import { OpenAPIObject } from '@nestjs/swagger';
import { CachedResponder, createOpenApiDocument } from '@tcg/http-service';
import { CATALOGUE } from '@tcg/persistence';
import { AlertsController } from '../alerts/alerts.controller';
import { AlertsService } from '../alerts/alerts.service';
import { BulkController } from '../bulk/bulk.controller';
import { BulkService } from '../bulk/bulk.service';
import { CardsController } from '../cards/cards.controller';
import { CardsService } from '../cards/cards.service';
import { NamesController } from '../cards/names/names.controller';
import { GamesController } from '../games/games.controller';
import { GamesService } from '../games/games.service';
import { SetsController } from '../sets/sets.controller';
import { SetsService } from '../sets/sets.service';

/** Every controller of the app; the spec beside this file checks that none is missing. */
export const DOCUMENTED_CONTROLLERS = [
  GamesController,
  SetsController,
  NamesController,
  CardsController,
  BulkController,
  AlertsController,
];

/** The api-v1 OpenAPI document, committed as docs/openapi/api-v1.json (`npm run openapi`). */
export function buildOpenApiDocument(): Promise<OpenAPIObject> {
  return createOpenApiDocument({
    title: 'Trading-card pricing API v1',
    description:
      'Stable API: games, sets and cards with variant prices, statistics and price history, a batch card lookup, ' +
      'bulk data files, and price alerts by signed webhook. ' +
      'Every request needs an API key in the `x-api-key` header. Errors are `{ error, code }`.',
    version: '1.4.0',
    tags: [
      ['games', 'Supported games, with summary counts and a market index.'],
      ['sets', 'Sets of a game.'],
      ['cards', 'Cards with their variants: prices, statistics and price history.'],
      ['bulk', 'Bulk data: every variant of a game with its prices and statistics, as one gzip file.'],
      [
        'alerts',
        "Price alerts: a key's watches on prices, delivered by signed webhook when a rule becomes true.",
      ],
    ],
    controllers: DOCUMENTED_CONTROLLERS,
    injected: [
      GamesService,
      SetsService,
      CardsService,
      BulkService,
      AlertsService,
      CachedResponder,
      CATALOGUE,
    ],
  });
}

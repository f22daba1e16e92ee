import type { OpenAPIObject, ParameterObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { join } from 'node:path';
import { controllersInSource, expectCommittedOpenApi } from '@tcg/http-service/testing';
import { rawVariant, testCard } from '@tcg/persistence/testing';
import { STATISTIC_WINDOWS, v1CardsView } from '@tcg/rendering';
import { toUsageMetadata } from '../common/decorators/usage.decorator';
import { toGameDto } from '../games/dto/game.dto';
import { toSetDto } from '../sets/dto/set.dto';
import { buildOpenApiDocument, DOCUMENTED_CONTROLLERS } from './openapi-document';

describe('api-v1 OpenAPI document', () => {
  let document: OpenAPIObject;
  const schema = (name: string) => document.components!.schemas![name] as SchemaObject;
  const operations = () =>
    Object.entries(document.paths).flatMap(([path, item]) =>
      (['get', 'post'] as const).flatMap((m) =>
        item[m] ? [{ id: `${m.toUpperCase()} ${path}`, op: item[m] }] : [],
      ),
    );

  beforeAll(async () => {
    // Through JSON, as the generator writes it: undefined values dropped.
    document = JSON.parse(JSON.stringify(await buildOpenApiDocument())) as OpenAPIObject;
  });

  it('is the committed docs/openapi/api-v1.json', () => {
    expectCommittedOpenApi(document, 'api-v1', join(__dirname, '../../../..'));
  });

  it('documents every controller of the app', () => {
    expect(new Set(DOCUMENTED_CONTROLLERS)).toEqual(new Set(controllersInSource(join(__dirname, '..'))));
    expect(operations().map((o) => o.id)).toEqual(
      expect.arrayContaining(['GET /v1/games', 'GET /v1/sets', 'GET /v1/cards', 'POST /v1/cards']),
    );
  });

  it('asks for the x-api-key header on every operation and answers errors as { error, code }', () => {
    expect(document.components!.securitySchemes).toEqual({
      'x-api-key': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    });
    for (const { id, op } of operations()) {
      expect([id, op.security]).toEqual([id, [{ 'x-api-key': [] }]]);
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      expect([id, errors.map(([status]) => status)]).toEqual([id, expect.arrayContaining(['401', '429'])]);
      for (const [, response] of errors) {
        expect((response as ResponseObject).content).toEqual({
          'application/json': expect.objectContaining({ schema: { $ref: '#/components/schemas/ErrorDto' } }),
        });
      }
    }
    expect(Object.keys(schema('ErrorDto').properties!)).toEqual(['error', 'code']);
  });

  it('documents the parameters of interface.md and the decisions.md extensions on GET /v1/cards', () => {
    const names = (document.paths['/v1/cards']!.get!.parameters as ParameterObject[]).map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([
        ...['q', 'game', 'set', 'cardId', 'variantId', 'vendorId', 'opensetId', 'imagedbId', 'vendorSkuId'],
        ...['number', 'printing', 'language', 'condition', 'priceHistoryDuration', 'include_price_history'],
        ...['include_statistics', 'include_null_prices', 'updated_after', 'limit', 'offset'],
        ...['orderBy', 'order', 'min_price'],
      ]),
    );
    expect(document.paths['/v1/cards']!.post!.requestBody).toMatchObject({ required: true });
  });

  // The schemas list the fields the mapping functions send, in the order they send them.
  const NO_USAGE = {
    plan: 'free',
    minute: { limit: 1, used: 0 },
    day: { limit: 1, used: 0 },
    month: { limit: 1, used: 0 },
  };
  const card = testCard({ id: 's', gameId: 'g', name: 'S' }, 'n', null, { rarity: null });
  const variant = rawVariant(card, 'Near Mint', 'Normal', 'English');
  /** A card with a variant without observations, as GET /v1/cards writes it. */
  let rendered: { variants: object[] };
  beforeAll(async () => {
    const view = v1CardsView({
      statistics: new Set(STATISTIC_WINDOWS),
      includeHistory: true,
      historyDuration: '7d',
      limit: 1,
      offset: 0,
    });
    const noHistory = { priceHistory: () => Promise.reject(new Error('nothing to read')) };
    const [json] = await view.render(
      [{ card, setName: 's', gameName: 'g', variants: [{ variant, primary: null }] }],
      noHistory,
    );
    rendered = JSON.parse(json!) as { variants: object[] };
  });
  it.each([
    ['VariantDto', () => rendered.variants[0]!],
    ['CardDto', () => rendered],
    [
      'GameDto',
      () =>
        toGameDto({
          game: { id: 'g', name: 'G' },
          cardsCount: 0,
          variantsCount: 0,
          sealedCount: 0,
          setsCount: 0,
          lastUpdated: null,
          priceSources: [],
          valueIndexCents: 0,
          valueIndex7dAgoCents: null,
        } as Parameters<typeof toGameDto>[0]),
    ],
    [
      'SetDto',
      () =>
        toSetDto({
          set: { id: 's', name: 'S', gameId: 'g', releaseDate: null },
          gameName: 'G',
          cardsCount: 0,
          valueCents: 0,
        } as Parameters<typeof toSetDto>[0]),
    ],
    ['UsageMetadataDto', () => toUsageMetadata(NO_USAGE as Parameters<typeof toUsageMetadata>[0])],
  ])('%s has the fields the mapping sends, all required', (name, map) => {
    const properties = Object.keys(schema(name).properties!);
    expect(properties).toEqual(Object.keys(map()));
    expect(schema(name).required).toEqual(properties);
  });
});

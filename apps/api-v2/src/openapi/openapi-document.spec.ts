import type { OpenAPIObject, ParameterObject, ResponseObject, SchemaObject } from '@nestjs/swagger';
import { GRADING_COMPANIES, LANGUAGE_NAMES, parseRegion } from '@tcg/domain';
import { join } from 'node:path';
import { controllersInSource, expectCommittedOpenApi } from '@tcg/http-service/testing';
import { gradedVariant, grading, rawVariant, testCard } from '@tcg/persistence/testing';
import { PERIOD_WINDOWS, v2CardView } from '@tcg/rendering';
import { CardV2 } from '../cards/dto/card-v2.dto';
import { CARD_PARAMETERS } from '../cards/dto/card-v2-query.schema';
import { convertCardsBody } from '../cards/currency/currency-conversion.mapper';
import { RateBook } from '../cards/currency/exchange-rate-book';
import {
  CARDS_PARAMETERS,
  GRADED_VALUES,
  INCLUDE_VALUES,
  ORDER_BY_VALUES,
  parseCardsV2Query,
} from '../cards/dto/cards-v2-query.schema';
import { buildOpenApiDocument, DOCUMENTED_CONTROLLERS } from './openapi-document';

describe('api-v2 OpenAPI document', () => {
  let document: OpenAPIObject;
  const schema = (name: string) => document.components!.schemas![name] as SchemaObject;
  const parameters = (path: string) => document.paths[path]!.get!.parameters as ParameterObject[];

  beforeAll(async () => {
    // Through JSON, as the generator writes it: undefined values dropped.
    document = JSON.parse(JSON.stringify(await buildOpenApiDocument())) as OpenAPIObject;
  });

  it('is the committed docs/openapi/api-v2.json', () => {
    expectCommittedOpenApi(document, 'api-v2', join(__dirname, '../../../..'));
  });

  it('documents every controller of the app', () => {
    expect(new Set(DOCUMENTED_CONTROLLERS)).toEqual(new Set(controllersInSource(join(__dirname, '..'))));
    expect(Object.keys(document.paths).sort()).toEqual([
      '/v2/cards',
      '/v2/cards/{id}',
      '/v2/cards/{id}/ids',
      '/v2/ids/{kind}/{value}',
    ]);
  });

  it('documents exactly the query parameters the parser accepts', () => {
    expect(parameters('/v2/cards').map((p) => [p.name, p.in])).toEqual(
      CARDS_PARAMETERS.map((n) => [n, 'query']),
    );
    expect(parameters('/v2/cards/{id}').map((p) => [p.name, p.in])).toEqual([
      ['id', 'path'],
      ...CARD_PARAMETERS.map((n) => [n, 'query']),
    ]);
    for (const p of parameters('/v2/cards'))
      expect([p.name, p.description]).toEqual([p.name, expect.any(String)]);
  });

  it.each([
    ['graded', GRADED_VALUES],
    ['order_by', ORDER_BY_VALUES],
    ['include', INCLUDE_VALUES],
    ['grading_company', GRADING_COMPANIES],
    ['language', LANGUAGE_NAMES],
  ])('lists values of %s that the parser accepts', (name, values) => {
    const raw = (value: string) => ({ [name]: value, ...(name === 'grading_company' && { graded: 'only' }) });
    for (const value of values) expect(() => parseCardsV2Query(raw(value), 20)).not.toThrow();
    expect(() => parseCardsV2Query(raw('no-such-value'), 20)).toThrow(/Accepted/);
  });

  it('answers every error as application/problem+json with type, title, status, detail and code', () => {
    expect(Object.keys(schema('ProblemDetailsDto').properties!)).toEqual([
      'type',
      'title',
      'status',
      'detail',
      'code',
    ]);
    for (const [path, item] of Object.entries(document.paths)) {
      const responses = Object.entries(item.get!.responses);
      const errors = responses.filter(([status]) => Number(status) >= 400).map(([status]) => status);
      expect([path, errors]).toEqual([path, expect.arrayContaining(['400', '401', '429'])]);
      for (const [status, response] of responses) {
        const content = (response as ResponseObject).content!;
        expect([path, status, Object.keys(content)]).toEqual([
          path,
          status,
          [Number(status) >= 400 ? 'application/problem+json' : 'application/json'],
        ]);
        if (Number(status) >= 400)
          expect(content['application/problem+json']!.schema).toEqual({
            $ref: '#/components/schemas/ProblemDetailsDto',
          });
      }
    }
    expect(Object.keys(document.paths['/v2/cards/{id}']!.get!.responses)).toContain('404');
  });

  it('asks for the x-api-key header and describes the response headers', () => {
    expect(document.components!.securitySchemes).toEqual({
      'x-api-key': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
    });
    for (const item of Object.values(document.paths))
      expect(item.get!.security).toEqual([{ 'x-api-key': [] }]);
    const ok = (path: string) =>
      Object.keys((document.paths[path]!.get!.responses['200'] as ResponseObject).headers!);
    expect(ok('/v2/cards')).toEqual(expect.arrayContaining(['RateLimit', 'Link', 'X-Total-Count']));
    expect(ok('/v2/cards/{id}')).toContain('RateLimit');
  });

  describe('schemas: the fields the mapping sends, in its order', () => {
    const card = testCard({ id: 's', gameId: 'g', name: 'S' }, 'n', null, { rarity: null });
    const raw = rawVariant(card, 'Near Mint', 'Normal', 'English');
    const graded = gradedVariant(card, grading('PSA', 10));
    /** A card whose variants have no observations, as GET /v2/cards writes it. */
    const present = async (include: { withPeriods: boolean; historySeconds?: number }) => {
      const view = v2CardView({
        regions: [parseRegion('NA')!],
        include: { ...include, periods: new Set(PERIOD_WINDOWS) },
      });
      const noHistory = { priceHistory: () => Promise.reject(new Error('nothing to read')) };
      const variants = [raw, graded].map((variant) => ({ variant, primary: null }));
      const [json] = await view.render([{ card, setName: 's', gameName: 'g', variants }], noHistory);
      return JSON.parse(json!) as CardV2;
    };
    let full: CardV2;
    let bare: CardV2;
    /** With `currency=` too: every member a market may carry. */
    const converted = (c: CardV2): CardV2 =>
      (
        JSON.parse(
          convertCardsBody(
            JSON.stringify({ data: c }),
            'EUR',
            new RateBook({ source: 'ecb', count: 0, byCurrency: new Map() }),
          ),
        ) as { data: CardV2 }
      ).data;
    beforeAll(async () => {
      full = converted(await present({ withPeriods: true, historySeconds: 604_800 }));
      bare = await present({ withPeriods: false });
    });

    // With every member asked for, and with none that may be left out.
    it.each<[string, (c: CardV2) => object]>([
      ['CardV2', (c) => c],
      ['VariantV2', (c) => c.variants[0]!],
      ['GradingV2', (c) => c.variants[1]!.grading!],
      ['MarketV2', (c) => c.variants[0]!.markets[0]!],
    ])('%s', (name, part) => {
      expect(Object.keys(schema(name).properties!)).toEqual(Object.keys(part(full)));
      // Omitted when not requested means optional, not nullable.
      expect(schema(name).required).toEqual(Object.keys(part(bare)));
    });

    it('documents the conversion of a market in the order it is sent', () => {
      const conversion = (full.variants[0]!.markets[0]! as unknown as { conversion: object }).conversion;
      expect(Object.keys(schema('ConversionV2').properties!)).toEqual(Object.keys(conversion));
      expect(schema('ConversionV2').required).toEqual(['currency', 'price', 'rate', 'rate_date', 'source']);
    });

    it('always sends a market price, null when the region has no data', () => {
      expect(bare.variants[0]!.markets[0]!.price).toBeNull();
      expect(schema('MarketV2').properties!['price']).toMatchObject({ type: 'number', nullable: true });
      for (const optional of ['periods', 'price_history'])
        expect(schema('MarketV2').properties![optional]).not.toHaveProperty('nullable');
    });
  });
});

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROUTE_TEMPLATES, routeTemplate } from './route-template';

const documentedPaths = (file: string): string[] =>
  Object.keys(
    (
      JSON.parse(readFileSync(resolve(__dirname, '../../../../docs/openapi', file), 'utf8')) as {
        paths: object;
      }
    ).paths,
  );

describe('routeTemplate', () => {
  it.each([
    ['/v1/cards', '/v1/cards'],
    ['/v2/cards', '/v2/cards'],
    ['/v2/cards/4f1c9e2a-0000-5000-8000-000000000000', '/v2/cards/:id'],
    ['/v2/cards/black-lotus', '/v2/cards/:id'],
    ['/v2/cards/black-lotus/ids', '/v2/cards/:id/ids'],
    ['/v2/ids/tcgplayer_product/1029', '/v2/ids/:kind/:value'],
    ['/v2/ids/tcgplayer_product', undefined],
    ['/v2/cards/a/b', undefined],
    ['/v1/nope', undefined],
    ['/v1', undefined],
    ['/v1/cards/', undefined],
  ])('%s → %s', (path, template) => {
    expect(routeTemplate({ path })).toBe(template);
  });

  it('has a template for every path of both OpenAPI documents, and none besides', () => {
    const documented = [...documentedPaths('api-v1.json'), ...documentedPaths('api-v2.json')].map((p) =>
      p.replace(/\{(\w+)\}/g, ':$1'),
    );
    expect([...ROUTE_TEMPLATES].sort()).toEqual(documented.sort());
  });
});

import { parseBoundedJson } from './bounded-json';

describe('parseBoundedJson', () => {
  it('parses a document of real rows', () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => ({
      productId: i + 1,
      subTypeName: 'Normal',
      marketPrice: 0.12,
    }));
    expect(parseBoundedJson('prices', JSON.stringify({ success: true, results: rows }))).toMatchObject({
      success: true,
    });
  });

  it('refuses, before parsing, a document of more objects than its bytes could hold as rows', () => {
    const bomb = `{"success":true,"results":[${'{},'.repeat(200_000)}{}]}`;
    expect(() => parseBoundedJson('prices', bomb)).toThrow(/more objects than/);
  });

  it('names the document that is not JSON', () => {
    expect(() => parseBoundedJson('3/3118/prices', '{"results": [oops')).toThrow(
      /^3\/3118\/prices: not JSON/,
    );
  });
});

import { MAX_REST_RATIO, parseRestRatio } from './rest-ratio';

describe('parseRestRatio (--rest-ratio of import-prices and feeds -- sync)', () => {
  it.each<[string | true | undefined, number | undefined]>([
    [undefined, 0],
    ['0', 0],
    ['3', 3],
    ['0.5', 0.5],
    [' 2 ', 2],
    [String(MAX_REST_RATIO), MAX_REST_RATIO],
    [String(MAX_REST_RATIO + 0.5), undefined],
    ['-1', undefined],
    ['', undefined],
    [' ', undefined],
    ['three', undefined],
    ['Infinity', undefined],
    ['NaN', undefined],
    [true, undefined],
  ])('%p gives %p', (given, ratio) => {
    expect(parseRestRatio(given)).toBe(ratio);
  });
});

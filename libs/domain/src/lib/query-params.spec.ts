import { queryList, queryValue } from './query-params';

describe('query parameters', () => {
  it.each([
    [{}, undefined, undefined],
    [{ a: '' }, undefined, undefined],
    [{ a: '  x ' }, 'x', ['x']],
    [{ a: 'x, y,,z ' }, 'x, y,,z', ['x', 'y', 'z']],
    [{ a: ['x', 'y'] }, 'x,y', ['x', 'y']],
    [{ a: 7 }, '7', ['7']],
  ])('reads %j as %j and %j', (query, value, list) => {
    expect(queryValue(query, 'a')).toEqual(value);
    expect(queryList(query, 'a')).toEqual(list);
  });
});

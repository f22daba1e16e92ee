import { refusalOf } from '../../testing/refusal';
import { QUERY_LIMITS, queryList, queryValue, requestTargetTooLong } from './query-values';

const refusal = refusalOf;

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

  const { value, repeats, list, listItems, listItem } = QUERY_LIMITS;
  it.each([
    ['a value at its cap', () => queryValue({ a: 'x'.repeat(value) }, 'a')],
    ['a value at its own cap', () => queryValue({ a: 'x'.repeat(1000) }, 'a', { maxLength: 1000 })],
    ['repeats at their cap', () => queryValue({ a: Array<string>(repeats).fill('x') }, 'a')],
    ['a list at its cap', () => queryList({ a: Array<string>(listItems).fill('x').join(',') }, 'a')],
    ['an item at its cap', () => queryList({ a: 'x'.repeat(listItem) }, 'a')],
    ['a list text at its cap', () => queryList({ a: `x${','.repeat(list - 2)}x` }, 'a')],
  ])('accepts %s', (_name, read) => {
    expect(read).not.toThrow();
  });

  it.each([
    ['a value past its cap', () => queryValue({ a: 'x'.repeat(value + 1) }, 'a'), /at most 256 characters/],
    [
      'a value past its own cap',
      () => queryValue({ a: 'x'.repeat(201) }, 'a', { maxLength: 200 }),
      /at most 200/,
    ],
    ['repeats joined past the cap', () => queryValue({ a: ['x'.repeat(200), 'x'.repeat(56)] }, 'a'), /256/],
    [
      'too many repeats',
      () => queryValue({ a: Array<string>(repeats + 1).fill('x') }, 'a'),
      /at most 16 times/,
    ],
    [
      'too many repeats of a list',
      () => queryList({ a: Array<string>(repeats + 1).fill('x') }, 'a'),
      /16 times/,
    ],
    [
      'too many items',
      () =>
        queryList(
          {
            a: Array<string>(listItems + 1)
              .fill('x')
              .join(','),
          },
          'a',
        ),
      /at most 32/,
    ],
    [
      'a long item',
      () => queryList({ a: `ok,${'x'.repeat(listItem + 1)}` }, 'a'),
      /at most 64 characters each/,
    ],
    ['a long list text', () => queryList({ a: ' '.repeat(list + 1) }, 'a'), /at most 512 characters in all/],
    ['a blank value past its cap', () => queryValue({ a: ' '.repeat(value + 1) }, 'a'), /256/],
  ])('refuses %s, naming the parameter and the cap', (_name, read, cap) => {
    const error = refusal(read);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter: 'a' });
    expect(error.message).toMatch(/'a'/);
    expect(error.message).toMatch(cap);
  });

  it('quotes only the head of a value it refuses', () => {
    const error = refusal(() => queryValue({ q: 'y'.repeat(100_000) }, 'q'));
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('requestTargetTooLong', () => {
  it.each([
    ['/v1/cards', undefined],
    [`/v1/cards?${'q'.repeat(QUERY_LIMITS.queryString)}`, undefined],
    [`/v1/cards?${'q'.repeat(QUERY_LIMITS.queryString + 1)}`, 'query'],
    [`/${'p'.repeat(QUERY_LIMITS.path - 1)}?a=1`, undefined],
    [`/${'p'.repeat(QUERY_LIMITS.path)}`, 'path'],
  ])('%s: %s', (target, part) => {
    expect(requestTargetTooLong(target)?.parameter).toBe(part);
  });

  it('says how long the part is and what is accepted', () => {
    expect(requestTargetTooLong(`/v1/cards?${'q'.repeat(5000)}`)).toMatchObject({
      code: 'INVALID_REQUEST',
      message: 'The query string is 5000 characters long; at most 4096 are accepted.',
    });
  });
});

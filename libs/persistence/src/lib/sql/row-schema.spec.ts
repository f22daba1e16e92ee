import { checkRows, rowSchema } from './row-schema';

const SCHEMA = rowSchema('test read', {
  uuid: 'string',
  total: 'int',
  price: 'float?',
  sealed: 'boolean',
  kinds: 'int[]',
  name: 'string?',
  at: 'date',
  rule: 'json',
  hash: 'bytes',
});

const ROW = {
  uuid: 'u',
  total: 3,
  price: null,
  sealed: false,
  kinds: [1],
  name: 'x',
  at: new Date(0),
  rule: { op: 'below' },
  hash: Buffer.from([1, 2]),
};

describe('checkRows', () => {
  it('returns the rows that fit, typed', () => {
    const rows = checkRows(SCHEMA, [ROW, { ...ROW, price: 1.5, name: null, extra: 'not checked' }]);
    expect(rows).toHaveLength(2);
    const total: number = rows[0]!.total;
    const name: string | null = rows[1]!.name;
    expect([total, name]).toEqual([3, null]);
  });

  it.each([
    [
      'a missing column',
      { ...ROW, uuid: undefined },
      'test read: column uuid should be string, got no such column',
    ],
    ['null where none is allowed', { ...ROW, total: null }, 'column total should be int, got object null'],
    ['a fraction for an int', { ...ROW, total: 1.5 }, 'column total should be int, got number 1.5'],
    ['a bigint as text for an int', { ...ROW, total: '3' }, 'column total should be int, got string "3"'],
    ['a string for a boolean', { ...ROW, sealed: 'f' }, 'column sealed should be boolean'],
    ['a text for an array', { ...ROW, kinds: '{1}' }, 'column kinds should be int[]'],
    ['a number for a nullable string', { ...ROW, name: 1 }, 'column name should be string?'],
    ['a timestamp as text for a date', { ...ROW, at: '1970-01-01' }, 'column at should be date'],
    ['null for a json', { ...ROW, rule: null }, 'column rule should be json, got object null'],
    ['bytea as hex text for bytes', { ...ROW, hash: '\\x0102' }, 'column hash should be bytes'],
  ])('refuses %s', (_case, row, message) => {
    expect(() => checkRows(SCHEMA, [ROW, row])).toThrow(message);
  });

  it('accepts no rows', () => {
    expect(checkRows(SCHEMA, [])).toEqual([]);
  });
});

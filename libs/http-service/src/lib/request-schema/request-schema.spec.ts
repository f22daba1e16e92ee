import { refusalOf } from '../../testing/refusal';
import { DomainError } from '@tcg/domain';
import fc from 'fast-check';
import { choice, flag, integer, list, Param, required, text } from './params';
import { QUERY_LIMITS } from './query-values';
import { requestSchema } from './request-schema';

const refusal = refusalOf;

const read = <T>(param: Param<T>, value: unknown): T => param.read(value, 'p');

describe('parameters', () => {
  it.each<[string, Param<unknown>, unknown, unknown]>([
    ['text trims', text(), '  a b ', 'a b'],
    ['text joins repeats', text(), ['a', 'b'], 'a,b'],
    ['text: blank is absent', text(), ' ', undefined],
    ['text parses', text({ schema: { type: 'number' }, parse: Number }), '12', 12],
    ['choice', choice(['asc', 'desc']), 'asc', 'asc'],
    ['choice ignoring case', choice(['asc', 'desc'], { ignoreCase: true }), 'ASC', 'asc'],
    ['choice default', choice(['asc', 'desc'], { default: 'desc' }), undefined, 'desc'],
    ['flag true', flag({ default: false }), 'TRUE', true],
    ['flag 0', flag({ default: true }), '0', false],
    ['flag default', flag({ default: true }), undefined, true],
    ['integer', integer({ minimum: 1 }), '42', 42],
    ['integer at its maximum', integer({ minimum: 0, maximum: 9 }), '9', 9],
    ['integer default', integer({ minimum: 1, default: 20 }), undefined, 20],
    ['list', list(), 'a, b,,c', ['a', 'b', 'c']],
    ['list of words', list({ values: ['a', 'b'] }), ['a', 'b'], ['a', 'b']],
    ['list read by item, as a set', list({ item: (x) => x.length }), 'ab,c,d', [1, 2]],
    ['an ordered list', list({ item: (x) => x.length, ordered: true }), 'ab,c,d', [2, 1, 1]],
    ['list: blank is absent', list(), ' ', undefined],
    ['list: blank as empty', list({ blank: 'empty' }), ' ', []],
    ['list: commas are empty', list(), ' , ', []],
  ])('%s', (_name, param, value, parsed) => {
    expect(read(param, value)).toEqual(parsed);
  });

  it.each<[string, Param<unknown>, unknown, RegExp]>([
    ['a choice', choice(['asc', 'desc']), 'up', /^Invalid value 'up' for 'p'\. Accepted: asc, desc\.$/],
    ['a case-sensitive choice', choice(['7d']), '7D', /Invalid value '7D' for 'p'\. Accepted: 7d\./],
    [
      'a quiet choice',
      choice(['a', 'b'], { quiet: true }),
      'c',
      /^Invalid value for 'p'\. Accepted: a, b\.$/,
    ],
    ['a flag', flag({ default: false }), 'yes', /Accepted: true, false\./],
    ['a signed integer', integer({ minimum: 0 }), '-1', /Accepted: an integer of at least 0\./],
    ['an exponent', integer({ minimum: 0 }), '1e3', /an integer of at least 0/],
    ['an integer past its maximum', integer({ minimum: 0, maximum: 9 }), '10', /an integer from 0 to 9/],
    ['an unsafe integer', integer({ minimum: 1 }), '9'.repeat(20), /an integer of at least 1/],
    ['a word not in the list', list({ values: ['a'] }), 'a,b', /Invalid value 'b' for 'p'\. Accepted: a\./],
    ['an item not read', list({ item: () => undefined, accepted: 'nothing' }), 'x', /Accepted: nothing\./],
    ['a missing required one', required(text(), "'p' is required."), ' ', /^'p' is required\.$/],
    ['text past its cap', text({ maxLength: 3 }), 'abcd', /at most 3 characters; this one has 4/],
    [
      'text repeated too often',
      text(),
      Array<string>(QUERY_LIMITS.repeats + 1).fill('a'),
      /at most 16 times/,
    ],
    [
      'a list past its items',
      list(),
      Array<string>(QUERY_LIMITS.listItems + 1)
        .fill('a')
        .join(','),
      /at most 32/,
    ],
    ['a list item past its cap', list(), 'x'.repeat(QUERY_LIMITS.listItem + 1), /at most 64 characters each/],
  ])('refuses %s, naming the parameter and what it accepts', (_name, param, value, message) => {
    const error = refusal(() => read(param, value));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter: 'p', status: 400 });
    expect(error.message).toMatch(message);
  });

  it('documents what it reads: type, enum, default, caps and list style', () => {
    expect(text().doc.schema).toEqual({ type: 'string', maxLength: QUERY_LIMITS.value });
    expect(choice(['a', 'b'], { default: 'a' }).doc.schema).toEqual({
      type: 'string',
      enum: ['a', 'b'],
      default: 'a',
    });
    expect(flag({ default: true }).doc.schema).toEqual({ type: 'boolean', default: true });
    expect(integer({ minimum: 0, maximum: 9, default: 0 }).doc.schema).toEqual({
      type: 'integer',
      minimum: 0,
      maximum: 9,
      default: 0,
    });
    expect(list({ values: ['a'], default: ['a'] }).doc).toMatchObject({
      style: 'form',
      explode: false,
      schema: {
        type: 'array',
        items: { type: 'string', maxLength: QUERY_LIMITS.listItem, enum: ['a'] },
        maxItems: QUERY_LIMITS.listItems,
        default: ['a'],
      },
    });
    expect(required(text(), 'missing').doc.required).toBe(true);
  });
});

describe('requestSchema', () => {
  const schema = requestSchema(
    {
      name: required(text(), "'name' is required."),
      size: integer({ minimum: 1, default: 20 }),
      tags: list(),
      order: choice(['asc', 'desc'], { default: 'desc' }),
    },
    { unknown: 'ignore' },
  );

  it('gives every declared parameter, absent ones their default, and ignores others when lenient', () => {
    expect(schema.parse({ name: 'x', other: 'y' })).toEqual({
      name: 'x',
      size: 20,
      tags: undefined,
      order: 'desc',
    });
    expect(Object.keys(schema.parse({ tags: 'a', name: 'x' }))).toEqual(['name', 'size', 'tags', 'order']);
  });

  it('refuses an absent required parameter, and names parameters of a part with its prefix', () => {
    expect(refusal(() => schema.parse({})).message).toBe("'name' is required.");
    expect(refusal(() => schema.parse({ name: 'x', size: '0' }, 'item 3.'))).toMatchObject({
      parameter: 'item 3.size',
      message: "Invalid value '0' for 'item 3.size'. Accepted: an integer of at least 1.",
    });
  });

  it('refuses unknown parameters when strict, listing the ones there are', () => {
    const strict = schema.pick(['size', 'order'], { unknown: 'reject' });
    expect(strict.names).toEqual(['size', 'order']);
    expect(strict.parse({ size: '5' })).toEqual({ size: 5, order: 'desc' });
    const error = refusal(() => strict.parse({ size: '5', name: 'x' }));
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter: 'name' });
    expect(error.message).toBe(
      "Invalid value 'x' for 'name'. Accepted: no such parameter; the parameters are size, order.",
    );
    // Not a prototype's property either.
    expect(() => strict.parse(Object.assign(Object.create(null) as object, { toString: 'x' }))).toThrow(
      /no such parameter/,
    );
  });

  it('does not share a parsed object between requests', () => {
    const first = schema.parse({ name: 'a' }) as { size: number };
    (first as { size: number }).size = 99;
    expect(schema.parse({ name: 'b' }).size).toBe(20);
  });

  it('answers any query with its values or a 400, never another error', () => {
    const names = ['name', 'size', 'tags', 'order', 'other'];
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.array(fc.string({ maxLength: 8 }), { maxLength: 20 }),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...names), value), (query) => {
        try {
          schema.parse(query);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect((error as DomainError).status).toBe(400);
        }
      }),
    );
  });
});

import { refusalOf, V1_BATCH_FIELDS } from '@tcg/http-service/testing';
import { QUERY_LIMITS } from '@tcg/http-service';
import { BATCH_ITEM, MAX_BATCH_ITEMS, parseBatch, toBatchItem } from './batch-items.schema';

const parse = (body: unknown, maxItems = MAX_BATCH_ITEMS) => parseBatch(body, maxItems, 'enterprise');
const refusal = (body: unknown, maxItems = MAX_BATCH_ITEMS) => refusalOf(() => parse(body, maxItems));

describe('parseBatch', () => {
  it('reads each lookup in order with its filters', () => {
    expect(
      parse([
        { cardId: ' c ', printing: 'Normal - Japanese, Foil', condition: 'nm,Lightly Played' },
        { vendorId: 42, updated_after: 1767139200, colour: 'ignored' },
        { variantId: 'v', cardId: '', vendorSkuId: null, printing: '', condition: null },
      ]),
    ).toEqual([
      {
        ordinal: 0,
        by: 'cardId',
        value: 'c',
        printings: ['foil', 'normal'],
        conditions: ['Lightly Played', 'Near Mint'],
        updatedAfter: undefined,
      },
      {
        ordinal: 1,
        by: 'vendorId',
        value: '42',
        printings: undefined,
        conditions: undefined,
        updatedAfter: 1767139200,
      },
      {
        ordinal: 2,
        by: 'variantId',
        value: 'v',
        printings: undefined,
        conditions: undefined,
        updatedAfter: undefined,
      },
    ]);
  });

  it('keeps a filter of only commas as one that matches nothing, as before', () => {
    expect(parse([{ cardId: 'c', printing: ' , ' }])[0]!.printings).toEqual([]);
  });

  it('accepts every field at its cap, and the most items the plan allows', () => {
    const item = {
      opensetId: 'o'.repeat(QUERY_LIMITS.value),
      printing: Array<string>(QUERY_LIMITS.listItems).fill('Foil - Japanese').join(','),
      condition: Array<string>(QUERY_LIMITS.listItems).fill('NM').join(','),
    };
    const items = parse(Array<typeof item>(MAX_BATCH_ITEMS).fill(item));
    expect(items).toHaveLength(MAX_BATCH_ITEMS);
    // A list is a set: its repeats are one item.
    expect(items[0]!.printings).toEqual(['foil']);
  });

  it.each([
    [
      'more items than the plan allows',
      Array(21).fill({ cardId: 'c' }),
      20,
      'PAYLOAD_TOO_LARGE',
      /At most 20 items/,
    ],
    [
      'more than 200 items',
      Array(201).fill({ cardId: 'c' }),
      MAX_BATCH_ITEMS,
      'PAYLOAD_TOO_LARGE',
      /At most 200/,
    ],
  ])('answers 413 to %s', (_name, body, maxItems, code, message) => {
    const error = refusal(body, maxItems);
    expect(error).toMatchObject({ code });
    expect(error.status).toBe(413);
    expect(error.message).toMatch(message);
  });

  it.each([
    ['an object', { cardId: 'c' }, 'body', /JSON array/],
    ['null', null, 'body', /JSON array/],
    ['an empty array', [], 'body', /empty/],
    ['a non-object item', [{ cardId: 'c' }, 'c'], 'body', /item 1 must be an object/],
    ['an item with no identifier', [{ printing: 'Foil' }], 'body', /no identifier/],
    ['an item with two identifiers', [{ cardId: 'c', vendorId: 'v' }], 'body', /exactly one/],
    [
      'an object identifier',
      [{ cardId: { $ne: null } }],
      'item 0.cardId',
      /^item 0\.cardId must be a string\.$/,
    ],
    [
      'a numeric filter',
      [{ cardId: 'c', condition: 3 }],
      'item 0.condition',
      /item 0\.condition must be a string/,
    ],
    [
      'a filter as a JSON array',
      [{ cardId: 'c', printing: ['Foil'] }],
      'item 0.printing',
      /must be a string/,
    ],
    [
      'a timestamp as a string',
      [{ cardId: 'c', updated_after: '1767139200' }],
      'item 0.updated_after',
      /Unix timestamp/,
    ],
    [
      'a fractional timestamp',
      [{ cardId: 'c', updated_after: 1.5 }],
      'item 0.updated_after',
      /Unix timestamp/,
    ],
    ['a NUL in a value', [{ cardId: 'c', printing: 'a\u0000' }], 'item 0.printing', /NUL/],
    ['an unknown condition', [{ cardId: 'c', condition: 'NM,Mint-ish' }], 'item 0.condition', /Near Mint/],
    [
      'a negative updated_after',
      [{ cardId: 'c', updated_after: -1 }],
      'item 0.updated_after',
      /Unix timestamp/,
    ],
    [
      'a long identifier',
      [{ cardId: 'c' }, { cardId: 'x'.repeat(257) }],
      'item 1.cardId',
      /at most 256 characters/,
    ],
    [
      'a long printing list',
      [{ cardId: 'c', printing: `a${' '.repeat(3000)}-${' '.repeat(3000)}-` }],
      'item 0.printing',
      /at most 512 characters in all/,
    ],
    [
      'too many printings',
      [{ cardId: 'c', printing: Array<string>(33).fill('Foil').join(',') }],
      'item 0.printing',
      /at most 32 comma-separated values/,
    ],
    [
      'a long condition',
      [{ cardId: 'c', condition: 'N'.repeat(QUERY_LIMITS.listItem + 1) }],
      'item 0.condition',
      /at most 64 characters each/,
    ],
    ['a 100 KB identifier', [{ imagedbId: 'i'.repeat(100_000) }], 'item 0.imagedbId', /at most 256/],
  ])('refuses %s, naming where', (_name, body, parameter, message) => {
    const error = refusal(body);
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', parameter });
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
  });
});

describe('BATCH_ITEM', () => {
  it('reads one item, its fields named after their item', () => {
    const fields = BATCH_ITEM.parse({ vendorSkuId: 7, condition: 'LP', printing: ' , ' }, 'item 4.');
    expect(fields).toEqual({
      cardId: undefined,
      variantId: undefined,
      vendorId: undefined,
      opensetId: undefined,
      imagedbId: undefined,
      vendorSkuId: '7',
      printing: [],
      condition: ['Lightly Played'],
      updated_after: undefined,
    });
    expect(toBatchItem(fields, 4, 'vendorSkuId')).toEqual({
      ordinal: 4,
      by: 'vendorSkuId',
      value: '7',
      printings: [],
      conditions: ['Lightly Played'],
      updatedAfter: undefined,
    });
  });

  it('looks up nothing for a blank identifier rather than refusing it', () => {
    expect(parse([{ cardId: '   ' }])[0]).toMatchObject({ by: 'cardId', value: '' });
  });

  it('documents each field as the body carries it: lists as one comma-separated string', () => {
    expect(BATCH_ITEM.names).toEqual(V1_BATCH_FIELDS);
    const { cardId, condition, updated_after } = BATCH_ITEM.params;
    expect(cardId.doc.schema).toEqual({ type: 'string', maxLength: QUERY_LIMITS.value });
    expect(condition.doc.schema).toEqual({ type: 'string', maxLength: QUERY_LIMITS.list });
    expect(updated_after.doc.schema).toEqual({ type: 'integer', minimum: 0 });
  });
});

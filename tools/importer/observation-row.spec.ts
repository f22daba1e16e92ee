import { FIELD_MAX_LENGTH, parseObservation } from './observation-row';

const NOW = Date.UTC(2026, 10, 1) / 1000;
const valid = {
  variant_id: 'test-dragon-nm',
  region: 'NA',
  time: '2026-10-01',
  price: '1.50',
  currency: 'USD',
};

describe('parseObservation field caps', () => {
  it('accepts a valid row', () => {
    expect(parseObservation(valid, NOW)).toEqual({
      ok: true,
      row: {
        variantRef: 'test-dragon-nm',
        vendorSku: undefined,
        region: 'NA',
        t: Date.UTC(2026, 9, 1) / 1000,
        price: 150,
      },
    });
  });

  it.each(Object.entries(FIELD_MAX_LENGTH))(
    'rejects a %s longer than %d characters, naming it',
    (field, max) => {
      const record: Record<string, unknown> = { ...valid, [field]: 'x'.repeat(max + 1) };
      if (field === 'vendor_sku') delete record['variant_id'];
      expect(parseObservation(record, NOW)).toEqual({
        ok: false,
        reason: `${field} is ${max + 1} characters long; at most ${max} are accepted`,
      });
    },
  );

  it.each([
    ['region', { region: 'Z'.repeat(8) }, `unknown region 'ZZZZZZZZ'`],
    ['time', { time: '9'.repeat(40) }, `time '${'9'.repeat(40)}' is not Unix seconds`],
    ['time given as an object', { time: { a: 'b'.repeat(100) } }, `time '{"a":"${'b'.repeat(34)}…'`],
  ])('quotes a bad %s, at most 40 characters of it', (_name, change, start) => {
    expect(parseObservation({ ...valid, ...change }, NOW)).toMatchObject({
      ok: false,
      reason: expect.stringContaining(start),
    });
  });
});

import { parse } from 'csv-parse/sync';
import { BULK_COLUMNS, BulkRow, csvHeader, csvLines, ndjsonLines } from './bulk-rows';

const row = (values: Record<string, string | number | boolean | null>): BulkRow =>
  Object.fromEntries(BULK_COLUMNS.map((c) => [c, values[c] ?? null])) as BulkRow;

describe('bulk rows as CSV and NDJSON', () => {
  it.each([
    ['a comma', 'Borrowing 100,000 Arrows'],
    ['quotes', 'Ach! Hans, Run! "It\'s the Lurid"'],
    ['a line break', 'first\nsecond'],
    ['a carriage return', 'first\r\nsecond'],
    ['non-ASCII text', 'Æther Vial — 日本語'],
    ['leading and trailing spaces', '  spaced  '],
  ])('a name with %s reads back as written, in both formats', (_, name) => {
    const rows = [row({ name, price: 12.5, sealed: false, grade: 9.5, number: '007' })];
    const csv = parse(csvHeader() + csvLines(rows), { columns: true }) as Record<string, string>[];
    expect(csv).toEqual([
      expect.objectContaining({
        name,
        price: '12.5',
        sealed: 'false',
        grade: '9.5',
        number: '007',
        region: '',
      }),
    ]);
    expect(JSON.parse(ndjsonLines(rows))).toEqual(rows[0]);
  });

  it('one line per row, the header naming every column once', () => {
    const rows = [row({ name: 'a' }), row({ name: 'b' })];
    expect(csvLines(rows).split('\n')).toHaveLength(3); // and the last line's end
    expect(ndjsonLines(rows).split('\n')).toHaveLength(3);
    expect(csvHeader().trimEnd().split(',')).toEqual([...BULK_COLUMNS]);
    expect(new Set(BULK_COLUMNS).size).toBe(BULK_COLUMNS.length);
  });
});

import fc from 'fast-check';
import { boundedLines, csvRecords, ndjsonRecords, NumberedRecord } from './read-records';
import { chunksOf, collect } from '../testing/byte-streams';

const row = (price: string) =>
  JSON.stringify({ variant_id: 'v', region: 'NA', time: 1, price, currency: 'USD' });

describe('boundedLines', () => {
  it('splits like String.split on \\n, whatever the chunk boundaries, when no line is over the cap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'é', '\n', '\r', '😀') }), { maxLength: 20 }),
        fc.integer({ min: 1, max: 7 }),
        async (pieces, size) => {
          const text = pieces.join('');
          const lines = await collect(boundedLines(chunksOf(text, size), 1_000));
          const expected = text.split('\n');
          if (expected[expected.length - 1] === '') expected.pop();
          expect(lines.map((l) => l.bytes?.toString('utf8'))).toEqual(expected);
          expect(lines.map((l) => l.line)).toEqual(expected.map((_, i) => i + 1));
        },
      ),
    );
  });

  it.each([
    ['exactly at the cap', 'x'.repeat(8), false],
    ['one byte over the cap', 'x'.repeat(9), true],
    ['over the cap only counting multi-byte characters', 'éééé' + 'é', true],
  ])('a line %s', async (_name, long, tooLong) => {
    const lines = await collect(boundedLines(chunksOf(`a\n${long}\nb`, 3), 8));
    expect(lines.map((l) => [l.line, l.tooLong ?? false])).toEqual([
      [1, false],
      [2, tooLong],
      [3, false],
    ]);
  });

  it('skips a 1 GiB line without holding it, and reads the line after it', async () => {
    const block = Buffer.alloc(64 * 1024, 0x78); // one buffer, handed out again and again
    async function* huge(): AsyncGenerator<Buffer> {
      yield Buffer.from('first\n');
      for (let i = 0; i < 16 * 1024; i++) yield block; // 1 GiB, more than a Node string can hold
      yield Buffer.from('\nlast\n');
    }
    const lines = await collect(boundedLines(huge(), 64 * 1024));
    expect(lines.map((l) => l.bytes?.toString() ?? 'TOO LONG')).toEqual(['first', 'TOO LONG', 'last']);
  });
});

describe('ndjsonRecords', () => {
  it('rejects an oversized line with its line number and goes on reading', async () => {
    const text = [row('1'), row('2'.repeat(200)), '', row('3')].join('\n');
    const records = await collect(ndjsonRecords(chunksOf(text, 16), 128));
    expect(records.map((r) => [r.line, r.error ?? r.record?.['price']])).toEqual([
      [1, '1'],
      [2, 'line is longer than 128 bytes'],
      [4, '3'],
    ]);
  });

  it('accepts CRLF line endings', async () => {
    const records = await collect(ndjsonRecords(chunksOf(`${row('1')}\r\n${row('2')}\r\n`, 5)));
    expect(records.map((r) => r.record?.['price'])).toEqual(['1', '2']);
  });
});

describe('csvRecords', () => {
  const header = 'variant_id,region,time,price,currency';
  const prices = (records: NumberedRecord[]) => records.map((r) => [r.line, r.error ?? r.record?.['price']]);

  it('rejects an oversized line with its line number and goes on reading', async () => {
    const text = [header, 'v,NA,1,1,USD', `v,NA,1,${'9'.repeat(300)},USD`, 'v,NA,1,3,USD', ''].join('\n');
    const records = await collect(csvRecords(chunksOf(text, 10), 128));
    expect(prices(records)).toEqual([
      [2, '1'],
      [3, 'line is longer than 128 bytes'],
      [4, '3'],
    ]);
  });

  it('reports oversized lines at the end of the file too', async () => {
    const text = [header, 'v,NA,1,1,USD', 'x'.repeat(300)].join('\n');
    expect(prices(await collect(csvRecords(chunksOf(text, 10), 128)))).toEqual([
      [2, '1'],
      [3, 'line is longer than 128 bytes'],
    ]);
  });

  it('keeps quoted fields that span lines', async () => {
    const text = [header, 'v,NA,1,"1\n0",USD', 'v,NA,1,2,USD'].join('\n');
    expect(prices(await collect(csvRecords(chunksOf(text, 4), 128)))).toEqual([
      [3, '1\n0'],
      [4, '2'],
    ]);
  });

  it('rejects a quoted record over the cap across lines and reads on after its closing quote', async () => {
    const text = [
      header,
      'v,NA,1,1,USD',
      'v,NA,1,"2',
      ...Array(20).fill('a long line'),
      '",USD',
      'v,NA,1,3,USD',
    ].join('\n');
    expect(prices(await collect(csvRecords(chunksOf(text, 10), 128)))).toEqual([
      [2, '1'],
      [3, 'record is longer than 128 bytes'],
      [25, '3'],
    ]);
  });

  it('skips an oversized line inside a quoted field up to the closing quote', async () => {
    const text = [header, 'v,NA,1,"2', 'x'.repeat(300) + '"",""', 'still quoted",USD', 'v,NA,1,3,USD'].join(
      '\n',
    );
    expect(prices(await collect(csvRecords(chunksOf(text, 10), 128)))).toEqual([
      [2, 'record is longer than 128 bytes'],
      [5, '3'],
    ]);
  });

  it('reports a quote never closed once, at its first line', async () => {
    const text = [header, 'v,NA,1,1,USD', 'v,NA,1,"2', 'more'].join('\n');
    expect(prices(await collect(csvRecords(chunksOf(text, 10), 128)))).toEqual([
      [2, '1'],
      [3, 'a quoted field is never closed'],
    ]);
  });
});

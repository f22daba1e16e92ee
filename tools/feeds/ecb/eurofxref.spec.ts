import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FeedParseError } from '../json-stream';
import { readEcbRates } from './eurofxref';

const FIXTURES = join(__dirname, '..', 'fixtures', 'ecb');
const daily = readFileSync(join(FIXTURES, 'eurofxref-daily.xml'), 'utf8');
const hist90 = readFileSync(join(FIXTURES, 'eurofxref-hist-90d.xml'), 'utf8');

describe('readEcbRates on the ECB’s own files', () => {
  it('reads the daily file: one day, its rates as published', () => {
    const days = readEcbRates('eurofxref-daily.xml', daily);
    expect(days).toHaveLength(1);
    expect(days[0]!.day).toBe('2025-05-09');
    expect(days[0]!.rates).toHaveLength(30);
    expect(days[0]!.rates.slice(0, 2)).toEqual([
      { currency: 'USD', rate: '1.1252' },
      { currency: 'JPY', rate: '163.36' },
    ]);
    // The trailing zero is the ECB's: the text is kept, not a float of it.
    expect(days[0]!.rates.find((r) => r.currency === 'GBP')).toEqual({ currency: 'GBP', rate: '0.84770' });
  });

  it('reads the 90-day history: every business day, newest first, double-quoted', () => {
    const days = readEcbRates('eurofxref-hist-90d.xml', hist90);
    expect(days).toHaveLength(64);
    expect(days[0]!.day).toBe('2017-03-03');
    expect(days.at(-1)!.day).toBe('2016-12-05');
    expect(days[0]!.rates.find((r) => r.currency === 'USD')).toEqual({ currency: 'USD', rate: '1.0565' });
    // No weekend: 2017-02-25 and 26 are a Saturday and a Sunday.
    expect(days.map((d) => d.day)).not.toContain('2017-02-25');
    expect(days.every((d) => d.rates.length === 31)).toBe(true);
  });
});

describe('readEcbRates refuses a broken copy whole', () => {
  const cases: [string, string, RegExp][] = [
    ['cut half-way', daily.slice(0, Math.floor(daily.length / 2)), /does not end|ends inside/],
    ['no days', daily.replace(/<Cube time[\s\S]*<\/Cube>\s*<\/Cube>/, '</Cube>'), /no day of rates/],
    [
      'a rate that is not a number',
      daily.replace("rate='1.1252'", "rate='1,1252'"),
      /not a positive decimal/,
    ],
    ['a zero rate', daily.replace("rate='1.1252'", "rate='0.0000'"), /not a positive decimal/],
    ['a negative rate', daily.replace("rate='1.1252'", "rate='-1.1252'"), /not a positive decimal/],
    ['a day that is not a date', daily.replace("time='2025-05-09'", "time='2025-02-30'"), /not a date/],
    ['a currency twice', daily.replace("currency='JPY'", "currency='USD'"), /USD twice/],
    ['a lower-case code', daily.replace("currency='JPY'", "currency='jpy'"), /not an ISO code/],
    ['an unknown element', daily.replace("<Cube currency='JPY'", "<Rate currency='JPY'"), /not this <Rate>/],
    [
      'a DOCTYPE',
      daily.replace('<gesmes:Envelope', '<!DOCTYPE x [<!ENTITY a "b">]><gesmes:Envelope'),
      /DOCTYPE/,
    ],
    ['an entity in text', daily.replace('Reference rates', 'Reference &a; rates'), /entity/],
    ['a mismatched close', daily.replace('</gesmes:Sender>', '</gesmes:Subject>'), /closes/],
    ['not XML', '{"rates":{"USD":1.1}}', /outside the elements|no <gesmes:Envelope>/],
    ['an empty file', '', /no <gesmes:Envelope>/],
  ];
  it.each(cases)('%s', (_name, text, why) => {
    expect(() => readEcbRates('eurofxref-daily.xml', text)).toThrow(FeedParseError);
    expect(() => readEcbRates('eurofxref-daily.xml', text)).toThrow(why);
  });

  it('reads a file as long as the full history (8,000 days)', () => {
    const dayText = hist90.slice(hist90.indexOf('<Cube time='), hist90.indexOf('<Cube time=', 400));
    const many = (n: number) =>
      hist90.replace(
        /<Cube><Cube time[\s\S]*<\/Cube><\/Cube>/,
        `<Cube>${Array.from({ length: n }, (_, i) =>
          dayText.replace(
            /time="[^"]*"/,
            `time="${new Date(Date.UTC(2000, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)}"`,
          ),
        ).join('')}</Cube>`,
      );
    expect(readEcbRates('x', many(8_000))).toHaveLength(8_000);
  });
});

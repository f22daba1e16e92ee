import fc from 'fast-check';
import { printType } from './printing';

/** The definition printType replaces: right by construction, cubic on runs of spaces and dashes. */
const byRegex = (printing: string) => printing.replace(/\s+-\s+[^-]+$/, '').toLowerCase();

describe('printType', () => {
  it.each([
    ['Normal', 'normal'],
    ['Normal - Japanese', 'normal'],
    ['1st Edition Holofoil - Chinese (S)', '1st edition holofoil'],
    ['Foil\t-\u00a0French', 'foil'],
    ['Normal -  ', 'normal'],
    ['Normal - Japanese - German', 'normal - japanese'],
    ['Non-Foil', 'non-foil'],
    ['Non-Foil - Japanese', 'non-foil'],
    ['Normal-Japanese', 'normal-japanese'],
    ['Normal -Japanese', 'normal -japanese'],
    ['Normal- Japanese', 'normal- japanese'],
    ['Normal - ', 'normal - '],
    ['Normal - -', 'normal - -'],
    ['- Japanese', '- japanese'],
    [' - Japanese', ''],
    ['', ''],
  ])('reads %j as %j', (printing, expected) => {
    expect(printType(printing)).toBe(expected);
    expect(byRegex(printing)).toBe(expected);
  });

  it('cuts where the regex cut, on text made of what the suffix is made of', () => {
    const text = fc
      .array(fc.constantFrom(' ', '\t', '\u00a0', '\u3000', '\n', '-', 'a', 'B', 'é'), { maxLength: 24 })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(text, (printing) => printType(printing) === byRegex(printing)),
      { numRuns: 5000 },
    );
  });

  it('reads the input that held api-v1 for 9 s', () => {
    const hostile = `a${' '.repeat(3000)}-${' '.repeat(3000)}-`;
    expect(printType(hostile)).toBe(hostile);
    const long = `a${' '.repeat(100_000)}-${' '.repeat(100_000)}x`;
    expect(printType(long)).toBe('a');
  });
});

import { conditionShort, conditionSlug, parseCondition } from './conditions';
import { parseLanguage } from './languages';

describe('parseCondition', () => {
  it.each([
    ['NM', 'Near Mint'],
    ['near mint', 'Near Mint'],
    [' lp ', 'Lightly Played'],
    ['Moderately Played', 'Moderately Played'],
    ['hp', 'Heavily Played'],
    ['dmg', 'Damaged'],
    ['S', 'Sealed'],
  ])('%s → %s', (input, expected) => {
    expect(parseCondition(input)).toBe(expected);
  });

  it('rejects unknown names', () => {
    expect(parseCondition('Mint')).toBeUndefined();
    expect(parseCondition('')).toBeUndefined();
  });

  it('gives short names and slugs', () => {
    expect(conditionShort('Damaged')).toBe('DMG');
    expect(conditionSlug('Near Mint')).toBe('near-mint');
  });
});

describe('parseLanguage', () => {
  it('is case-insensitive and knows the eleven languages', () => {
    expect(parseLanguage('japanese')).toBe('Japanese');
    expect(parseLanguage('CHINESE (T)')).toBe('Chinese (T)');
    expect(parseLanguage('Klingon')).toBeUndefined();
  });
});

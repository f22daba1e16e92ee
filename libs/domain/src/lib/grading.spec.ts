import { variantSlug } from './catalogue';
import { canonicalGrade, gradingSlug } from './grading';
import { parseRegion } from './regions';

describe('grading', () => {
  it.each([
    [{ company: 'PSA', grade: 10, gradeLabel: null, qualifier: null }, 'PSA 10', 'psa-10'],
    [{ company: 'BGS', grade: 9.5, gradeLabel: null, qualifier: null }, 'BGS 9.5', 'bgs-9-5'],
    [
      { company: 'BGS', grade: 10, gradeLabel: 'Black Label', qualifier: null },
      'BGS 10 Black Label',
      'bgs-10-black-label',
    ],
    [{ company: 'PSA', grade: 8, gradeLabel: null, qualifier: 'OC' }, 'PSA 8 (OC)', 'psa-8-oc'],
    [{ company: 'PSA', grade: null, gradeLabel: null, qualifier: null }, 'PSA Authentic', 'psa-authentic'],
  ] as const)('%o → %s / %s', (g, canonical, slug) => {
    expect(canonicalGrade(g)).toBe(canonical);
    expect(gradingSlug(g)).toBe(slug);
  });

  it('builds raw, non-English and graded variant slugs', () => {
    const card = 'pokemon-base-set-charizard-holo-rare';
    expect(variantSlug(card, { condition: 'Near Mint', printing: 'Holofoil', language: 'English' })).toBe(
      `${card}_near-mint_holofoil`,
    );
    expect(variantSlug(card, { condition: 'Lightly Played', printing: 'Normal', language: 'Japanese' })).toBe(
      `${card}_lightly-played_normal_japanese`,
    );
    const grading = { company: 'PSA', grade: 10, gradeLabel: null, qualifier: null } as const;
    expect(variantSlug(card, { grading, printing: 'Holofoil', language: 'English' })).toBe(
      `${card}_psa-10_holofoil`,
    );
  });
});

describe('parseRegion', () => {
  it('knows market codes, countries and their currencies, case-insensitively', () => {
    expect(parseRegion('na')).toEqual({ code: 'NA', currency: 'USD', storageRegion: 'NA' });
    expect(parseRegion('JP')?.currency).toBe('JPY');
    expect(parseRegion('mx')).toEqual({ code: 'MX', currency: 'MXN', storageRegion: 'MX' });
    expect(parseRegion('US')).toEqual({ code: 'US', currency: 'USD', storageRegion: 'NA' });
    expect(parseRegion('CA')?.currency).toBe('CAD');
    expect(parseRegion('XX')).toBeUndefined();
    expect(parseRegion('Narnia')).toBeUndefined();
  });
});

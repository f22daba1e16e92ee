import { canonicalGrade } from '@tcg/domain';
import { gradingsFor } from './grading-ladder';
import { pickLanguages } from './language-picks';
import {
  isSecondaryFace,
  magicCardName,
  magicPrintings,
  magicSealedProducts,
  magicSetLanguages,
  magicValueTier,
} from './magic-rules';
import type { MtgJsonCard, MtgJsonSet } from './magic-source';
import { mostValuablePrinting, printingRank } from './printing';

function set(type: string, releaseDate: string, extra: Partial<MtgJsonSet> = {}): MtgJsonSet {
  return { name: 'Some Set', code: 'SOM', releaseDate, type, cards: [], ...extra };
}
function card(rarity: string, extra: Partial<MtgJsonCard> = {}): MtgJsonCard {
  return { id: 'a'.repeat(40), name: 'Some Card', rarity, layout: 'normal', ...extra };
}

describe('magicPrintings', () => {
  it.each([
    ['expansion before foils', set('expansion', '1998-10-12'), card('Rare'), ['Normal']],
    ['Urza’s Legacy, the first foil set', set('expansion', '1999-02-15'), card('Common'), ['Normal', 'Foil']],
    ['core set basic land', set('core', '2009-07-17'), card('Basic Land'), ['Normal', 'Foil']],
    ['From the Vault', set('from the vault', '2008-08-29'), card('Mythic Rare'), ['Foil']],
    ['masterpiece', set('masterpiece', '2015-10-02'), card('Mythic Rare'), ['Foil']],
    ['Commander’s Arsenal', set('commander', '2012-11-02', { code: 'CM1' }), card('Rare'), ['Foil']],
    ['Commander deck', set('commander', '2013-11-01'), card('Rare'), ['Normal']],
    ['duel deck headline', set('duel deck', '2008-11-07'), card('Mythic Rare'), ['Foil']],
    ['duel deck filler', set('duel deck', '2008-11-07'), card('Common'), ['Normal']],
    ['modern promo', set('promo', '2000-02-01'), card('Special'), ['Foil']],
    ['90s promo', set('promo', '1996-08-02'), card('Special'), ['Normal']],
    ['Portal starter', set('starter', '1999-05-01'), card('Rare'), ['Normal']],
  ])('%s', (_label, s, c, expected) => {
    expect(magicPrintings(s, c)).toEqual(expected);
  });
});

describe('multi-face cards', () => {
  it('folds back faces into the front face and names split cards after both halves', () => {
    const names = ['Delver of Secrets', 'Insectile Aberration'];
    expect(isSecondaryFace(card('Common', { layout: 'double-faced', number: '51a', names }))).toBe(false);
    expect(isSecondaryFace(card('Common', { layout: 'double-faced', number: '51b', names }))).toBe(true);
    expect(isSecondaryFace(card('Common', { layout: 'normal', number: '51b' }))).toBe(false);
    expect(isSecondaryFace(card('Common', { layout: 'flip', name: 'B', names: ['A', 'B'] }))).toBe(true);
    expect(
      magicCardName(card('Uncommon', { layout: 'split', name: 'Alive', names: ['Alive', 'Well'] })),
    ).toBe('Alive // Well');
    expect(magicCardName(card('Rare', { layout: 'double-faced', name: 'Delver of Secrets', names }))).toBe(
      'Delver of Secrets',
    );
  });
});

describe('magicSetLanguages', () => {
  it.each([
    ['Alpha: English only', set('core', '1993-08-05'), 0],
    ['Revised era: one of German, French, Italian', set('core', '1994-04-01'), 1],
    ['90s expansion: two', set('expansion', '1998-10-12'), 2],
    ['modern expansion: three', set('expansion', '2017-01-20'), 3],
    ['not for supplements', set('commander', '2017-01-20'), 0],
  ])('%s', (_label, s, count) => {
    const langs = magicSetLanguages(s);
    expect(langs).toHaveLength(count);
    expect(langs).not.toContain('English');
    if (count === 1) expect(['German', 'French', 'Italian']).toContain(langs[0]);
    if (count >= 2) expect(langs[0]).toBe('Japanese');
  });

  it('picks deterministically, Japanese first, varying by set', () => {
    const pool = ['German', 'French', 'Italian', 'Spanish', 'Japanese', 'Portuguese'] as const;
    expect(pickLanguages(pool, 3, 'A')).toEqual(pickLanguages(pool, 3, 'A'));
    expect(pickLanguages(pool, 3, 'A')[0]).toBe('Japanese');
    const variety = new Set(['A', 'B', 'C', 'D', 'E', 'F'].map((k) => pickLanguages(pool, 3, k).join()));
    expect(variety.size).toBeGreaterThan(1);
  });
});

describe('magicValueTier', () => {
  it.each([
    ['modern common', set('expansion', '2017-01-20'), card('Common'), 0],
    ['modern mythic', set('expansion', '2017-01-20'), card('Mythic Rare'), 4],
    ['Alpha rare', set('core', '1993-08-05', { code: 'LEA' }), card('Rare'), 8],
    [
      'Alpha Black Lotus',
      set('core', '1993-08-05', { code: 'LEA' }),
      card('Rare', { name: 'Black Lotus' }),
      12,
    ],
    ['Unlimited Mox', set('core', '1993-12-01', { code: '2ED' }), card('Rare', { name: 'Mox Jet' }), 9],
    [
      'Revised dual land',
      set('core', '1994-04-01', { code: '3ED' }),
      card('Rare', { name: 'Underground Sea' }),
      7,
    ],
    [
      'modern reprint of a famous card stays normal',
      set('commander', '2013-11-01'),
      card('Uncommon', { name: 'Sol Ring' }),
      1,
    ],
    ['masterpiece', set('masterpiece', '2015-10-02'), card('Mythic Rare'), 6],
  ])('%s', (_label, s, c, tier) => {
    expect(magicValueTier(s, c)).toBe(tier);
  });
});

describe('magicSealedProducts', () => {
  it.each([
    [
      'Alpha',
      set('core', '1993-08-05', { name: 'Alpha', booster: [] }),
      ['Alpha Booster Pack', 'Alpha Booster Box'],
    ],
    [
      'Tempest (before Fat Packs)',
      set('expansion', '1997-10-14', { name: 'Tempest', booster: [] }),
      ['Tempest Booster Pack', 'Tempest Booster Box'],
    ],
    [
      'Innistrad',
      set('expansion', '2011-09-30', { name: 'Innistrad', booster: [] }),
      ['Innistrad Booster Pack', 'Innistrad Booster Box', 'Innistrad Fat Pack'],
    ],
    [
      'Kaladesh',
      set('expansion', '2016-09-30', { name: 'Kaladesh', booster: [] }),
      ['Kaladesh Booster Pack', 'Kaladesh Booster Box', 'Kaladesh Bundle'],
    ],
    [
      'Modern Masters',
      set('reprint', '2013-06-07', { name: 'Modern Masters', booster: [] }),
      ['Modern Masters Booster Pack', 'Modern Masters Booster Box'],
    ],
    [
      'a duel deck',
      set('duel deck', '2008-11-07', { name: 'Duel Decks: Jace vs. Chandra' }),
      ['Duel Decks: Jace vs. Chandra'],
    ],
    ['promos', set('promo', '2000-02-01', { name: 'Friday Night Magic' }), []],
    ['the Timeshifted sheet', set('expansion', '2006-10-06', { code: 'TSB', booster: [] }), []],
  ])('%s', (_label, s, names) => {
    expect(magicSealedProducts(s).map((p) => p.name)).toEqual(names);
  });

  it('prices old sealed product far above new', () => {
    const [alphaPack, alphaBox] = magicSealedProducts(set('core', '1993-08-05', { booster: [] }));
    const [newPack, newBox] = magicSealedProducts(set('expansion', '2017-01-20', { booster: [] }));
    expect(alphaBox!.valueTier).toBe(14);
    expect(alphaPack!.valueTier).toBeGreaterThan(newBox!.valueTier);
    expect(newBox!.valueTier).toBeGreaterThan(newPack!.valueTier);
  });
});

describe('gradingsFor', () => {
  it('gives every valuable card the core grades and more to the most valuable', () => {
    const cheap = gradingsFor({ key: 'k1', valueTier: 3, vintage: false }).map(canonicalGrade);
    expect(cheap).toEqual(expect.arrayContaining(['PSA 10', 'PSA 9', 'BGS 9.5', 'CGC 9.5']));
    expect(cheap.some((g) => g.startsWith('BVG') || g.startsWith('BCCG'))).toBe(false);
    const trophy = gradingsFor({ key: 'k1', valueTier: 12, vintage: true }).map(canonicalGrade);
    expect(trophy).toEqual(
      expect.arrayContaining([
        'BGS 10 Black Label',
        'BGS 10 Pristine',
        'CGC 10 Pristine',
        'SGC 10',
        'SGC 9.5',
        'PSA Authentic',
        'BVG 8',
        'BCCG 9',
      ]),
    );
    expect(new Set(trophy).size).toBe(trophy.length);
  });

  it('adds the rare off-centre qualifier to about one card in eight', () => {
    const keys = Array.from({ length: 4000 }, (_, i) => `card-${i}`);
    const oc = keys.filter((key) =>
      gradingsFor({ key, valueTier: 4, vintage: false }).some((g) => g.qualifier === 'OC'),
    ).length;
    expect(oc / keys.length).toBeGreaterThan(0.09);
    expect(oc / keys.length).toBeLessThan(0.16);
  });
});

describe('printing rank', () => {
  it.each([
    [['Normal', 'Foil'], 'Foil'],
    [
      [
        'Unlimited Edition Normal',
        'Unlimited Edition Rainbow Foil',
        '1st Edition Normal',
        '1st Edition Rainbow Foil',
      ],
      '1st Edition Rainbow Foil',
    ],
    [['Normal', 'Rainbow Foil', 'Cold Foil'], 'Cold Foil'],
    [['Cold Foil', 'Gold Foil'], 'Gold Foil'],
    [['Normal'], 'Normal'],
  ])('%j → %s', (printings, best) => {
    expect(mostValuablePrinting(printings)).toBe(best);
    expect(printingRank(best)).toBeGreaterThanOrEqual(Math.max(...printings.map(printingRank)));
  });
});

import { cards } from '@flesh-and-blood/cards';
import type { Printing } from '@flesh-and-blood/types';
import { fabDraftSets, fabPrintingName } from './fab-drafts';

describe('fabPrintingName', () => {
  it('reads the marketplace printing from the product URL', () => {
    const p = {
      tcgplayer: { url: 'https://www.tcgplayer.com/product/551703?Language=English&Printing=Rainbow+Foil' },
    } as Printing;
    expect(fabPrintingName(p)).toBe('Rainbow Foil');
  });

  it('derives the same names from edition and foiling when the URL has none', () => {
    // Checked over the whole package: wherever a URL names the printing, the derivation agrees.
    const mismatches: string[] = [];
    for (const c of cards) {
      for (const p of c.printings) {
        if (!p.tcgplayer?.url || !/Printing=[^&]/.test(p.tcgplayer.url)) continue;
        const derived = fabPrintingName({ ...p, tcgplayer: undefined });
        if (derived !== fabPrintingName(p))
          mismatches.push(`${p.print}: ${derived} vs ${fabPrintingName(p)}`);
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  });
});

describe('fabDraftSets', () => {
  const [wtr, out] = fabDraftSets(['WTR', 'OUT']);

  it('maps set codes to real releases', () => {
    expect(wtr).toMatchObject({ code: 'WTR', name: 'Welcome to Rathe', releaseDate: '2019-10-11' });
    expect(out).toMatchObject({ code: 'OUT', name: 'Outsiders', releaseDate: '2023-03-24' });
    expect(() => fabDraftSets(['NOPE'])).toThrow(/unknown/);
  });

  it('makes one card per marketplace product with distinct print types', () => {
    const products = wtr!.cards.filter((c) => c.vendorId !== null).map((c) => c.vendorId);
    expect(new Set(products).size).toBe(products.length);
    for (const c of wtr!.cards) {
      expect(new Set(c.printings).size).toBe(c.printings.length);
      expect(c.printings.length).toBeGreaterThan(0);
    }
  });

  it('gives booster sets non-English variants only from their release languages', () => {
    const langs = new Set(out!.cards.flatMap((c) => c.languages));
    expect(langs.size).toBeGreaterThan(0);
    expect(langs.size).toBeLessThanOrEqual(3);
    for (const l of langs) expect(['French', 'German', 'Italian', 'Spanish']).toContain(l);
    expect(wtr!.cards.some((c) => c.languages.length > 0)).toBe(false); // Welcome to Rathe: English only
  });

  it('grades only Majestic, Legendary, Fabled and Marvel cards', () => {
    for (const c of [...wtr!.cards, ...out!.cards]) {
      if (c.gradings.length > 0) expect(['Majestic', 'Legendary', 'Fabled', 'Marvel']).toContain(c.rarity);
    }
  });

  it('skips printings of sets without a release and orders sets by date', () => {
    const all = fabDraftSets('all');
    expect(all.some((s) => s.name === 'Promos' || s.name === 'GEM')).toBe(false);
    const dates = all.map((s) => s.releaseDate!);
    expect([...dates].sort()).toEqual(dates);
  });
});

/**
 * What a print-type name says about the physical card. Names follow the marketplace: Magic uses
 * `Normal` / `Foil`; Flesh and Blood uses `Normal`, `Rainbow Foil`, `Cold Foil`, `Gold Foil`,
 * optionally prefixed by `1st Edition` or `Unlimited Edition`.
 */
export type FoilKind = 'none' | 'foil' | 'rainbow' | 'cold' | 'gold';

export interface PrintingTraits {
  readonly foil: FoilKind;
  readonly firstEdition: boolean;
}

export function printingTraits(printing: string): PrintingTraits {
  const p = printing.toLowerCase();
  const foil: FoilKind = p.includes('gold')
    ? 'gold'
    : p.includes('cold')
      ? 'cold'
      : p.includes('rainbow')
        ? 'rainbow'
        : p.includes('foil')
          ? 'foil'
          : 'none';
  return { foil, firstEdition: p.startsWith('1st edition') };
}

const FOIL_RANK: Readonly<Record<FoilKind, number>> = { none: 0, foil: 2, rainbow: 2, cold: 4, gold: 6 };

/** Orders printings by collector value: foil treatment first, then 1st Edition over Unlimited. */
export function printingRank(printing: string): number {
  const t = printingTraits(printing);
  return FOIL_RANK[t.foil] + (t.firstEdition ? 1 : 0);
}

/** The printing a card is most often slabbed in: the highest rank, the first one listed on a tie. */
export function mostValuablePrinting(printings: readonly string[]): string {
  let best = printings[0];
  if (best === undefined) throw new Error('a card without printings');
  for (const p of printings) if (printingRank(p) > printingRank(best)) best = p;
  return best;
}

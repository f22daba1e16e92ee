export type CatalogueSize = 'small' | 'medium' | 'full';

/** Which sets a size holds, by publisher set code (MTGJSON codes for Magic, upper-cased for FaB). */
export interface CatalogueSelection {
  readonly magic: readonly string[] | 'all';
  readonly fleshAndBlood: readonly string[] | 'all';
}

/**
 * - small: for tests, ~16k variants. Magic: Alpha (vintage tiers, the Power Nine), Aether Revolt
 *   (foils, languages, a Bundle) and the all-foil From the Vault: Realms; FaB: Welcome to Rathe
 *   (editions, Alpha prints, a Fabled) and Outsiders (non-English printings).
 * - medium: the demo, ~63k variants (the budget for loading in under a minute): 17 well-known Magic
 *   sets — Alpha, Arabian Nights, Antiquities, Revised, Legends, The Dark, Fallen Empires, Alliances,
 *   Visions, Weatherlight, Exodus, Innistrad, Return to Ravnica, Theros, Khans of Tarkir, Kaladesh,
 *   Aether Revolt — and 8 FaB sets: Welcome to Rathe, Everfest, Outsiders, the Classic Battles box and
 *   four first-wave Blitz decks. The big FaB boosters (Arcane Rising, Monarch, Tales of Aria, …, ~4–6k
 *   variants each) are left to `full` to stay within that budget.
 * - full: every paper set of both sources.
 */
export const CATALOGUE_SIZES: Readonly<Record<CatalogueSize, CatalogueSelection>> = {
  small: { magic: ['LEA', 'AER', 'V12'], fleshAndBlood: ['WTR', 'OUT'] },
  medium: {
    magic: [
      'LEA',
      'ARN',
      'ATQ',
      '3ED',
      'LEG',
      'DRK',
      'FEM',
      'ALL',
      'VIS',
      'WTH',
      'EXO',
      'ISD',
      'RTR',
      'THS',
      'KTK',
      'KLD',
      'AER',
    ],
    fleshAndBlood: ['WTR', 'EVR', 'OUT', 'DVR', 'BOL', 'LEV', 'BRI', 'OLD'],
  },
  full: { magic: 'all', fleshAndBlood: 'all' },
};

export function isCatalogueSize(value: string): value is CatalogueSize {
  return Object.prototype.hasOwnProperty.call(CATALOGUE_SIZES, value);
}

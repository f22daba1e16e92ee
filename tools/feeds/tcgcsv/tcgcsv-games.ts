import { readFileSync } from 'node:fs';
import { slugify } from '@tcg/domain';
import type { TcgcsvCategory } from './tcgcsv-documents';

/**
 * A game the TCGCSV sync brings in: a TCGplayer category, by id or by name (its `name` or
 * `displayName`, compared without case or punctuation), and the game it becomes. `game` is the
 * game's slug, required (an id never follows a name the feed may change): an existing game's
 * (Flesh and Blood's cards are matched by their product ids) or a new one's.
 */
export interface TcgcsvGameConfig {
  readonly category: number | string;
  readonly game: string;
  readonly name?: string;
}

/**
 * The games whose slug and name were chosen before every category was synced (issue 25), by the
 * category's name as TCGCSV's `/tcgplayer/categories` lists it: when every category is synced,
 * these keep their slug and name; the others take theirs from the category (`derivedGame`).
 */
export const KNOWN_TCGCSV_GAMES: readonly TcgcsvGameConfig[] = [
  { category: 'Flesh & Blood TCG', game: 'flesh-and-blood', name: 'Flesh and Blood' },
  { category: 'Pokemon', game: 'pokemon', name: 'Pokémon' },
  { category: 'YuGiOh', game: 'yu-gi-oh', name: 'Yu-Gi-Oh!' },
  { category: 'Lorcana TCG', game: 'lorcana', name: 'Disney Lorcana' },
  { category: 'One Piece Card Game', game: 'one-piece', name: 'One Piece Card Game' },
  { category: 'Digimon Card Game', game: 'digimon', name: 'Digimon Card Game' },
];

/**
 * The default (`TCGCSV_GAMES` unset): every category TCGCSV lists (85 on 2025-10-20), less
 * `EXCLUDED_TCGCSV_CATEGORIES`.
 */
export const EVERY_TCGCSV_GAME = 'every';
/** What the TCGCSV sync brings in: the configured games, or every listed category. */
export type TcgcsvGames = readonly TcgcsvGameConfig[] | typeof EVERY_TCGCSV_GAME;

/**
 * The listed categories the default leaves out, each with why (docs/more-games.md). Matched by
 * name (compared without case or punctuation), as the listing names them.
 */
export const EXCLUDED_TCGCSV_CATEGORIES: readonly { readonly name: RegExp; readonly why: string }[] = [
  {
    name: /^magic(thegathering)?$/,
    why: "Magic's catalogue, identifiers and prices come from MTGJSON (docs/real-data.md): its TCGplayer products would be cards a second time",
  },
  {
    name: /comics?$/,
    why: 'comic books, not cards: no card, set or printing to price (Marvel and DC alone are about 20,000 groups)',
  },
  { name: /supplies$/, why: 'sleeves, binders and deck boxes: accessories, not cards' },
];

/** Why the default leaves a listed category out, or undefined when it syncs it. */
export function excludedWhy(category: TcgcsvCategory): string | undefined {
  const names = [comparable(category.name), comparable(category.displayName)];
  return EXCLUDED_TCGCSV_CATEGORIES.find((e) => names.some((n) => e.name.test(n)))?.why;
}

/**
 * A category of the default list with no known game: its slug and name follow the category's
 * display name the first time it is synced. The slug is kept afterwards: a later sync finds the
 * game by the product ids its cards carry, whatever the category is called by then.
 */
export function derivedGame(category: TcgcsvCategory): { id: string; name: string } {
  const name = category.displayName || category.name;
  return { id: slugify(name).slice(0, 60).replace(/-+$/, '') || `tcgplayer-${category.categoryId}`, name };
}

/** The known game a listed category is, by its name. */
export function knownGame(category: TcgcsvCategory): TcgcsvGameConfig | undefined {
  return KNOWN_TCGCSV_GAMES.find((g) => findCategory(g, [category]) !== undefined);
}

const MAX_GAMES = 200;

/** Reads and checks a configuration file: a JSON array of `TcgcsvGameConfig`. */
export function readTcgcsvGames(path: string): TcgcsvGameConfig[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`TCGCSV_GAMES ${path}: not a JSON file (${(error as Error).message})`);
  }
  return checkTcgcsvGames(parsed, path);
}

export function checkTcgcsvGames(parsed: unknown, where: string): TcgcsvGameConfig[] {
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_GAMES)
    throw new Error(`${where}: expected an array of 1 to ${MAX_GAMES} games`);
  const seen = new Set<string>();
  return parsed.map((entry, i) => {
    const at = `${where}[${i}]`;
    if (typeof entry !== 'object' || entry === null) throw new Error(`${at}: not an object`);
    const { category, game, name } = entry as Record<string, unknown>;
    const byId = typeof category === 'number' && Number.isSafeInteger(category) && category > 0;
    const byName = typeof category === 'string' && category.trim() !== '' && category.length <= 100;
    if (!byId && !byName) throw new Error(`${at}: category must be a TCGplayer category id or name`);
    // Required: a game's id must not follow a name the feed may change.
    if (typeof game !== 'string' || slugify(game) !== game || game.length > 60)
      throw new Error(`${at}: game must be the game's slug (lower-case letters, digits and dashes)`);
    if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 100))
      throw new Error(`${at}: name must be a non-empty string of at most 100 characters`);
    const key = String(category).toLowerCase();
    if (seen.has(key)) throw new Error(`${at}: category ${String(category)} is configured twice`);
    seen.add(key);
    return {
      category: category as number | string,
      game,
      name: name as string | undefined,
    };
  });
}

/** The listed category a configuration names, if it is listed. */
export function findCategory(
  config: TcgcsvGameConfig,
  categories: readonly TcgcsvCategory[],
): TcgcsvCategory | undefined {
  if (typeof config.category === 'number') return categories.find((c) => c.categoryId === config.category);
  const wanted = comparable(config.category);
  return categories.find((c) => comparable(c.name) === wanted || comparable(c.displayName) === wanted);
}

/** The game a configured category becomes. */
export function gameOf(config: TcgcsvGameConfig, category: TcgcsvCategory): { id: string; name: string } {
  const name = config.name ?? category.displayName;
  return { id: config.game, name };
}

function comparable(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

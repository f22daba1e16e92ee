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
 * The games synced when no configuration file is given (`TCGCSV_GAMES`): the category names as
 * TCGCSV's `/tcgplayer/categories` lists them. Magic is not among them: its prices come from
 * MTGJSON (docs/real-data.md).
 */
export const DEFAULT_TCGCSV_GAMES: readonly TcgcsvGameConfig[] = [
  { category: 'Flesh & Blood TCG', game: 'flesh-and-blood', name: 'Flesh and Blood' },
  { category: 'Pokemon', game: 'pokemon', name: 'Pokémon' },
  { category: 'YuGiOh', game: 'yu-gi-oh', name: 'Yu-Gi-Oh!' },
  { category: 'Lorcana TCG', game: 'lorcana', name: 'Disney Lorcana' },
  { category: 'One Piece Card Game', game: 'one-piece', name: 'One Piece Card Game' },
  { category: 'Digimon Card Game', game: 'digimon', name: 'Digimon Card Game' },
];

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

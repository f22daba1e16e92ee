import {
  invalidParameter,
  type Game,
  type GameSummary,
  type NameSuggestion,
  type SetSummary,
} from '@tcg/domain';

/**
 * Read side of the catalogue: the port the games, sets and name routes use, beside its one
 * implementation (`TypeOrmCatalogueRepository`). Inject it with `@Inject(CATALOGUE)`.
 */
export interface CatalogueRepository {
  listGames(): Promise<Game[]>;
  findGame(idOrName: string): Promise<Game | null>;
  /** Every game with its precomputed summary, by name. */
  listGameSummaries(): Promise<GameSummary[]>;
  /** The sets of one game with their precomputed summaries, optionally filtered by name. */
  listSetSummaries(gameId: string, query: SetQuery): Promise<SetSummary[]>;
  /** Card names for a name being typed: those with a word starting with the text, then close ones. */
  suggestCardNames(query: NameSuggestionQuery): Promise<NameSuggestion[]>;
}

export interface NameSuggestionQuery {
  /** What was typed, trimmed; matched case-insensitively. */
  readonly text: string;
  /** One game's names only; every game's otherwise. */
  readonly gameId?: string;
  readonly limit: number;
}

export interface SetQuery {
  /** Case-insensitive substring of the set name. */
  readonly q?: string;
  readonly orderBy: 'name' | 'release_date';
  readonly order: 'asc' | 'desc';
}

/**
 * The game a `game` parameter names (its id or its name), else the 400 both versions answer:
 * naming the parameter and listing every game's id and name as what is accepted.
 */
export async function requireGame(catalogue: CatalogueRepository, idOrName: string): Promise<Game> {
  const game = await catalogue.findGame(idOrName);
  if (game) return game;
  const games = await catalogue.listGames();
  throw invalidParameter(
    'game',
    idOrName,
    games.flatMap((g) => [g.id, g.name]),
  );
}

/** The `CatalogueRepository` bound to PostgreSQL (its reads on the replicas when configured). */
export const CATALOGUE = Symbol('CatalogueRepository');

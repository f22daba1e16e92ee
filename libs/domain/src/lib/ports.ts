import { CardSet, Game } from './catalogue';
import { invalidParameter } from './errors';
import type { PriceSource } from './observations';
import { PlanName } from './plans';

/** Read side of the catalogue. Implemented in libs/persistence; apps depend on this port. */
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

/** A card name, distinct within its game, with how many cards carry it. */
export interface NameSuggestion {
  readonly name: string;
  readonly gameId: string;
  readonly cardsCount: number;
  /** `prefix`: a word of the name starts with the text; `similar`: the name is close to it (a typo). */
  readonly match: 'prefix' | 'similar';
}

/** A game and its precomputed counts and market index (NA, raw variants). */
export interface GameSummary {
  readonly game: Game;
  readonly cardsCount: number;
  readonly variantsCount: number;
  readonly sealedCount: number;
  readonly setsCount: number;
  /** Latest observation time (Unix seconds) among the game's prices, or null with none. */
  readonly lastUpdated: number | null;
  /** Sum over cards of their highest-priced raw variant, in cents. */
  readonly valueIndexCents: number;
  /**
   * The same sum 7 days earlier: each of those variants' price the 7-day change is measured from
   * (its current price when it has only one observation), in cents; null with no prices.
   */
  readonly valueIndex7dAgoCents: number | null;
  /** The sources of the game's priced series, sorted; `simulated` among them marks generated prices. */
  readonly priceSources: readonly PriceSource[];
}

export interface SetQuery {
  /** Case-insensitive substring of the set name. */
  readonly q?: string;
  readonly orderBy: 'name' | 'release_date';
  readonly order: 'asc' | 'desc';
}

export interface SetSummary {
  readonly set: CardSet;
  readonly gameName: string;
  readonly cardsCount: number;
  /** Sum over cards of their highest-priced raw variant, in cents. */
  readonly valueCents: number;
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

export interface ApiKeyRecord {
  readonly id: string;
  readonly prefix: string;
  readonly plan: PlanName;
  readonly label: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

/** API keys are stored hashed; the clear key exists only in the value `create` returns. */
export interface ApiKeyRepository {
  create(plan: PlanName, label: string, clearKey?: string): Promise<{ key: string; record: ApiKeyRecord }>;
  /** The key whose digest (`hashApiKey`) this is, unless revoked: the gateway's cache is keyed by the digest. */
  findActiveByHash(keyHash: Buffer): Promise<ApiKeyRecord | null>;
  /** Creates the key with this clear value unless it exists; sets its plan either way (a revoked key stays revoked). */
  ensure(clearKey: string, plan: PlanName, label: string): Promise<ApiKeyRecord>;
  /**
   * The digests of the keys still active that were issued without a check (`legacy` shape): the
   * gateway holds them in memory, so an unknown key of that shape is refused without a lookup.
   */
  activeLegacyKeyHashes(): Promise<Buffer[]>;
  list(): Promise<ApiKeyRecord[]>;
  revoke(idOrPrefix: string): Promise<boolean>;
  changePlan(idOrPrefix: string, plan: PlanName): Promise<boolean>;
}

/**
 * The catalogue's data version: a number that grows with every committed write a read answer could
 * see, in commit order. Between two versions every read answer is a pure function of its request,
 * so answers may be cached under the version they were computed at.
 */
export interface DataVersionSource {
  /** The latest committed version this process knows of; null while it cannot know it. */
  current(): number | null;
  /** Called whenever `current()` changes (to a new version or to null); returns an unsubscribe. */
  onChange(listener: (version: number | null) => void): () => void;
}

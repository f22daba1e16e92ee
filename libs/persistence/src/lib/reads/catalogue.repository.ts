import { Game, GameSummary, NameSuggestion, PRICE_SOURCES, PriceSource, SetSummary } from '@tcg/domain';
import { CatalogueRepository, NameSuggestionQuery, SetQuery } from './catalogue.repository.port';
import type { ReadSource } from './read-replicas';
import { readNameSuggestions } from './card-name-suggestions.read';
import { readGameSummaries } from './game-summaries.read';
import { readGame, readGames } from './games.read';
import { readSetSummaries } from './set-summaries.read';

export class TypeOrmCatalogueRepository implements CatalogueRepository {
  /** `reads`: a data source, or `ReadReplicas` (replicas up to date, else the primary). */
  constructor(private readonly reads: ReadSource) {}

  listGames(): Promise<Game[]> {
    return readGames(this.reads);
  }

  findGame(idOrName: string): Promise<Game | null> {
    return readGame(this.reads, idOrName);
  }

  async listGameSummaries(): Promise<GameSummary[]> {
    const rows = await readGameSummaries(this.reads);
    return rows.map((r) => ({
      game: { id: r.id, name: r.name },
      cardsCount: r.cards_count,
      variantsCount: r.variants_count,
      sealedCount: r.sealed_count,
      setsCount: r.sets_count,
      lastUpdated: r.last_updated === null ? null : Number(r.last_updated),
      valueIndexCents: Number(r.value_cents),
      valueIndex7dAgoCents: r.value_7d_ago_cents === null ? null : Number(r.value_7d_ago_cents),
      // The column's CHECK holds it to PRICE_SOURCES: the filter drops nothing, it types.
      priceSources: (r.sources ?? []).filter(isPriceSource),
    }));
  }

  async listSetSummaries(gameId: string, query: SetQuery): Promise<SetSummary[]> {
    const rows = await readSetSummaries(this.reads, gameId, query);
    return rows.map((r) => ({
      set: {
        uuid: r.uuid,
        id: r.id,
        gameId: r.game_id,
        name: r.name,
        code: r.code,
        releaseDate: r.release_date,
      },
      gameName: r.game_name,
      cardsCount: r.cards_count,
      valueCents: Number(r.value_cents),
    }));
  }

  async suggestCardNames(query: NameSuggestionQuery): Promise<NameSuggestion[]> {
    const { prefix, similar } = await readNameSuggestions(this.reads, query);
    const suggestion = (match: NameSuggestion['match']) => (r: (typeof prefix)[number]) => ({
      name: r.name,
      gameId: r.game_id,
      cardsCount: r.cards,
      match,
    });
    return [...prefix.map(suggestion('prefix')), ...similar.map(suggestion('similar'))];
  }
}

function isPriceSource(s: string): s is PriceSource {
  return (PRICE_SOURCES as readonly string[]).includes(s);
}

import { Card, Game, Variant } from './catalogue';
import { PlanName } from './plans';

/** Read side of the catalogue. Implemented in libs/persistence; apps depend on this port. */
export interface CatalogueRepository {
  listGames(): Promise<Game[]>;
  findGame(idOrName: string): Promise<Game | null>;
  findCardByUuidOrSlug(idOrSlug: string): Promise<Card | null>;
  variantsOfCards(cardUuids: readonly string[]): Promise<Map<string, Variant[]>>;
  counts(): Promise<CatalogueCounts>;
}

export interface CatalogueCounts {
  readonly games: number;
  readonly sets: number;
  readonly cards: number;
  readonly sealed: number;
  readonly rawVariants: number;
  readonly gradedVariants: number;
  readonly pricedSeries: number;
  readonly observations: number;
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
  findActiveByKey(clearKey: string): Promise<ApiKeyRecord | null>;
  list(): Promise<ApiKeyRecord[]>;
  revoke(idOrPrefix: string): Promise<boolean>;
  changePlan(idOrPrefix: string, plan: PlanName): Promise<boolean>;
}

import { DataSource } from 'typeorm';
import { ENTITIES } from './entities';
import { QueryLogger } from './query-logger';
import { InitialSchema1763800000000 } from './migrations/1763800000000-initial-schema';
import { SeriesIntegrityByTrigger1763900000000 } from './migrations/1763900000000-series-integrity-by-trigger';
import { CatalogueSummaries1764000000000 } from './migrations/1764000000000-catalogue-summaries';
import { CardSortKey1764100000000 } from './migrations/1764100000000-card-sort-key';
import { TrigramCosts1764200000000 } from './migrations/1764200000000-trigram-costs';
import { GinWithoutPendingList1764300000000 } from './migrations/1764300000000-gin-without-pending-list';
import { CardTopPrices1764400000000 } from './migrations/1764400000000-card-top-prices';
import { OneCardSummary1764500000000 } from './migrations/1764500000000-one-card-summary';
import { QuotaCounters1764650000000 } from './migrations/1764650000000-quota-counters';
import { DurableDataMarks1764660000000 } from './migrations/1764660000000-durable-data-marks';

export const MIGRATIONS = [
  InitialSchema1763800000000,
  SeriesIntegrityByTrigger1763900000000,
  CatalogueSummaries1764000000000,
  CardSortKey1764100000000,
  TrigramCosts1764200000000,
  GinWithoutPendingList1764300000000,
  CardTopPrices1764400000000,
  OneCardSummary1764500000000,
  QuotaCounters1764650000000,
  DurableDataMarks1764660000000,
];

export interface DataSourceConfig {
  readonly url: string;
  /** Connections in this process's pool. */
  readonly poolSize?: number;
  readonly applicationName?: string;
}

/** A TypeORM data source over PostgreSQL. The schema comes from migrations only. */
export function createDataSource(config: DataSourceConfig): DataSource {
  return new DataSource({
    type: 'postgres',
    url: config.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    migrationsRun: false,
    logger: new QueryLogger(config.applicationName ?? 'tcg-pricing'),
    applicationName: config.applicationName ?? 'tcg-pricing',
    extra: { max: config.poolSize ?? 10 },
  });
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(ds: DataSource): Promise<string[]> {
  const applied = await ds.runMigrations({ transaction: 'each' });
  return applied.map((m) => m.name);
}

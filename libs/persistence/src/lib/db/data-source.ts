import { Client, ClientConfig, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities';
import { QueryLogger } from './query-logger';
import { InitialSchema1763800000000 } from '../migrations/1763800000000-initial-schema';
import { SeriesIntegrityByTrigger1763900000000 } from '../migrations/1763900000000-series-integrity-by-trigger';
import { CatalogueSummaries1764000000000 } from '../migrations/1764000000000-catalogue-summaries';
import { CardSortKey1764100000000 } from '../migrations/1764100000000-card-sort-key';
import { TrigramCosts1764200000000 } from '../migrations/1764200000000-trigram-costs';
import { GinWithoutPendingList1764300000000 } from '../migrations/1764300000000-gin-without-pending-list';
import { CardTopPrices1764400000000 } from '../migrations/1764400000000-card-top-prices';
import { OneCardSummary1764500000000 } from '../migrations/1764500000000-one-card-summary';
import { QuotaCounters1764650000000 } from '../migrations/1764650000000-quota-counters';
import { DurableDataMarks1764660000000 } from '../migrations/1764660000000-durable-data-marks';
import { DataVersion1764670000000 } from '../migrations/1764670000000-data-version';
import { CardSetSortIndex1764680000000 } from '../migrations/1764680000000-card-set-sort-index';
import { RenderedSeries1764690000000 } from '../migrations/1764690000000-rendered-series';
import { RenderedVariantHeads1764700000000 } from '../migrations/1764700000000-rendered-variant-heads';
import { CardDocuments1764710000000 } from '../migrations/1764710000000-card-documents';
import { CardBareDocuments1764720000000 } from '../migrations/1764720000000-card-bare-documents';
import { CardBareDocumentsBackfill1764720000001 } from '../migrations/1764720000001-card-bare-documents-backfill';
import { BulkSnapshots1764730000000 } from '../migrations/1764730000000-bulk-snapshots';
import { DatabaseRoles1764760000000 } from '../migrations/1764760000000-database-roles';
import { CardFacets1764800000000 } from '../migrations/1764800000000-card-facets';
import { PriceSources1764900000000 } from '../migrations/1764900000000-price-sources';
import { MarketplaceProducts1765000000000 } from '../migrations/1765000000000-marketplace-products';
import { Price7dReference1765100000000 } from '../migrations/1765100000000-price-7d-reference';
import { RenderedLz4Compression1765200000000 } from '../migrations/1765200000000-rendered-lz4';
import { CardNameSuggestions1765300000000 } from '../migrations/1765300000000-card-name-suggestions';
import { PriceAlerts1765400000000 } from '../migrations/1765400000000-price-alerts';
import { BulkArchives1765500000000 } from '../migrations/1765500000000-bulk-archives';
import { CardNamePrefixes1765600000000 } from '../migrations/1765600000000-card-name-prefixes';
import { FeedRunSamples1765700000000 } from '../migrations/1765700000000-feed-run-samples';
import { AlertDestinations1765710000000 } from '../migrations/1765710000000-alert-destinations';
import { AlertsRole1765710000001 } from '../migrations/1765710000001-alerts-role';
import { LegacyApiKeys1765720000000 } from '../migrations/1765720000000-legacy-api-keys';
import { RealPricesInAggregates1765760000000 } from '../migrations/1765760000000-real-prices-in-aggregates';
import { SummariesInOnePass1765770000000 } from '../migrations/1765770000000-summaries-in-one-pass';
import { TcgcsvGroupDigests1765780000000 } from '../migrations/1765780000000-tcgcsv-group-digests';
import { ActiveLegacyKeysIndex1765790000000 } from '../migrations/1765790000000-active-legacy-keys-index';
import { SummaryMarkKinds1765800000000 } from '../migrations/1765800000000-summary-mark-kinds';
import { SummaryMarksByTrigger1765810000000 } from '../migrations/1765810000000-summary-marks-by-trigger';
import { AlertClaimIndexes1765820000000 } from '../migrations/1765820000000-alert-claim-indexes';
import { AnalyzeCatalogue1765830000000 } from '../migrations/1765830000000-analyze-catalogue';
import { AlertDestinationOneName1765840000000 } from '../migrations/1765840000000-alert-destination-one-name';
import { SummariesRebuiltBeside1765850000000 } from '../migrations/1765850000000-summaries-rebuilt-beside';
import { FacetCountsBySet1765860000000 } from '../migrations/1765860000000-facet-counts-by-set';
import { CardNamesGinInPlace1765870000000 } from '../migrations/1765870000000-card-names-gin-in-place';
import { NameRankedSearch1765880000000 } from '../migrations/1765880000000-name-ranked-search';
import { CardNamePrefixesToFive1765890000000 } from '../migrations/1765890000000-card-name-prefixes-to-five';
import { BulkSnapshotsWrittenInSteps1765900000000 } from '../migrations/1765900000000-bulk-snapshots-written-in-steps';
import { PriceSeriesChanges1765910000000 } from '../migrations/1765910000000-price-series-changes';
import { ExchangeRates1765920000000 } from '../migrations/1765920000000-exchange-rates';
import { IdCrosswalk1765930000000 } from '../migrations/1765930000000-id-crosswalk';
import { CardChanges1765940000000 } from '../migrations/1765940000000-card-changes';

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
  DataVersion1764670000000,
  CardSetSortIndex1764680000000,
  RenderedSeries1764690000000,
  RenderedVariantHeads1764700000000,
  CardDocuments1764710000000,
  CardBareDocuments1764720000000,
  CardBareDocumentsBackfill1764720000001,
  BulkSnapshots1764730000000,
  DatabaseRoles1764760000000,
  CardFacets1764800000000,
  PriceSources1764900000000,
  MarketplaceProducts1765000000000,
  Price7dReference1765100000000,
  RenderedLz4Compression1765200000000,
  CardNameSuggestions1765300000000,
  PriceAlerts1765400000000,
  BulkArchives1765500000000,
  CardNamePrefixes1765600000000,
  FeedRunSamples1765700000000,
  AlertDestinations1765710000000,
  AlertsRole1765710000001,
  LegacyApiKeys1765720000000,
  RealPricesInAggregates1765760000000,
  SummariesInOnePass1765770000000,
  TcgcsvGroupDigests1765780000000,
  ActiveLegacyKeysIndex1765790000000,
  SummaryMarkKinds1765800000000,
  SummaryMarksByTrigger1765810000000,
  AlertClaimIndexes1765820000000,
  AnalyzeCatalogue1765830000000,
  AlertDestinationOneName1765840000000,
  SummariesRebuiltBeside1765850000000,
  FacetCountsBySet1765860000000,
  CardNamesGinInPlace1765870000000,
  NameRankedSearch1765880000000,
  CardNamePrefixesToFive1765890000000,
  BulkSnapshotsWrittenInSteps1765900000000,
  PriceSeriesChanges1765910000000,
  ExchangeRates1765920000000,
  IdCrosswalk1765930000000,
  CardChanges1765940000000,
];

export interface DataSourceConfig {
  readonly url: string;
  /** Connections in this process's pool. */
  readonly poolSize?: number;
  readonly applicationName?: string;
  /**
   * Bounds on every wait, for a service answering clients. Left out by the tools: a load or an
   * import runs statements for minutes and must not be cancelled by a request-sized deadline.
   */
  readonly deadlines?: DatabaseDeadlines;
}

export interface DatabaseDeadlines {
  /** Opening a connection, and waiting for a pooled one when all are busy. */
  readonly connectMs: number;
  /** Server-side `statement_timeout`; the client gives up `QUERY_TIMEOUT_GRACE_MS` after it. */
  readonly statementMs: number;
  /** Server-side `idle_in_transaction_session_timeout`: a stalled transaction's locks are freed. */
  readonly idleInTransactionMs: number;
}

/**
 * The client-side query deadline runs this long past the server-side one, so a live server's
 * cancellation (a clean 57014 on a reusable connection) normally comes first; the client's own
 * timeout is for a server that no longer answers at all (stopped, partitioned).
 */
const QUERY_TIMEOUT_GRACE_MS = 1000;

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
    extra: {
      max: config.poolSize ?? 10,
      // Tools' statements (a feed's group, a loader's batch) are short too, and a per-key probe
      // over an unnest the planner cannot size was estimated high enough to compile: 165 ms of
      // JIT for a 20 ms lookup, once per group of a sync (EXPLAIN ANALYZE at 5% of the
      // marketplace's size). The summary refresh turns it off on its own (SummariesInOnePass).
      options: '-c jit=off',
      ...(config.deadlines ? poolDeadlines(config.deadlines) : {}),
    },
  });
}

/** What a data source's connection pool holds and who waits for it, at this instant. */
export interface PoolUsage {
  /** Connections checked out by a query or transaction. */
  readonly inUse: number;
  readonly idle: number;
  /** Callers waiting for a connection because all `max` are in use. */
  readonly waiting: number;
  readonly max: number;
}

/**
 * The pool's counters, read from node-postgres's pool under TypeORM (its `master`); undefined
 * before the data source is initialised. Reading them costs nothing, so metrics read them when
 * scraped rather than on a timer.
 */
export function poolUsage(ds: DataSource): PoolUsage | undefined {
  if (!ds.isInitialized) return undefined;
  const pool = poolOf(ds);
  return {
    inUse: pool.totalCount - pool.idleCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max ?? 0,
  };
}

/** node-postgres pool and client options (pg-pool applies `connectionTimeoutMillis` to both waits). */
function poolDeadlines(d: DatabaseDeadlines): Record<string, unknown> {
  return {
    connectionTimeoutMillis: d.connectMs,
    statement_timeout: d.statementMs,
    query_timeout: d.statementMs + QUERY_TIMEOUT_GRACE_MS,
    idle_in_transaction_session_timeout: d.idleInTransactionMs,
    // A peer that vanished without closing the socket is noticed, and its connection dropped.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // A service's statements read a page of rows: planned for its actual parameters (the first five
    // runs of a prepared statement are), a large history read was given parallel workers and JIT
    // compilation, which cost far more than the read itself. Neither pays for queries this short.
    options: '-c jit=off -c max_parallel_workers_per_gather=0',
    Client: DeadlineClient,
  };
}

/** node-postgres's error for a query past `query_timeout`. */
const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * A connection that closes itself when one of its queries outlives the client-side deadline.
 * node-postgres leaves such a connection open with the query still pending, and the pool would
 * hand it to the next request, which would wait behind a server that is not answering; TypeORM
 * returns its connections to the pool without the error that would make the pool drop them.
 * Ended, the pool discards it on release and opens a fresh one when the server is back.
 */
class DeadlineClient extends Client {
  constructor(config?: ClientConfig) {
    super(config);
    const query = super.query.bind(this) as (...args: unknown[]) => unknown;
    const onError = (error: unknown) => {
      if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) this.end().catch(() => undefined);
    };
    this.query = ((...args: unknown[]) => {
      const callback = args[args.length - 1];
      if (typeof callback === 'function') {
        args[args.length - 1] = (error: unknown, result: unknown) => {
          if (error) onError(error);
          (callback as (e: unknown, r: unknown) => void)(error, result);
        };
        return query(...args);
      }
      const result = query(...args);
      // A branch of its own: the caller still receives the rejection.
      if (result instanceof Promise) result.catch(onError);
      return result;
    }) as Client['query'];
  }
}

/** Seconds a client is asked to wait after a 503 for a database outage. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * SQLSTATE classes and codes that say the database cannot serve now but may soon: connection
 * exceptions (08), insufficient resources such as too many connections (53), operator
 * intervention such as a cancelled statement or a shutdown (57), and transient conflicts.
 */
const UNAVAILABLE_CLASSES = ['08', '53', '57'];
const UNAVAILABLE_CODES = new Set(['25P03', '40001', '40P01', '55P03']);
/** Socket errors on the way to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * node-postgres and pg-pool raise their own timeouts and lost connections as plain errors with
 * these messages and no code; matching the text is the only way to tell them from a bug.
 */
const DRIVER_MESSAGES = [
  'timeout exceeded when trying to connect',
  'Connection terminated',
  QUERY_READ_TIMEOUT,
  'is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/**
 * Whether an error (a driver error, or TypeORM's wrapper of one) means the database is
 * unreachable, overloaded or past a deadline: a 503 the client may retry, not a bug.
 */
export function databaseUnavailable(error: unknown): boolean {
  let e: unknown = error;
  for (let depth = 0; depth < 5 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') {
      // Before the SQLSTATE test: EPIPE has a SQLSTATE's shape.
      if (NETWORK_CODES.has(code)) return true;
      if (/^[0-9A-Z]{5}$/.test(code))
        return UNAVAILABLE_CLASSES.includes(code.slice(0, 2)) || UNAVAILABLE_CODES.has(code);
    }
    if (e instanceof AggregateError && e.errors.some(databaseUnavailable)) return true;
    if (DRIVER_MESSAGES.some((m) => (e as Error).message.includes(m))) return true;
    e = (e as { driverError?: unknown }).driverError ?? e.cause;
  }
  return false;
}

/** Applies pending migrations; returns the names applied. */
export async function migrate(ds: DataSource): Promise<string[]> {
  const applied = await ds.runMigrations({ transaction: 'each' });
  return applied.map((m) => m.name);
}

/**
 * The node-postgres pool under an initialized data source. Reads on the hot paths go to it
 * directly (see the README: named prepared statements, which TypeORM cannot name), and so do the
 * pool's gauges and the drain at shutdown; this is the one place that knows where TypeORM keeps it.
 */
export function poolOf(ds: DataSource): Pool {
  const pool = (ds.driver as unknown as { master?: Pool }).master;
  if (!pool) throw new Error('the data source is not initialized: it has no connection pool yet');
  return pool;
}

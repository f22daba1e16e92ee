// The tables and materialized views the reads use, as the migrations define them, for Kysely's
// query builder: column names and the types node-postgres returns for them (bigint and numeric
// as text). A column a write may leave to its default is `Generated` (`GeneratedAlways`: one the
// server alone writes); the read side's tables only read, so none of theirs is marked.

import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

export interface Database {
  games: { id: string; name: string };
  sets: {
    uuid: string;
    id: string;
    game_id: string;
    name: string;
    code: string;
    release_date: Date | null;
  };
  cards: {
    uuid: string;
    id: string;
    game_id: string;
    set_uuid: string;
    name: string;
    number: string | null;
    rarity: string | null;
    details: string | null;
    vendor_id: string | null;
    openset_id: string | null;
    imagedb_id: string | null;
    sealed: boolean;
    sort_key: string;
  };
  variants: {
    uuid: string;
    id: string;
    card_uuid: string;
    type: 'raw' | 'graded';
    condition: string | null;
    printing: string;
    language: string;
    vendor_sku_id: string | null;
    grading_company: string | null;
    grade: string | null;
    grade_label: string | null;
    grading_qualifier: string | null;
    v1_head: string;
    v2_head: string;
  };
  /** Each variant's series in a region: its latest figures and its JSON parts rendered at write time. */
  variant_prices: {
    variant_uuid: string;
    region: string;
    currency: string;
    price: string;
    updated_at: string;
    change_24h: number | null;
    change_7d: number | null;
    change_30d: number | null;
    change_90d: number | null;
    /** The price the 7-day change is measured from (the engine's `7d.reference`); null for one point. */
    price_7d_ref: string | null;
    stats: unknown;
    v1_stats: string | null;
    v1_history: string | null;
    v2_price: string;
    v2_periods: string;
    v2_history: string;
    source: string;
  };
  /** A variant's observations in one month of a region: offsets from the month's start, prices. */
  price_series: {
    variant_uuid: string;
    region: string;
    month: Date;
    offsets: number[];
    prices: number[];
  };
  /**
   * What each data version wrote to price_series (by triggers): per series the first month
   * written, or no month for a deletion; no series for a TRUNCATE.
   */
  price_series_changes: {
    variant_uuid: string | null;
    region: string | null;
    version: string;
    from_month: Date | null;
  };
  /** Which cards each data version wrote (by triggers); no card: any card's answer may have changed. */
  card_changes: { version: string; card_uuid: string | null };
  /** The distinct kinds of variant (type, condition, printing, grading) that card_facets refers to. */
  variant_kinds: {
    id: number;
    kind: string;
    type: 'raw' | 'graded';
    condition: string | null;
    printing: string;
    grading_company: string | null;
    grade: string | null;
  };
  /** Per card, its variants' rendered JSON in the common requests' shapes (CARD_DOCUMENTS). */
  card_documents: {
    card_uuid: string;
    v1_variants: string | null;
    v1_bare_variants: string | null;
    v2_variants: string | null;
  };
  /** Per card priced in NA, its top raw variant's figures (CatalogueSummaries migration). */
  card_values: {
    card_uuid: string;
    game_id: string;
    set_uuid: string;
    price: string;
    price_7d_ref: string | null;
    change_24h: number | null;
    change_7d: number | null;
    change_30d: number | null;
    change_90d: number | null;
    updated_at: string;
    /** Its top variant is priced by simulation (RealPricesInAggregates migration). */
    simulated: boolean;
  };
  /** Per card, region and scope, its top variant's figures (CardFacets migration). */
  card_tops: {
    card_uuid: string;
    card_rank: number;
    game_id: string;
    set_uuid: string;
    sort_key: string;
    region: string;
    scope: 'raw' | 'graded' | 'any';
    price: string | null;
    change_24h: number | null;
    change_7d: number | null;
    change_30d: number | null;
    change_90d: number | null;
  };
  /** Per card and region, the kinds of its variants (CardFacets migration). */
  card_facets: {
    card_uuid: string;
    game_id: string;
    set_uuid: string;
    sort_key: string;
    region: string;
    kinds: number[];
  };
  /** card_facets counted per set, region and kinds. */
  card_facet_counts: {
    region: string;
    game_id: string;
    set_uuid: string;
    kinds: number[];
    cards: number;
  };
  game_summaries: {
    game_id: string;
    cards_count: number;
    sealed_count: number;
    sets_count: number;
    variants_count: number;
    value_cents: string;
    value_7d_ago_cents: string | null;
    last_updated: string | null;
  };
  game_price_sources: { game_id: string; sources: string[] };
  set_summaries: { set_uuid: string; cards_count: number; value_cents: string };
  /** Each game's distinct card names, case-folded (CardNameSuggestions migration). */
  card_names: { game_id: string; folded: string; name: string; cards: number };
  /** Every word start of every name in card_names, and the rest of the name from there. */
  card_name_words: { game_id: string; folded: string; name: string; cards: number; at: number; tail: string };
  card_name_prefixes: {
    scope: string;
    prefix: string;
    rank: number;
    game_id: string;
    name: string;
    cards: number;
  };

  // --- alerts: alerts, alert events, deliveries (alerts/) ---
  /** A key's watch on a card or a variant in one region (PriceAlerts migration). */
  alerts: {
    id: string;
    key_id: string;
    card_uuid: string;
    variant_uuid: string | null;
    market: string;
    region: string;
    currency: string;
    rule: 'price_above' | 'price_below' | 'change_24h' | 'change_7d';
    threshold: number;
    url: string;
    secret: string;
    created_at: Generated<Date>;
    holds: Generated<boolean>;
    last_fired_at: Date | null;
    disabled_at: Date | null;
    disabled_reason: string | null;
    /** The URL's host and port (AlertDestinationOneName migration). */
    destination: GeneratedAlways<string>;
  };
  /** The outbox: an event per firing, claimed and sent by the senders. */
  alert_events: {
    id: string;
    alert_id: string;
    payload: string;
    created_at: Generated<Date>;
    due_at: Generated<Date>;
    attempts: Generated<number>;
    claimed_until: Date | null;
    delivered_at: Date | null;
    failed_at: Date | null;
  };
  /** Each delivery attempt's outcome, the latest kept per alert. */
  alert_attempts: {
    id: GeneratedAlways<string>;
    event_id: string;
    alert_id: string;
    attempt: number;
    at: Date;
    status: number | null;
    duration_ms: number;
    error: string | null;
  };

  // --- bulk: snapshots, archives, history (bulk/) ---
  /** A game's file of one format (BulkSnapshots, BulkArchives migrations); bigints read as text. */
  bulk_snapshots: {
    id: Generated<string>;
    game_id: string;
    format: 'ndjson.gz' | 'csv.gz' | 'history.ndjson.gz';
    data_version: ColumnType<string, number, never>;
    generated_at: Date;
    bytes: ColumnType<string, number, number>;
    row_count: ColumnType<string, number, number>;
    sha256: string;
    chunks: number;
    /** The UTC day whose archive it is, written as YYYY-MM-DD; null: not archived. */
    archive_date: ColumnType<Date | null, string | null, never>;
    /** False while its generation writes it: nobody reads it until then (false at kill: deleted). */
    complete: Generated<boolean>;
  };
  /** A file's gzip parts in order, deleted with their snapshot. */
  bulk_chunks: {
    snapshot_id: ColumnType<string, string, never>;
    seq: number;
    data: Buffer;
  };

  // --- feeds and prices: feed runs, ingest, card documents, catalogue writes (feeds/, prices/) ---
  /** A marketplace's product id of a card's printing (MarketplaceProducts migration). */
  marketplace_products: { marketplace: string; product_id: string; card_uuid: string; language: string };
  /** An id a feed said a card or variant has (IdCrosswalk migration); dates as `YYYY-MM-DD` text. */
  card_id_assertions: {
    card_uuid: string;
    variant_uuid: string | null;
    kind: string;
    value: string;
    /** null: back-filled from a column no one feed can be named for. */
    feed: string | null;
    first_seen: ColumnType<string | null, string | null, string | null>;
    last_seen: ColumnType<string | null, string | null, string | null>;
    /** bigint ids of `feed_runs`, as text. */
    first_run: string | null;
    last_run: string | null;
  };
  /** A feed sync's run on one file (PriceSources, FeedRunSamples migrations). */
  feed_runs: {
    id: Generated<string>;
    feed: string;
    file: string;
    sha256: string | null;
    fetched_at: Date | null;
    started_at: Generated<Date>;
    finished_at: Date | null;
    status: 'running' | 'imported' | 'failed';
    /** The counts are bigint: read as text, written as numbers. */
    rows_read: ColumnType<string, number | undefined, number>;
    matched: ColumnType<string, number | undefined, number>;
    created: ColumnType<string, number | undefined, number>;
    unmatched: ColumnType<string, number | undefined, number>;
    observations: ColumnType<string, number | undefined, number>;
    /** jsonb, written as JSON text. */
    reasons: ColumnType<unknown, string | undefined, string>;
    error: string | null;
    samples: ColumnType<unknown, string | undefined, string>;
  };

  /** Dated reference rates per euro, exact (ExchangeRates migration). */
  exchange_rates: {
    source: 'ecb';
    currency: string;
    /** date: written and read as `YYYY-MM-DD` text (the statements cast it). */
    day: ColumnType<string, string, string>;
    /** numeric: read as text, written as text. */
    rate: string;
    run_id: string | null;
    written_at: Generated<Date>;
  };

  // --- keys, quotas, leases, summaries, data version (repositories/ and lib/) ---
  /** Keys as SHA-256 digests of the clear key, shown once (InitialSchema, LegacyApiKeys migrations). */
  api_keys: {
    id: string;
    key_hash: Buffer;
    key_prefix: string;
    plan: string;
    label: Generated<string>;
    created_at: Generated<Date>;
    revoked_at: Date | null;
    /** Issued without a check (before issue 37): the gateway keeps these digests in memory. */
    legacy: Generated<boolean>;
  };
  /** A key's usage in one window, and a download lease under `downloads:<key id>` (QuotaCounters migration). */
  quota_counters: {
    key_id: string;
    window_id: string;
    /** bigint: read as text, written as a number. */
    used: ColumnType<string, number, number>;
    expires_at: Date;
  };
  /** The batches counted elsewhere already added to the counters. */
  quota_reconciliations: { id: string; expires_at: Date };
  /** A committed write's mark that the summaries are stale (DurableDataMarks, SummaryMarkKinds migrations). */
  summary_marks: {
    id: Generated<string>;
    marked_at: Generated<Date>;
    kind: Generated<'all' | 'facets' | 'prices'>;
  };
  /** The sample catalogue load: started, and completed once its last batch and refresh are done. */
  sample_loads: {
    only_row: Generated<boolean>;
    size: string;
    started_at: Generated<Date>;
    completed_at: Date | null;
  };
  /** The one row of the data version (DataVersion migration). */
  data_version: { only_row: boolean; version: string };
}

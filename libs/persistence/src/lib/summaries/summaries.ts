import { sql } from 'kysely';
import { SUMMARIES_DEPENDENCY } from '@tcg/rendering';
import { DataSource } from 'typeorm';
import { poolOf } from '../db/data-source';
import { db } from '../sql/compile';
import { rowSchema } from '../sql/row-schema';
import { execute, rowOf, rowsOf, type Connection } from '../sql/run';

/** In refresh order: a view after those it is built on. */
export const SUMMARY_VIEWS = [
  'card_values',
  'set_summaries',
  'game_summaries',
  'card_facets',
  'card_facet_counts',
  'card_name_facets',
  'card_tops',
  'game_price_sources',
  'card_names',
  'card_name_words',
  'card_name_prefixes',
  'search_names',
] as const;

export type SummaryView = (typeof SUMMARY_VIEWS)[number];

/**
 * What a write left stale (SummaryMarksByTrigger migration). `prices`: the views built on values
 * (a writer's own mark); `facets`: also the views of which variants and regions a card has (marked
 * by triggers on variants and series); `all`: every view, the name views too (marked by triggers
 * on cards, and the default of a mark older than its kind).
 */
export type StaleKind = 'all' | 'facets' | 'prices';

const PRICE_VIEWS: readonly SummaryView[] = [
  'card_values',
  'set_summaries',
  'game_summaries',
  'card_tops',
  'game_price_sources',
];
const FACET_VIEWS: readonly SummaryView[] = ['card_facets', 'card_facet_counts', 'card_name_facets'];

/** Each kind's views, in SUMMARY_VIEWS' order: a wider kind adds to the narrower one's. */
const VIEWS_OF: Record<StaleKind, readonly SummaryView[]> = {
  prices: SUMMARY_VIEWS.filter((v) => PRICE_VIEWS.includes(v)),
  facets: SUMMARY_VIEWS.filter((v) => PRICE_VIEWS.includes(v) || FACET_VIEWS.includes(v)),
  all: SUMMARY_VIEWS,
};

const STALE = rowSchema('summaries stale', { stale: 'boolean' });
const MARK = rowSchema('summary marks', { id: 'string', kind: 'string' });

/** A writer's own mark: its write moved values (`prices`). */
export function markPricesStaleStatement() {
  return db.insertInto('summary_marks').values({ kind: sql.lit('prices') });
}

export function summariesStaleStatement() {
  return sql`SELECT EXISTS (SELECT 1 FROM summary_marks) AS stale`;
}

export function summaryMarksStatement() {
  return db.selectFrom('summary_marks').select(['id', 'kind']);
}

/** The tables a sync or an import wrote, analysed (AnalyzeCatalogue migration). */
export function analyzeCatalogueStatement() {
  return sql`SELECT tcg_analyze_catalogue()`;
}

export function refreshSummaryStatement(view: SummaryView) {
  return sql`SELECT tcg_refresh_summary(${view})`;
}

/**
 * A refresh's own data version, logged (CardChanges migration) as changing the card
 * SUMMARIES_DEPENDENCY: a v1 lookup asks `card_values` whether its card has a priced variant, and
 * `min_price` reads `card_tops`, so a cached answer that read them (its `madeOf` names that
 * dependency) does not outlive a refresh; one that did not (a v2 lookup) is kept.
 */
export function refreshVersionStatement() {
  return db.insertInto('card_changes').values({
    version: sql<string>`next_data_version()`,
    card_uuid: sql<string>`${SUMMARIES_DEPENDENCY}::uuid`,
  });
}

export function clearSummaryMarksStatement(ids: readonly string[]) {
  return db.deleteFrom('summary_marks').where('id', '=', sql<string>`ANY(${ids}::bigint[])`);
}

/**
 * Records, inside the caller's open transaction, that its write makes the summaries stale: the
 * mark commits or rolls back with the data, so a kill after the commit still leaves it behind.
 * The writer marks `prices`; what its write changed of cards, variants and series is marked by
 * triggers in the same transaction.
 */
export async function markSummariesStale(connection: Connection): Promise<void> {
  await execute(connection, markPricesStaleStatement());
}

/**
 * Recomputes the card, set and game values (see the CatalogueSummaries migration) and clears the
 * stale marks it saw before starting. A mark is visible only once its write has committed, so the
 * refresh, which starts later, includes every write whose mark it clears; a write committing
 * during the refresh keeps its mark for the next one. The views stay readable throughout (a view
 * is rebuilt beside itself and swapped in, or refreshed concurrently: SummariesRebuiltBeside).
 */
export async function refreshSummaries(ds: DataSource): Promise<void> {
  await refreshClearing(ds, SUMMARY_VIEWS, (await staleMarks(ds)).ids);
}

/** Whether a committed write has left the summaries stale. */
export async function summariesStale(ds: DataSource): Promise<boolean> {
  return (await rowOf(poolOf(ds), STALE, summariesStaleStatement())).stale;
}

/**
 * Refreshes the summaries when a committed write has left them stale; returns whether it did.
 * `analyze`: the tables written are analysed first (a bulk writer's end: a sync, an import), so
 * that the refresh is planned on what they now hold.
 */
export async function refreshSummariesIfStale(
  ds: DataSource,
  options: { analyze?: boolean } = {},
): Promise<boolean> {
  const { ids, views } = await staleMarks(ds);
  if (ids.length === 0) return false;
  if (options.analyze) await execute(poolOf(ds), analyzeCatalogueStatement());
  await refreshClearing(ds, views, ids);
  return true;
}

/** The marks left by committed writes, and the views they leave stale. */
async function staleMarks(ds: DataSource): Promise<{ ids: string[]; views: readonly SummaryView[] }> {
  const rows = await rowsOf(poolOf(ds), MARK, summaryMarksStatement());
  const kinds = new Set(rows.map((r) => r.kind));
  const widest = kinds.has('all') ? 'all' : kinds.has('facets') ? 'facets' : 'prices';
  return { ids: rows.map((r) => r.id), views: VIEWS_OF[widest] };
}

/**
 * Refreshes `views` (in SUMMARY_VIEWS' order), then clears the marks `ids`, read before the refresh
 * started. The views order and filter browse answers and v1 lookups, so their refresh takes a data
 * version of its own (no trigger fires on a materialized view), logged as changing any answer.
 */
async function refreshClearing(ds: DataSource, views: readonly SummaryView[], ids: string[]): Promise<void> {
  // Through the owner's function (DatabaseRoles migration): REFRESH needs the views' owner, and
  // the importer's role is not.
  const pool = poolOf(ds);
  for (const view of SUMMARY_VIEWS.filter((v) => views.includes(v)))
    await execute(pool, refreshSummaryStatement(view));
  await execute(pool, refreshVersionStatement());
  if (ids.length > 0) await execute(pool, clearSummaryMarksStatement(ids));
}

import type { CardKeysetReads, KeysetPage, KeysetPosition, KeysetQuery } from '@tcg/domain';
import type { QueryResultRow } from 'pg';
import { preparedQuery } from '../prepared-query';
import { TopRegions } from './top-regions';
import { readTopRegion } from '../reads/top-region.read';
import { readOn, type ReadSource } from '../read-replicas';
import {
  acceptedKinds,
  Bind,
  binder,
  browseConditions,
  facetCountSql,
  hasVariant,
  relevance,
  ResolvedFilter,
  browseSummary,
  topJoin,
  toppedScope,
  topSortKey,
  unpricedEnd,
  topVariantJoin,
} from './card-sql';

interface KeyColumn {
  readonly expr: string;
  readonly type: 'text' | 'uuid' | 'float8';
  readonly dir: 'asc' | 'desc';
}

const TOP_COLUMN = {
  price: 'top.price',
  '24h': 'top.change_24h',
  '7d': 'top.change_7d',
  '30d': 'top.change_30d',
};

/**
 * v2's read side for browse and search: keyset pagination over a total order that always ends in
 * the card UUID, so a walk returns every card exactly once. Never OFFSET: a page costs the same
 * deep in a walk as at its start, and the set order reads the `(sort_key, uuid)` index.
 */
export class CardKeysetRepository implements CardKeysetReads {
  /** `reads`: a data source, or `ReadReplicas` (replicas up to date, else the primary). */
  constructor(private readonly reads: ReadSource) {}

  private readonly run = <T extends QueryResultRow>(sql: string, params: unknown[]): Promise<T[]> =>
    preparedQuery<T>(this.reads, sql, params);

  private readonly topRegions = new TopRegions((region) => readTopRegion(this.reads, region));

  /** A request's page and count run side by side on one query: resolved once for both. */
  private readonly resolved = new WeakMap<KeysetQuery, Promise<ResolvedQuery>>();

  async page(unresolved: KeysetQuery, limit: number, position?: KeysetPosition): Promise<KeysetPage> {
    const query = await this.resolve(unresolved);
    const params: unknown[] = [query.region];
    const p = binder(params);
    const { from, uuid, where, columns } = this.plan(query, p);
    const backward = position?.backward ?? false;
    if (position) {
      if (position.key.length !== columns.length) throw new RangeError('cursor key does not fit the order');
      where.push(keysetCondition(columns, position.key, backward, p));
    }
    const orderBy = columns
      .map((c) => `${c.expr} ${(c.dir === 'asc') !== backward ? 'ASC' : 'DESC'}`)
      .join(', ');
    const keys = columns.map((c, i) => `(${c.expr})::text AS k${i}`).join(', ');
    const rows: Record<string, string>[] = await preparedQuery(
      this.reads,
      `SELECT ${uuid} AS uuid, ${keys} ${from} WHERE ${where.join(' AND ')} ORDER BY ${orderBy} LIMIT ${p(limit + 1)}`,
      params,
    );
    const more = rows.length > limit;
    const kept = rows.slice(0, limit).map((r) => ({
      cardUuid: r['uuid']!,
      key: columns.map((_, i) => r[`k${i}`]!),
    }));
    return { rows: backward ? kept.reverse() : kept, more };
  }

  /**
   * How many cards match, or null when counting takes longer than `budgetMs` (docs/spec/decisions.md:
   * `total` is null past the budget). The count runs in its own transaction under a
   * statement timeout, so a slow count is cancelled by the server rather than abandoned.
   */
  async count(unresolved: KeysetQuery, budgetMs: number): Promise<number | null> {
    if (budgetMs <= 0) return null;
    const query = await this.resolve(unresolved);
    const params: unknown[] = [query.region];
    const p = binder(params);
    // By game and/or set alone, from card_facets (one row per card); otherwise over the cards.
    const quick =
      query.minPrice === undefined ? facetCountSql(query.browse, query.filter, p, '$1') : undefined;
    const sql = quick ?? countOf(this.plan(query, p));
    return readOn(this.reads, async (ds) => {
      const runner = ds.createQueryRunner();
      try {
        await runner.connect();
        // Opening the transaction and setting its deadline is one round trip: a query without
        // parameters goes as a simple query, which may hold several statements.
        await runner.query(`BEGIN; SET LOCAL statement_timeout = ${Math.ceil(budgetMs)}`);
        const [row] = (await runner.query(sql, params)) as { n: number }[];
        await runner.query('COMMIT');
        return row!.n;
      } catch (error) {
        // Outside a transaction (BEGIN itself failed) ROLLBACK only warns.
        await runner.query('ROLLBACK').catch(() => undefined);
        if ((error as { driverError?: { code?: string } }).driverError?.code === '57014') return null;
        throw error;
      } finally {
        await runner.release();
      }
    });
  }

  /**
   * The query with its filter's accepted kinds (`acceptedKinds`) and, where card_tops answers it
   * and the statement reads it (a browse by game and/or set, or a sort or floor), the region
   * card_tops reads (`readTopRegion`).
   */
  private resolve(query: KeysetQuery): Promise<ResolvedQuery> {
    let resolved = this.resolved.get(query);
    if (!resolved) {
      resolved = (async () => {
        const filter = await acceptedKinds(this.run, query.filter);
        const needsTop = query.orderBy !== undefined || query.minPrice !== undefined;
        const browseOnly = !query.browse.q && !query.browse.number;
        const tops =
          toppedScope(filter) && (browseOnly || needsTop)
            ? await this.topRegions.of(query.region)
            : undefined;
        return { ...query, filter, tops };
      })();
      this.resolved.set(query, resolved);
    }
    return resolved;
  }

  private plan(
    query: ResolvedQuery,
    p: Bind,
  ): { from: string; uuid: string; where: string[]; columns: KeyColumn[] } {
    // card_tops holds each card's top variant where the filter is on the variants' scope alone; a
    // browse by game and/or set alone reads a summary's rows alone (CardQueryRepository.findPage).
    const topRegion = query.tops?.sql;
    const needsTop = query.orderBy !== undefined || query.minPrice !== undefined;
    const summary = browseSummary(query.browse, query.filter, p, '$1', topRegion, needsTop);
    const browse = summary ? { where: [] } : browseConditions(query.browse, p);
    const where = summary ? summary.where : [...browse.where, hasVariant(query.filter, p, '$1')];
    const from = summary
      ? `FROM ${summary.from}`
      : !needsTop
        ? 'FROM cards c'
        : topRegion !== undefined
          ? `FROM cards c ${topJoin(query.filter, topRegion)}`
          : `FROM cards c ${topVariantJoin(query.filter, p, '$1')}`;
    if (query.minPrice !== undefined) where.push(`top.price >= ${p(query.minPrice)}`);
    const card = summary
      ? { uuid: `${summary.alias}.card_uuid`, sortKey: `${summary.alias}.sort_key` }
      : { uuid: 'c.uuid', sortKey: 'c.sort_key' };
    let columns: KeyColumn[];
    if (query.orderBy) {
      // Unpriced cards last whichever the direction, as NULLS LAST would put them; the form the
      // CardFacets migration indexes (topSortKey). Nothing priced in the region: the value every
      // card has, so the UUID alone orders.
      const key = topSortKey(TOP_COLUMN[query.orderBy], query.direction);
      columns = [
        {
          expr: summary && query.tops?.priced === false ? `${unpricedEnd(query.direction)}::float8` : key,
          type: 'float8',
          dir: query.direction,
        },
        { expr: card.uuid, type: 'uuid', dir: query.direction },
      ];
    } else if ('search' in browse && browse.search) {
      columns = [
        { expr: relevance(browse.search), type: 'float8', dir: 'desc' },
        { expr: 'c.sort_key', type: 'text', dir: 'asc' },
        { expr: 'c.uuid', type: 'uuid', dir: 'asc' },
      ];
    } else {
      columns = [
        { expr: card.sortKey, type: 'text', dir: 'asc' },
        { expr: card.uuid, type: 'uuid', dir: 'asc' },
      ];
    }
    return { from, uuid: card.uuid, where, columns };
  }
}

/** A query with its filter's accepted kinds, and the card_tops region it reads (`resolve`). */
type ResolvedQuery = KeysetQuery & {
  filter: ResolvedFilter;
  tops?: { readonly sql: string; readonly priced: boolean };
};

/** The count of a plan's rows. */
function countOf(plan: { from: string; where: string[] }): string {
  return `SELECT count(*)::int AS n ${plan.from} WHERE ${plan.where.join(' AND ')}`;
}

/** Rows strictly after `key` in the order (before it, reading backward). */
function keysetCondition(columns: KeyColumn[], key: readonly string[], backward: boolean, p: Bind): string {
  const values = columns.map((c, i) => `${p(key[i])}::${c.type}`);
  const ascending = (c: KeyColumn) => (c.dir === 'asc') !== backward;
  if (columns.every((c) => ascending(c) === ascending(columns[0]!))) {
    // One direction throughout: a row comparison, which an index on the columns can serve.
    const op = ascending(columns[0]!) ? '>' : '<';
    return `(${columns.map((c) => c.expr).join(', ')}) ${op} (${values.join(', ')})`;
  }
  const alternatives = columns.map((c, i) => {
    const equal = columns.slice(0, i).map((e, j) => `${e.expr} = ${values[j]}`);
    return `(${[...equal, `${c.expr} ${ascending(c) ? '>' : '<'} ${values[i]}`].join(' AND ')})`;
  });
  return `(${alternatives.join(' OR ')})`;
}

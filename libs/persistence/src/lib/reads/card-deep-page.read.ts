import { sql } from 'kysely';
import type { CardPagePlan } from './card-page-plan';
import type { PageRange, PageStatement } from './card-page';
import { cardCountStatement } from './card-count.read';

/**
 * A page past the first, its count joined to it in one statement: a page past the end is one row
 * without a card, and its total needs no second statement.
 */
export function deepCardPage(plan: CardPagePlan, { limit, offset }: PageRange): PageStatement {
  const ordered = sql`SELECT ${plan.uuid} AS uuid FROM ${plan.from} WHERE ${plan.where} ORDER BY ${plan.ordering}`;
  return {
    shape: 'deep',
    offset,
    sql: sql`SELECT pg.uuid, t.n AS total FROM (${cardCountStatement(plan)}) t
         LEFT JOIN (SELECT o.uuid, row_number() OVER () AS ord
                    FROM (${ordered} LIMIT ${limit} OFFSET ${offset}) o) pg ON true
         ORDER BY pg.ord`,
  };
}

import { sql } from 'kysely';
import type { CardPagePlan } from './card-page-plan';
import type { PageRange, PageStatement } from './card-page';

/**
 * A page past the first of a counted plan (a search, a delta sync): OFFSET ranks every match
 * anyway, so the same pass counts them, and also returns the last match (rn = total): a page past
 * the end is then that row alone, dropped by the caller, and its total needs no second pass.
 */
export function rankedCardPage(plan: CardPagePlan, { limit, offset }: PageRange): PageStatement {
  return {
    shape: 'ranked',
    offset,
    sql: sql`SELECT w.uuid, w.total, w.rn FROM (
           SELECT ${plan.uuid} AS uuid, count(*) OVER ()::int AS total, (row_number() OVER (ORDER BY ${plan.ordering}))::int AS rn
           FROM ${plan.from}
           WHERE ${plan.where}) w
         WHERE w.rn > ${offset} OR w.rn = w.total
         ORDER BY w.rn
         LIMIT ${limit}`,
  };
}

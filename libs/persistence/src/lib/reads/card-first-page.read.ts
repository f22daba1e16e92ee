import { sql } from 'kysely';
import type { CardPagePlan } from './card-page-plan';
import type { PageRange, PageStatement } from './card-page';

/**
 * A first page (offset 0, or any offset of a lookup) in the plan's order, with the count of all
 * its matches in every row where the plan's pass counts them anyway (`counted`); otherwise a full
 * page is counted by `cardCountStatement`.
 */
export function firstCardPage(plan: CardPagePlan, { limit, offset }: PageRange): PageStatement {
  return {
    shape: plan.counted ? 'counted' : 'first',
    offset,
    sql: sql`SELECT ${plan.uuid} AS uuid${plan.counted ? sql`, count(*) OVER ()::int AS total` : sql``}
       FROM ${plan.from}
       WHERE ${plan.where}
       ORDER BY ${plan.ordering}
       LIMIT ${limit} OFFSET ${offset}`,
  };
}

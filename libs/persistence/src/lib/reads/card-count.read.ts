import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import type { CardPagePlan } from './card-page-plan';
import { rowSchema } from '../sql/row-schema';
import { runRead } from './run-read';

const ROW = rowSchema('card count', { n: 'int' });

/**
 * How many cards the plan's page is cut from: from card_facet_counts where it answers (a browse by
 * game and/or set), otherwise by the page's own conditions (card_tops' rows, or cards).
 */
export function cardCountStatement(plan: CardPagePlan) {
  return plan.facetCount ?? sql`SELECT count(*)::int AS n FROM ${plan.from} WHERE ${plan.where}`;
}

export async function readCardCount(source: ReadSource, plan: CardPagePlan): Promise<number> {
  const [row] = await runRead(source, ROW, cardCountStatement(plan));
  return row!.n;
}

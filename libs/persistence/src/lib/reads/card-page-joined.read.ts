import type { JoinedCard } from '@tcg/domain';
import type { JoinedVariantJson } from '@tcg/rendering';
import { sql } from 'kysely';
import type { ReadSource } from './read-replicas';
import type { CardPagePlan } from './card-page-plan';
import { checkPage, type PageStatement } from './card-page';
import { CARD_COLUMNS, CARD_FROM, JOINED_CARD_ROW, joinedVariantsSql, toJoinedCard } from './card-rows';
import { checkRows } from '../sql/row-schema';
import { runStatement } from './run-read';

/**
 * A page statement with its cards and their variants' JSON joined in SQL, in one statement: the
 * page in its order (ord), then each of its cards with its variants joined; a left join keeps the
 * row without a card that carries a page's total past the end.
 */
export function joinedCardPageStatement(plan: CardPagePlan, page: PageStatement, json: JoinedVariantJson) {
  const total = page.shape === 'first' ? sql`` : sql`page.total, `;
  const rank = page.shape === 'ranked' ? sql`page.rn, ` : sql``;
  return sql`WITH page AS (SELECT q.*, row_number() OVER () AS ord FROM (${page.sql}) q)
           SELECT ${total}${rank}${CARD_COLUMNS},
                  ${joinedVariantsSql(json, plan.scope, plan.region)} AS variants
           FROM page LEFT JOIN (${CARD_FROM}) ON c.uuid = page.uuid
           ORDER BY page.ord`;
}

/** The page's cards with their variants' JSON, in order, and its count where the statement has it. */
export async function readJoinedCardPage(
  source: ReadSource,
  plan: CardPagePlan,
  page: PageStatement,
  json: JoinedVariantJson,
): Promise<{ readonly cards: JoinedCard[]; readonly total?: number }> {
  const { rows, total } = checkPage(
    page,
    await runStatement(source, joinedCardPageStatement(plan, page, json)),
  );
  return { cards: checkRows(JOINED_CARD_ROW, rows).map(toJoinedCard), total };
}

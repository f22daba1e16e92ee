import type { ReadSource } from './read-replicas';
import type { Sql } from '../sql/compile';
import { checkRows, rowSchema } from '../sql/row-schema';
import type { QueryRow } from '../sql/run';
import { runStatement } from './run-read';

/** A page's range in the order. */
export interface PageRange {
  readonly limit: number;
  readonly offset: number;
}

/**
 * The shapes of a page statement, by what its rows carry beside the card UUID:
 * - `first`: nothing (`firstCardPage`);
 * - `counted`: the count of all the matches, in every row (`firstCardPage` of a counted plan);
 * - `deep`: the count, and past the end one row without a card (`deepCardPage`);
 * - `ranked`: the count and each row's rank: the rows ranked past the offset are the page, and a
 *   last row ranked `total` carries the count of a page past the end (`rankedCardPage`).
 */
export type PageShape = 'first' | 'counted' | 'deep' | 'ranked';

export interface PageStatement {
  readonly shape: PageShape;
  readonly sql: Sql;
  readonly offset: number;
}

/** A row of the page: a card's. */
export type PageRow = QueryRow & { readonly uuid: string };

/** What a page statement returned: the rows that are the page, and the count where it has one. */
export interface CheckedPage {
  readonly rows: PageRow[];
  readonly total?: number;
}

// A page's columns as each shape has them. The UUID may be null: a deep page's row past the end
// has no card, and a joined page takes it from its left join of the cards.
const FIRST_ROW = rowSchema('card page', { uuid: 'string?' });
const COUNTED_ROW = rowSchema('card page, counted', { uuid: 'string?', total: 'int' });
const RANKED_ROW = rowSchema('card page, ranked', { uuid: 'string?', total: 'int', rn: 'int' });

const hasCard = <R extends { readonly uuid: string | null }>(r: R): r is R & { readonly uuid: string } =>
  r.uuid !== null;

/**
 * Checks the page's columns of the rows of a page statement, or of a statement built on one
 * (`joinedCardPageStatement`), and keeps the rows that are the page.
 */
export function checkPage(page: PageStatement, rows: readonly QueryRow[]): CheckedPage {
  switch (page.shape) {
    case 'first':
      return { rows: checkRows(FIRST_ROW, rows).filter(hasCard) };
    case 'counted':
    case 'deep': {
      const checked = checkRows(COUNTED_ROW, rows);
      return { rows: checked.filter(hasCard), total: checked[0]?.total };
    }
    case 'ranked': {
      const checked = checkRows(RANKED_ROW, rows);
      return { rows: checked.filter((r) => r.rn > page.offset).filter(hasCard), total: checked[0]?.total };
    }
  }
}

/** Runs a page statement alone: the UUIDs of its cards, and its count where it has one. */
export async function readCardPage(
  source: ReadSource,
  page: PageStatement,
): Promise<{ readonly uuids: string[]; readonly total?: number }> {
  const { rows, total } = checkPage(page, await runStatement(source, page.sql));
  return { uuids: rows.map((r) => r.uuid), total };
}

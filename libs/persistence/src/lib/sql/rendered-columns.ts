import { RenderedSeries } from '@tcg/rendering';

/** The `variant_prices` column of each rendered part: the one list the others derive from. */
export const RENDERED_COLUMN_OF = {
  v1Stats: 'v1_stats',
  v1History: 'v1_history',
  v2Price: 'v2_price',
  v2Periods: 'v2_periods',
  v2History: 'v2_history',
} as const satisfies Record<keyof RenderedSeries, string>;

const RENDERED_PARTS = Object.keys(RENDERED_COLUMN_OF) as (keyof RenderedSeries)[];

/** The columns, in `renderedFields` order. */
export const RENDERED_COLUMNS = RENDERED_PARTS.map((part) => RENDERED_COLUMN_OF[part]);

export function renderedFields(r: RenderedSeries): (string | null)[] {
  return RENDERED_PARTS.map((part) => r[part]);
}

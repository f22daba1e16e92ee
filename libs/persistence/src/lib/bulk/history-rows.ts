import { minorUnitsPerMajor, parseRegion, toMajor } from '@tcg/domain';
import { sql } from 'kysely';
import { rowSchema } from '../sql/row-schema';
import { rowsOf, type Connection } from '../sql/run';

/** One line of the history file: a variant's daily series in one region. */
export interface HistoryLine {
  readonly card_id: string;
  readonly variant_id: string;
  readonly variant_uuid: string;
  readonly region: string;
  readonly currency: string;
  /** The first UTC day with an observation (YYYY-MM-DD). */
  readonly from: string;
  /**
   * One entry per UTC day from `from` to the last day with an observation: the day's last price in
   * major units, or null for a day without any. Dense, so a day costs a few bytes, not a date.
   */
  readonly prices: (number | null)[];
}

/**
 * A stored month of one series, its arrays in their text form (`{1,2,3}`); `month_day` is the
 * month's first day, in days since 1970-01-01 (UTC).
 */
const MONTH = rowSchema('bulk history months', {
  card_id: 'string',
  variant_id: 'string',
  variant_uuid: 'string',
  region: 'string',
  currency: 'string?',
  month_day: 'int',
  offsets: 'string',
  prices: 'string',
});

const DAY_SECONDS = 86_400;

/** The stored months of these cards' variants' series, in line order (`historyLines`). */
export function historyMonthsStatement(cardUuids: readonly string[]) {
  return sql`SELECT c.id AS card_id, v.id AS variant_id, v.uuid::text AS variant_uuid, ps.region,
            vp.currency::text AS currency, (ps.month - DATE '1970-01-01') AS month_day,
            ps.offsets::text AS offsets, ps.prices::text AS prices
     FROM unnest(${cardUuids}::uuid[]) WITH ORDINALITY AS page (uuid, ord)
     JOIN cards c ON c.uuid = page.uuid
     JOIN variants v ON v.card_uuid = c.uuid
     JOIN price_series ps ON ps.variant_uuid = v.uuid
     LEFT JOIN variant_prices vp ON vp.variant_uuid = ps.variant_uuid AND vp.region = ps.region
     ORDER BY page.ord, v.id, ps.region <> 'NA', ps.region, ps.month`;
}

/**
 * The NDJSON lines (each ending in '\n', joined in one string) of these cards' variants' daily
 * series, in the order of `cardUuids` (then variant id, then region with 'NA' first then alphabetical).
 *
 * One statement reads the page's stored months in line order; the per-day reduction happens here,
 * one pass over the observations, because a month's `offsets` are seconds since the month's
 * first UTC instant: an observation's day is the month's day plus `offset / 86400`, with no date
 * arithmetic, and the day's last observation is the last one written to its entry.
 * The month arrays come as text and are split here, as the history reads do: several times
 * cheaper than the driver's array parser. Memory holds this page's months and lines only, so a
 * caller paging through a game's cards holds one page whatever the game's size. Variants without
 * any series yield no line; the currency is the stored series' (the region's market currency
 * should its statistics row ever be missing).
 */
export async function historyLines(
  client: Connection,
  cardUuids: readonly string[],
): Promise<{ text: string; lines: number }> {
  if (cardUuids.length === 0) return { text: '', lines: 0 };
  const rows = await rowsOf(client, MONTH, historyMonthsStatement(cardUuids));

  let text = '';
  let lines = 0;
  let line: HistoryLine | undefined;
  let perMajor = 100;
  /** The epoch day of `line.prices[0]`. */
  let first = 0;
  const flush = () => {
    if (!line) return;
    text += `${JSON.stringify(line)}\n`;
    lines++;
  };
  for (const r of rows) {
    if (!line || r.variant_uuid !== line.variant_uuid || r.region !== line.region) {
      flush();
      const currency = r.currency ?? parseRegion(r.region)?.currency ?? 'USD';
      // The first month's first observation: months come in order, observations in time order.
      first = r.month_day + Math.floor(Number(r.offsets.slice(1, -1).split(',', 1)[0]) / DAY_SECONDS);
      // Keys in this order are the file's stable column order.
      line = {
        card_id: r.card_id,
        variant_id: r.variant_id,
        variant_uuid: r.variant_uuid,
        region: r.region,
        currency,
        from: new Date(first * DAY_SECONDS * 1000).toISOString().slice(0, 10),
        prices: [],
      };
      perMajor = minorUnitsPerMajor(currency);
    }
    const offsets = r.offsets.slice(1, -1).split(',');
    const prices = r.prices.slice(1, -1).split(',');
    const out = line.prices;
    // Observations are in time order: the day's last one overwrites its earlier ones, and days
    // without any stay null.
    for (let i = 0; i < offsets.length; i++) {
      const at = r.month_day + Math.floor(Number(offsets[i]) / DAY_SECONDS) - first;
      while (out.length <= at) out.push(null);
      out[at] = toMajor(Number(prices[i]), perMajor);
    }
  }
  flush();
  return { text, lines };
}

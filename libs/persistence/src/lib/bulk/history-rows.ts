import { minorUnitsPerMajor, toMajor } from '@tcg/domain';
import { sql } from 'kysely';
import { seriesKey } from '../prices';
import { rowSchema, type RowOf } from '../sql/row-schema';
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
 * A line of the previous file: as written (`text`, with its '\n'), its fields but the prices
 * (`head`), and the text of its prices' entries (between the brackets). The entries are copied as
 * text, never parsed: a line is hundreds of them, and parsing and writing them again was most of
 * the cost of a file built on the previous one.
 */
export interface PreviousLine {
  readonly text: string;
  readonly head: Omit<HistoryLine, 'prices'>;
  readonly prices: string;
}

/** What separates a line's fields from its prices: the last key, as `JSON.stringify` writes it. */
const PRICES_KEY = ',"prices":[';

/** A written line (without its '\n') as a `PreviousLine`: its fields parsed, its prices not. */
export function previousLine(written: string): PreviousLine {
  // A string field holding the key would have its quotes escaped: the first match is the key.
  const at = written.indexOf(PRICES_KEY);
  if (at < 0 || !written.endsWith(']}')) throw new Error(`not a history line: ${written.slice(0, 80)}`);
  return {
    text: `${written}\n`,
    head: JSON.parse(`${written.slice(0, at)}}`) as Omit<HistoryLine, 'prices'>,
    prices: written.slice(at + PRICES_KEY.length, -2),
  };
}

/** The first `count` entries of a line's prices text (all of them if fewer), and how many. */
function firstEntries(prices: string, count: number): { text: string; count: number } {
  let commas = 0;
  for (let i = 0; i < prices.length; i++)
    if (prices.charCodeAt(i) === 44 && ++commas === count) return { text: prices.slice(0, i), count };
  return { text: prices, count: prices === '' ? 0 : commas + 1 };
}

/** A line's text (with its '\n') from its fields and its prices' entries as text. */
function lineText(s: SeriesRow, from: string, entries: string): string {
  // Keys in this order are the file's stable column order.
  const head: HistoryLine = {
    card_id: s.card_id,
    variant_id: s.variant_id,
    variant_uuid: s.variant_uuid,
    region: s.region,
    currency: s.currency,
    from,
    prices: [],
  };
  return `${JSON.stringify(head).slice(0, -2)}${entries}]}\n`;
}

/** The previous history file of the game, to build this one from (`historyLines`). */
export interface PreviousHistory {
  /** The data version the previous file was read at. */
  readonly version: number;
  /** Its lines of these cards (by card id), by `seriesKey`; `lastCardUuid` ends the page. */
  linesOf(cardIds: ReadonlySet<string>, lastCardUuid: string): Promise<ReadonlyMap<string, PreviousLine>>;
}

/** How many series' lines a generation took from the previous file, extended, or read whole. */
export interface SeriesTally {
  kept: number;
  extended: number;
  readWhole: number;
}

/**
 * Per series of these cards' variants, in line order: what the line is made of, the first month
 * written after version `since` (null: none) and whether month rows were deleted after it
 * (`price_series_changes`). Months as days since 1970-01-01 (UTC).
 */
const SERIES = rowSchema('bulk history series', {
  card_id: 'string',
  variant_id: 'string',
  variant_uuid: 'string',
  region: 'string',
  currency: 'string',
  changed_month: 'int?',
  reset: 'boolean',
});
type SeriesRow = RowOf<typeof SERIES>;

/**
 * A stored month of the series at `at` in the request (`historyMonthsStatement`), its arrays in
 * their text form (`{1,2,3}`); `month_day` is the month's first day, in days since 1970-01-01.
 */
const MONTH = rowSchema('bulk history months', {
  at: 'int',
  month_day: 'int',
  offsets: 'string',
  prices: 'string',
});

const DAY_SECONDS = 86_400;
const DAY_MS = DAY_SECONDS * 1000;

/** A version after every write: with no previous file, each probe of the log finds nothing. */
const NOTHING_SINCE = Number.MAX_SAFE_INTEGER;

/**
 * The series of these cards' variants (`SERIES`), in line order: one per statistics row (the
 * importer writes one for every series it writes), with what the change log holds of it since.
 */
export function historySeriesStatement(cardUuids: readonly string[], since: number) {
  return sql`SELECT c.id AS card_id, v.id AS variant_id, v.uuid::text AS variant_uuid, vp.region,
            vp.currency::text AS currency, (ch.from_month - DATE '1970-01-01') AS changed_month,
            coalesce(ch.reset, false) AS reset
     FROM unnest(${cardUuids}::uuid[]) WITH ORDINALITY AS page (uuid, ord)
     JOIN cards c ON c.uuid = page.uuid
     JOIN variants v ON v.card_uuid = c.uuid
     JOIN variant_prices vp ON vp.variant_uuid = v.uuid
     CROSS JOIN LATERAL (
       SELECT min(x.from_month) AS from_month, bool_or(x.from_month IS NULL) AS reset
       FROM price_series_changes x
       WHERE x.variant_uuid = v.uuid AND x.region = vp.region AND x.version > ${since}) ch
     ORDER BY page.ord, v.id, vp.region <> 'NA', vp.region`;
}

/**
 * The stored months of these series from the given month on (days since 1970-01-01), by series
 * in the order given (`at`, from 1), then by month.
 */
export function historyMonthsStatement(
  series: readonly { variantUuid: string; region: string; fromMonth: number }[],
) {
  return sql`SELECT k.at::int AS at, (ps.month - DATE '1970-01-01') AS month_day,
            ps.offsets::text AS offsets, ps.prices::text AS prices
     FROM unnest(${series.map((s) => s.variantUuid)}::uuid[], ${series.map((s) => s.region)}::text[],
                 ${series.map((s) => s.fromMonth)}::int[]) WITH ORDINALITY AS k (variant_uuid, region, from_month, at)
     JOIN price_series ps ON ps.variant_uuid = k.variant_uuid AND ps.region = k.region
                         AND ps.month >= DATE '1970-01-01' + k.from_month
     ORDER BY k.at, ps.month`;
}

/** Days since 1970-01-01 of a UTC day (YYYY-MM-DD), of its month's first day, and back. */
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const monthOf = (date: string) =>
  Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, 1) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/**
 * How a series' line is made: from the `previous` file's line alone (nothing of it written since),
 * from its days before `month` followed by the months read from `month` on, or `fresh` from every
 * stored month.
 */
type Plan =
  | { readonly kind: 'kept'; readonly previous: PreviousLine }
  | { readonly kind: 'from'; readonly previous: PreviousLine; readonly month: number }
  | { readonly kind: 'fresh' };

/**
 * A previous line stands for the months it was read from when none of its series' month rows was
 * deleted since (no reset) and it is in the same currency (its prices are in the currency's major
 * units); what was written since its version is read again, from the first month written on. A
 * month written at or before the line's first (a day added before its `from`) is read whole.
 */
function planOf(s: SeriesRow, previous: PreviousLine | undefined): Plan {
  if (!previous || s.reset || previous.head.currency !== s.currency) return { kind: 'fresh' };
  if (s.changed_month === null) return { kind: 'kept', previous };
  if (s.changed_month <= monthOf(previous.head.from)) return { kind: 'fresh' };
  return { kind: 'from', previous, month: s.changed_month };
}

/**
 * The NDJSON lines (each ending in '\n', joined in one string) of these cards' variants' daily
 * series, in the order of `cardUuids` (then variant id, then region with 'NA' first then
 * alphabetical).
 *
 * With no `previous` file, every stored month is read. With one, a series' line is the previous
 * line where nothing of it was written since the previous file's version, or the previous line's
 * days before the first month written since, followed by that month and the ones after, read
 * again (`planOf`): a day's sync reads the current month of each series instead of two years of
 * them. What a line holds is the same either way (previous-history.integration-spec.ts builds both).
 *
 * Two statements: the page's series, then the months to read, in line order; the per-day
 * reduction happens here, one pass over the observations, because a month's `offsets` are seconds
 * since the month's first UTC instant: an observation's day is the month's day plus
 * `offset / 86400`, with no date arithmetic, and the day's last observation is the last one
 * written to its entry. The month arrays come as text and are split here, as the history reads
 * do: several times cheaper than the driver's array parser. Memory holds this page's months and
 * lines only, so a caller paging through a game's cards holds one page whatever the game's size.
 * A series is listed by its statistics row (`variant_prices`, written with every series), in
 * that row's currency; a variant without any yields no line.
 */
export async function historyLines(
  client: Connection,
  cardUuids: readonly string[],
  previous?: PreviousHistory,
  tally?: SeriesTally,
): Promise<{ text: string; lines: number }> {
  if (cardUuids.length === 0) return { text: '', lines: 0 };
  const series = await rowsOf(
    client,
    SERIES,
    historySeriesStatement(cardUuids, previous?.version ?? NOTHING_SINCE),
  );
  const previousLines = previous
    ? await previous.linesOf(new Set(series.map((s) => s.card_id)), cardUuids[cardUuids.length - 1]!)
    : new Map<string, PreviousLine>();

  const plans = series.map((s) => planOf(s, previousLines.get(seriesKey(s.variant_uuid, s.region))));
  /** The series whose months are read, with the month to read from. */
  const toRead = plans.flatMap((plan, i) =>
    plan.kind === 'kept' ? [] : [{ i, fromMonth: plan.kind === 'from' ? plan.month : 0 }],
  );
  const months =
    toRead.length === 0
      ? []
      : await rowsOf(
          client,
          MONTH,
          historyMonthsStatement(
            toRead.map(({ i, fromMonth }) => ({
              variantUuid: series[i]!.variant_uuid,
              region: series[i]!.region,
              fromMonth,
            })),
          ),
        );

  let text = '';
  let lines = 0;
  let m = 0;
  let read = 0;
  series.forEach((s, i) => {
    const plan = plans[i]!;
    if (tally) tally[plan.kind === 'kept' ? 'kept' : plan.kind === 'from' ? 'extended' : 'readWhole']++;
    if (plan.kind === 'kept') {
      const p = plan.previous;
      text +=
        p.head.card_id === s.card_id && p.head.variant_id === s.variant_id
          ? p.text
          : lineText(s, p.head.from, p.prices);
      lines++;
      return;
    }
    // This series' months, `at` counting from 1 in `toRead`'s order.
    const at = ++read;
    const start = m;
    while (m < months.length && months[m]!.at === at) m++;
    const own = months.slice(start, m);
    /** The line's first day; the entries kept as text from the previous line, and how many. */
    let first: number;
    let kept = { text: '', count: 0 };
    if (plan.kind === 'fresh') {
      // Deleted since the series were read: the data version moved, so the file is not kept.
      if (own.length === 0) return;
      // The first month's first observation: months come in order, observations in time order.
      first =
        own[0]!.month_day + Math.floor(Number(own[0]!.offsets.slice(1, -1).split(',', 1)[0]) / DAY_SECONDS);
    } else {
      first = dayOf(plan.previous.head.from);
      kept = firstEntries(plan.previous.prices, plan.month - first);
    }
    /** The entries after the kept ones. */
    const added: (number | null)[] = [];
    const base = first + kept.count;
    const perMajor = minorUnitsPerMajor(s.currency);
    for (const r of own) {
      const offsets = r.offsets.slice(1, -1).split(',');
      const values = r.prices.slice(1, -1).split(',');
      // Observations are in time order: the day's last one overwrites its earlier ones, and days
      // without any stay null.
      for (let o = 0; o < offsets.length; o++) {
        const day = r.month_day + Math.floor(Number(offsets[o]) / DAY_SECONDS) - base;
        while (added.length <= day) added.push(null);
        added[day] = toMajor(Number(values[o]), perMajor);
      }
    }
    // The entries as JSON.stringify writes an array's, without its brackets.
    const more = JSON.stringify(added).slice(1, -1);
    text += lineText(s, dateOf(first), kept.text && more ? `${kept.text},${more}` : kept.text + more);
    lines++;
  });
  return { text, lines };
}

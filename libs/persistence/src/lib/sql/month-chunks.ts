/**
 * A price series is stored one row per UTC month: `offsets` are seconds since the month's first
 * instant, `prices` integer minor units, both ascending by time. These functions convert between
 * that layout and plain parallel arrays, and merge incoming observations idempotently.
 */
import type { GrowingPriceSeries } from '@tcg/domain';

export interface MonthChunk {
  /** Unix seconds of the month's first instant (UTC). */
  readonly monthStart: number;
  readonly offsets: number[];
  readonly prices: number[];
}

export function monthStartOf(t: number): number {
  const d = new Date(t * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
}

/** `YYYY-MM-01` for a month start, as stored in the `month` date column. */
export function monthKey(monthStart: number): string {
  return new Date(monthStart * 1000).toISOString().slice(0, 10);
}

export function splitIntoMonths(t: ArrayLike<number>, p: ArrayLike<number>): MonthChunk[] {
  const chunks: MonthChunk[] = [];
  let current: MonthChunk | undefined;
  let currentEnd = -Infinity; // the next month's start: a Date only once per month, not per point
  for (let i = 0; i < t.length; i++) {
    const ti = t[i]!;
    if (!current || ti >= currentEnd) {
      current = { monthStart: monthStartOf(ti), offsets: [], prices: [] };
      currentEnd = nextMonthStart(current.monthStart);
      chunks.push(current);
    }
    current.offsets.push(ti - current.monthStart);
    current.prices.push(p[i]!);
  }
  return chunks;
}

function nextMonthStart(monthStart: number): number {
  const d = new Date(monthStart * 1000);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) / 1000;
}

/** Concatenates chunks (any order) into one ascending series. */
export function joinChunks(chunks: readonly MonthChunk[]): GrowingPriceSeries {
  const sorted = [...chunks].sort((a, b) => a.monthStart - b.monthStart);
  const t: number[] = [];
  const p: number[] = [];
  for (const c of sorted) {
    for (let i = 0; i < c.offsets.length; i++) {
      t.push(c.monthStart + c.offsets[i]!);
      p.push(c.prices[i]!);
    }
  }
  return { t, p };
}

export interface MergeResult {
  readonly t: number[];
  readonly p: number[];
  readonly inserted: number;
  readonly updated: number;
  readonly unchanged: number;
  /** Month starts whose stored row must be rewritten. */
  readonly changedMonths: Set<number>;
}

/**
 * Merges incoming observations (ascending, unique times) into a stored series (ascending). An
 * observation at a new time is inserted; at an existing time with another price it replaces it
 * (the feed corrected itself); with the same price it is unchanged — so applying the same
 * observations twice changes nothing. Linear in the two lengths.
 */
export function mergeSeries(
  existing: { t: ArrayLike<number>; p: ArrayLike<number> },
  incoming: { t: ArrayLike<number>; p: ArrayLike<number> },
): MergeResult {
  const t: number[] = [];
  const p: number[] = [];
  let inserted = 0;
  let updated = 0;
  let unchanged = 0;
  const changedMonths = new Set<number>();
  // The month of the last change, cached so consecutive changes cost no Date arithmetic.
  let monthLo = Infinity;
  let monthHi = -Infinity;
  const markChanged = (time: number) => {
    if (time >= monthLo && time < monthHi) return;
    monthLo = monthStartOf(time);
    monthHi = nextMonthStart(monthLo);
    changedMonths.add(monthLo);
  };
  let i = 0;
  let j = 0;
  while (i < existing.t.length || j < incoming.t.length) {
    const te = i < existing.t.length ? existing.t[i]! : Infinity;
    const ti = j < incoming.t.length ? incoming.t[j]! : Infinity;
    if (te < ti) {
      t.push(te);
      p.push(existing.p[i++]!);
      continue;
    }
    const price = incoming.p[j++]!;
    if (te === ti) {
      if (existing.p[i++] === price) unchanged++;
      else {
        updated++;
        markChanged(ti);
      }
    } else {
      inserted++;
      markChanged(ti);
    }
    t.push(ti);
    p.push(price);
  }
  return { t, p, inserted, updated, unchanged, changedMonths };
}

/** Sorts observations by time; for a repeated time the later one in input order wins. */
export function normaliseSeries(points: ReadonlyArray<readonly [number, number]>): {
  t: number[];
  p: number[];
} {
  const byTime = new Map<number, number>();
  for (const [t, price] of points) byTime.set(t, price);
  const t = [...byTime.keys()].sort((a, b) => a - b);
  return { t, p: t.map((x) => byTime.get(x)!) };
}

/**
 * Appends one month row, as its arrays' text form (`{1,2,3}`) reads, to an ascending series,
 * keeping only the observations after `afterT`. The text form split here is several times cheaper
 * than the driver's general array parser.
 */
export function appendMonthText(
  series: GrowingPriceSeries,
  monthStart: number,
  offsetsText: string,
  pricesText: string,
  afterT = Number.NEGATIVE_INFINITY,
): void {
  const offsets = offsetsText.slice(1, -1).split(',');
  const prices = pricesText.slice(1, -1).split(',');
  for (let i = 0; i < offsets.length; i++) {
    const t = monthStart + Number(offsets[i]);
    if (t > afterT) {
      series.t.push(t);
      series.p.push(Number(prices[i]));
    }
  }
}

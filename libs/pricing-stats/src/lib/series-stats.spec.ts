import { computeSeriesStats, emptySeriesStats, type SeriesStats, WINDOW_SECONDS } from './series-stats';

const H = 3600;
const D = 86_400;
/** 2023-11-14T22:13:20Z */
const T = 1_700_000_000;
const utc = (y: number, m: number, d: number, hh = 0, mm = 0, ss = 0) =>
  Date.UTC(y, m - 1, d, hh, mm, ss) / 1000;
const near = (v: number): number => expect.closeTo(v, 9) as number;

type Expected = {
  [K in keyof SeriesStats]?: SeriesStats[K] extends object | null ? Partial<SeriesStats[K]> : SeriesStats[K];
};

interface Case {
  name: string;
  t: number[];
  p: number[];
  expected: Expected;
}

const cases: Case[] = [
  {
    name: 'one point: every spread is 0, changes and slope need a second point',
    t: [T],
    p: [500],
    expected: {
      current: { t: T, p: 500 },
      count: 1,
      '24h': { change: null, reference: null },
      '7d': {
        change: null,
        reference: null, // the only observation is the current one: nothing to measure from
        avg: 500,
        min: 500,
        max: 500,
        stddev: 0,
        cov: 0,
        iqr: 0,
        trendSlope: null,
        changesCount: 0,
      },
      '30d': { change: null, avg: 500, changesCount: 0, rangePosition: null },
      '90d': { change: null, avg: 500, changesCount: 0, rangePosition: null },
      '1y': { min: 500, max: 500 },
      allTime: { min: 500, max: 500, minDate: '2023-11-14', maxDate: '2023-11-14' },
    },
  },
  {
    name: 'two points an hour apart: the earliest in the window is the reference',
    t: [T - H, T],
    p: [100, 200],
    expected: {
      count: 2,
      '24h': { change: 100, reference: 100 },
      '7d': {
        change: 100,
        reference: 100,
        avg: 150,
        min: 100,
        max: 200,
        stddev: 50,
        cov: near(1 / 3),
        iqr: 50, // Q1 = 125, Q3 = 175
        trendSlope: near(2400), // +100 per hour
        changesCount: 1,
      },
      '30d': { rangePosition: 1 },
      '90d': { rangePosition: 1 },
      allTime: { min: 100, max: 200, minDate: '2023-11-14', maxDate: '2023-11-14' },
    },
  },
  {
    name: 'flat series: zero spread, zero change, no range position',
    t: [T - 3 * D, T - 2 * D, T - D, T - H, T],
    p: [700, 700, 700, 700, 700],
    expected: {
      '24h': { change: 0 },
      '7d': {
        change: 0,
        avg: 700,
        min: 700,
        max: 700,
        stddev: 0,
        cov: 0,
        iqr: 0,
        trendSlope: 0,
        changesCount: 0,
      },
      '30d': { change: 0, stddev: 0, rangePosition: null },
      '90d': { change: 0, rangePosition: null },
    },
  },
  {
    name: 'textbook spread: 2 4 4 4 5 5 7 9 has mean 5 and population stddev 2',
    t: [T - 7 * H, T - 6 * H, T - 5 * H, T - 4 * H, T - 3 * H, T - 2 * H, T - H, T],
    p: [2, 4, 4, 4, 5, 5, 7, 9],
    expected: {
      '24h': { change: 350 },
      '7d': {
        change: 350,
        avg: 5,
        min: 2,
        max: 9,
        stddev: 2,
        cov: 0.4,
        iqr: 1.5, // Q1 at position 1.75 = 4, Q3 at position 5.25 = 5.5
        changesCount: 4,
      },
      '30d': { rangePosition: 1 },
    },
  },
  {
    name: 'quartiles interpolate between order statistics (numpy / percentile_cont)',
    t: [T - 3 * H, T - 2 * H, T - H, T],
    p: [4, 1, 3, 2],
    expected: { '7d': { iqr: 1.5 }, '30d': { iqr: 1.5, rangePosition: near(1 / 3) } }, // 1.75 .. 3.25
  },
  {
    name: 'quartiles on an odd count land on order statistics',
    t: [T - 4 * H, T - 3 * H, T - 2 * H, T - H, T],
    p: [10, 1, 2, 3, 4],
    expected: { '7d': { iqr: 2, min: 1, max: 10 }, '90d': { rangePosition: near(3 / 9) } },
  },
  {
    name: 'least-squares slope in units per day over uneven gaps',
    t: [T - 5 * D, T - 2 * D, T],
    p: [80, 100, 120],
    expected: {
      '24h': { change: 20, reference: 100 }, // the latest at or before t_now - 24h
      '7d': { change: 50, reference: 80, trendSlope: near(900 / 114) }, // the window's earliest
    },
  },
  {
    name: 'a falling series has a negative slope and range position 0',
    t: [T - 2 * D, T - D, T],
    p: [300, 200, 100],
    expected: {
      '7d': { change: near(-200 / 3), trendSlope: near(-100) },
      '30d': { rangePosition: 0 },
    },
  },
  {
    name: 'zero reference price: change is null; a non-zero mean keeps cov',
    t: [T - 2 * D, T - H, T],
    p: [0, 0, 300],
    expected: {
      '24h': { change: null, reference: 0 },
      '7d': {
        change: null,
        reference: 0,
        avg: 100,
        stddev: near(Math.sqrt(20_000)),
        cov: near(Math.SQRT2),
        changesCount: 1,
      },
      '30d': { rangePosition: 1 },
    },
  },
  {
    name: 'all prices zero: avg 0 makes cov null, max = min makes range position null',
    t: [T - H, T],
    p: [0, 0],
    expected: {
      '24h': { change: null },
      '7d': { change: null, avg: 0, stddev: 0, cov: null, iqr: 0, trendSlope: 0, changesCount: 0 },
      '30d': { rangePosition: null },
      allTime: { min: 0, max: 0 },
    },
  },
  {
    name: 'a current price of zero is a change of -100%',
    t: [T - H, T],
    p: [200, 0],
    expected: {
      '24h': { change: -100, reference: 200 },
      '7d': { change: -100, reference: 200, avg: 100 },
      '30d': { rangePosition: 0 },
    },
  },
  {
    name: 'an observation exactly at t_now - W is the reference, not part of the window',
    t: [T - 7 * D, T - D, T],
    p: [50, 100, 200],
    expected: {
      '24h': { change: 100, reference: 100 }, // T - D is the 24h reference
      // T - 7d is outside, and the reference
      '7d': { change: 300, reference: 50, avg: 150, min: 100, changesCount: 1 },
      '30d': { change: 300, reference: 50, avg: near(350 / 3), min: 50, changesCount: 2 },
    },
  },
  {
    name: 'changes are counted only between pairs that are both inside the window',
    t: [T - 8 * D, T - 6 * D, T - D, T],
    p: [1, 2, 2, 3],
    expected: {
      '7d': { changesCount: 1, change: 200 },
      '30d': { changesCount: 2, change: 200 },
    },
  },
  {
    name: 'a series longer than a year: 1y drops the old points, allTime keeps them',
    t: [T - 400 * D, T - 365 * D, T - 200 * D, T - 100 * D, T],
    p: [10, 5, 1000, 500, 600],
    expected: {
      count: 5,
      '7d': { avg: 600, changesCount: 0, change: 20, reference: 500 }, // T - 100d, long before
      '90d': { avg: 600, min: 600, max: 600, change: 20, reference: 500, rangePosition: null },
      '1y': { min: 500, max: 1000 }, // T - 365d is exactly on the boundary: outside
      allTime: { min: 5, max: 1000, minDate: '2022-11-14', maxDate: '2023-04-28' },
    },
  },
  {
    name: 'a repeated low or high dates from its earliest occurrence',
    t: [utc(2024, 1, 1, 12), utc(2024, 1, 2, 12), utc(2024, 1, 3, 12), utc(2024, 1, 4, 12)],
    p: [300, 100, 300, 100],
    expected: { allTime: { min: 100, max: 300, minDate: '2024-01-02', maxDate: '2024-01-01' } },
  },
  {
    name: 'dates are UTC calendar days either side of midnight',
    t: [utc(2024, 3, 10, 23, 59, 59), utc(2024, 3, 11)],
    p: [100, 900],
    expected: {
      '24h': { change: 800 },
      allTime: { min: 100, max: 900, minDate: '2024-03-10', maxDate: '2024-03-11' },
    },
  },
  {
    name: 'dates across a leap day',
    t: [utc(2024, 2, 29, 23, 59, 59), utc(2024, 3, 1)],
    p: [900, 100],
    expected: { allTime: { minDate: '2024-03-01', maxDate: '2024-02-29' } },
  },
  {
    name: 'dates at the epoch and on a century leap day',
    t: [0, utc(2000, 2, 29)],
    p: [5, 1],
    expected: {
      '7d': { change: -80 },
      '1y': { min: 1, max: 1 },
      allTime: { min: 1, max: 5, minDate: '2000-02-29', maxDate: '1970-01-01' },
    },
  },
  {
    name: 'prices near 10^9 with a spread of one unit keep an exact stddev',
    t: [T - 3 * H, T - 2 * H, T - H, T],
    p: [999_999_999, 1_000_000_000, 999_999_999, 1_000_000_000],
    expected: {
      '7d': {
        avg: 999_999_999.5,
        stddev: near(0.5),
        cov: near(0.5 / 999_999_999.5),
        iqr: 1,
        changesCount: 3,
        trendSlope: near(0.2 * 24), // +1 per 5 hours
      },
    },
  },
];

describe('computeSeriesStats', () => {
  it('returns every value null for an empty series', () => {
    const stats = computeSeriesStats([], []);
    expect(stats).toEqual(emptySeriesStats());
    expect(stats.current).toBeNull();
    expect(stats.count).toBe(0);
    expect(stats['24h'].change).toBeNull();
    for (const w of ['7d', '30d', '90d'] as const) {
      expect(Object.values(stats[w]).every((v) => v === null)).toBe(true);
    }
    expect(stats['30d'].rangePosition).toBeNull();
    expect(stats['1y']).toEqual({ min: null, max: null });
    expect(stats.allTime).toEqual({ min: null, max: null, minDate: null, maxDate: null });
  });

  it.each(cases)('$name', ({ t, p, expected }) => {
    expect(computeSeriesStats(t, p)).toMatchObject(expected);
  });

  it('accepts typed arrays and plain arrays alike, and leaves the input untouched', () => {
    const t = [T - 9 * D, T - 3 * D, T - 2 * H, T - H, T];
    const p = [30, 10, 50, 20, 40];
    const fromArrays = computeSeriesStats(t, p);
    expect(computeSeriesStats(Int32Array.from(t), Float64Array.from(p))).toEqual(fromArrays);
    expect(p).toEqual([30, 10, 50, 20, 40]);
  });

  it('rejects times and prices of different lengths', () => {
    expect(() => computeSeriesStats([T - H, T], [1])).toThrow(RangeError);
  });

  it('defines the windows in seconds, 1y as 365 days', () => {
    expect(WINDOW_SECONDS).toEqual({ '24h': D, '7d': 7 * D, '30d': 30 * D, '90d': 90 * D, '1y': 365 * D });
  });

  it('returns a fresh result each call', () => {
    const a = emptySeriesStats();
    a['7d'].avg = 1;
    expect(emptySeriesStats()['7d'].avg).toBeNull();
  });
});

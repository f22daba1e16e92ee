import { computeSeriesStats } from '@tcg/pricing-stats';
import { renderSeries } from './rendered-series';
import { ALL_STATISTIC_WINDOWS, V1_NO_HISTORY, v1HistoryMembers, v1StatsMembers } from './v1';
import { ALL_PERIOD_WINDOWS, v2HistoryMember, v2PeriodsMember, v2PriceMembers } from './v2';

const DAY = 86_400;
const T0 = 1_767_225_600; // 2026-01-01
/** 40 daily observations, 10.00 USD rising by a cent a day. */
const series = {
  t: Array.from({ length: 40 }, (_, i) => T0 + i * DAY),
  p: Array.from({ length: 40 }, (_, i) => 1000 + i),
};
const latest = series.t[39]!;
const stats = computeSeriesStats(series.t, series.p);

describe('v1 rendering', () => {
  it('shows the empty statistics for windows not asked for, and for a variant without observations', () => {
    const some = JSON.parse(`{${v1StatsMembers(stats, new Set(['7d']))}}`) as Record<string, unknown>;
    expect(some).toMatchObject({ price: 10.39, avgPrice: 10.36, avgPrice30d: null, minPrice1y: null });
    expect(some['priceChangesCount30d']).toBe(
      JSON.parse(`{${v1StatsMembers(null, new Set())}}`).priceChangesCount30d,
    );
    const none = JSON.parse(`{${v1StatsMembers(null, ALL_STATISTIC_WINDOWS)}}`) as Record<string, unknown>;
    expect(none).toMatchObject({ price: null, lastUpdated: null, avgPrice: null, maxPriceAllTimeDate: null });
    expect(JSON.parse(`{${v1HistoryMembers(undefined, undefined, 7 * DAY)}}`)).toEqual({
      priceHistory: [],
      priceHistory30d: [],
    });
    expect(JSON.parse(`{${V1_NO_HISTORY}}`)).toEqual({ priceHistory: null, priceHistory30d: null });
  });
});

describe('v2 rendering', () => {
  it('quotes zero-decimal currencies in whole units and leaves a market without data empty', () => {
    expect(JSON.parse(`{${v2PriceMembers(stats, 'JPY')}}`)).toMatchObject({ price: 1039 });
    expect(JSON.parse(`{${v2HistoryMember(latest, series, DAY, 'JPY')}}`)).toEqual({
      price_history: [{ t: latest, p: 1039 }],
    });
    expect(
      JSON.parse(`{${v2PriceMembers(null, 'USD')},${v2PeriodsMember(null, 'USD', ALL_PERIOD_WINDOWS)}}`),
    ).toEqual({
      price: null,
      updated_at: null,
      change_24h_pct: null,
      source: null,
      periods: {},
    });
  });
});

describe('renderSeries', () => {
  it('renders what a default request of each version sends, v1 parts only in v1 region (NA)', () => {
    const na = renderSeries('NA', 'USD', stats, series, 'tcgplayer');
    expect(na.v1Stats).toBe(v1StatsMembers(stats, ALL_STATISTIC_WINDOWS));
    expect(na.v1History).toBe(v1HistoryMembers(latest, series, 7 * DAY));
    expect(na.v2Periods).toBe(v2PeriodsMember(stats, 'USD', ALL_PERIOD_WINDOWS));
    expect(na.v2History).toBe(v2HistoryMember(latest, series, 7 * DAY, 'USD'));
    const jp = renderSeries('JP', 'JPY', stats, series, 'simulated');
    expect(jp.v1Stats).toBeNull();
    expect(jp.v1History).toBeNull();
    expect(jp.v2Price).toBe(v2PriceMembers(stats, 'JPY', 'simulated'));
    expect(JSON.parse(`{${na.v2Price}}`)).toMatchObject({ source: 'tcgplayer' });
  });

  it('renders the same parts from the last 30 days as from the whole series', () => {
    const recent = { t: series.t.slice(-31), p: series.p.slice(-31) };
    expect(renderSeries('NA', 'USD', stats, recent, 'simulated')).toEqual(
      renderSeries('NA', 'USD', stats, series, 'simulated'),
    );
  });
});

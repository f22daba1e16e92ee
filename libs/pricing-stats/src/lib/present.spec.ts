import { computeSeriesStats } from './series-stats';
import { presentStats } from './present';

describe('presentStats', () => {
  it('turns minor units into rounded major units, once', () => {
    const day = 86_400;
    const t = [0, day, 2 * day, 3 * day].map((x) => 1_700_000_000 + x);
    const p = [1000, 1001, 1003, 1006]; // cents
    const s = presentStats(computeSeriesStats(t, p));
    expect(s.price).toBe(10.06);
    expect(s.updatedAt).toBe(t[3]);
    expect(s.change24h).toBe(0.3); // (1006-1003)/1003 = 0.299 %
    expect(s['7d']).toMatchObject({ avg: 10.03, min: 10, max: 10.06, changesCount: 3, change: 0.6 });
    expect(s['7d'].trendSlope).toBe(0.02); // least squares: Sxy/Sxx = 10/5 = 2 cents a day
    expect(s['30d'].rangePosition).toBe(1);
    expect(s.allTime).toEqual({ min: 10, max: 10.06, minDate: '2023-11-14', maxDate: '2023-11-17' });
  });

  it('keeps nulls null and quotes zero-decimal currencies as they are', () => {
    const s = presentStats(computeSeriesStats([1_700_000_000], [1500]), 1);
    expect(s.price).toBe(1500);
    expect(s.change24h).toBeNull();
    expect(s['7d'].trendSlope).toBeNull();
    expect(s['30d'].rangePosition).toBeNull();
  });
});

import fc from 'fast-check';
import { percentChange } from './change';
import { referenceSeriesStats } from './reference';
import { computeSeriesStats, type SeriesStats, WINDOW_SECONDS } from './series-stats';

const D = 86_400;
const MAX_PRICE = 1_000_000_000;

interface Series {
  t: number[];
  p: number[];
}

type PriceStep = { kind: 'repeat' } | { kind: 'set'; value: number } | { kind: 'step'; delta: number };

const set = (min: number, max: number) =>
  fc.integer({ min, max }).map((value): PriceStep => ({ kind: 'set', value }));

// Flat stretches, zeros, small and large prices, and near-10^9 prices a unit apart (the case where
// a one-pass variance would cancel).
const priceStep: fc.Arbitrary<PriceStep> = fc.oneof(
  { arbitrary: fc.constant<PriceStep>({ kind: 'repeat' }), weight: 4 },
  { arbitrary: fc.constant<PriceStep>({ kind: 'set', value: 0 }), weight: 1 },
  { arbitrary: set(0, 100), weight: 1 },
  { arbitrary: set(0, MAX_PRICE), weight: 2 },
  { arbitrary: set(MAX_PRICE - 10, MAX_PRICE), weight: 1 },
  {
    arbitrary: fc.integer({ min: -1000, max: 1000 }).map((delta): PriceStep => ({ kind: 'step', delta })),
    weight: 3,
  },
);

// Each series has its own cadence, from seconds apart to weeks apart, or a mix. Whole days put
// observations exactly on window boundaries (t_now - W), which must fall outside the window.
const gap: fc.Arbitrary<fc.Arbitrary<number>> = fc.constantFrom(
  fc.integer({ min: 1, max: 600 }),
  fc.integer({ min: 1, max: 10 }).map((days) => days * D),
  fc.integer({ min: 60, max: 14_400 }),
  fc.integer({ min: 3600, max: 3 * D }),
  fc.integer({ min: D, max: 42 * D }),
  fc.oneof(
    fc.integer({ min: 1, max: 120 }),
    fc.integer({ min: 60, max: 6 * 3600 }),
    fc.integer({ min: 3600, max: 2 * D }),
    fc.integer({ min: D, max: 21 * D }),
    fc.constantFrom(D, 7 * D, 30 * D),
  ),
);

const seriesArb = (maxLength: number): fc.Arbitrary<Series> =>
  gap.chain((g) =>
    fc
      .record({
        t0: fc.integer({ min: 0, max: 4_000_000_000 }),
        p0: fc.integer({ min: 0, max: MAX_PRICE }),
        steps: fc.array(fc.tuple(g, priceStep), { maxLength, size: 'max' }),
      })
      .map(({ t0, p0, steps }) => {
        const t: number[] = [];
        const p: number[] = [];
        let time = t0;
        let price = p0;
        for (const [dt, step] of steps) {
          if (t.length > 0) time += dt;
          if (step.kind === 'set') price = step.value;
          else if (step.kind === 'step') price = Math.min(MAX_PRICE, Math.max(0, price + step.delta));
          t.push(time);
          p.push(price);
        }
        return { t, p };
      }),
  );

/** Population standard deviation of the window's times in days (the slope's natural scale). */
function timeSpreadDays(s: Series, seconds: number): number {
  const now = s.t[s.t.length - 1];
  const days = s.t.filter((x) => x > now - seconds).map((x) => (x - now) / D);
  const mean = days.reduce((a, b) => a + b, 0) / days.length;
  return Math.sqrt(days.reduce((a, b) => a + (b - mean) ** 2, 0) / days.length);
}

function expectClose(
  path: string,
  actual: number | null,
  expected: number | null,
  rel: number,
  abs: number,
): void {
  if (actual === null || expected === null) {
    if (actual !== expected) throw new Error(`${path}: got ${actual}, expected ${expected}`);
    return;
  }
  if (!(Math.abs(actual - expected) <= abs + rel * Math.abs(expected))) {
    throw new Error(`${path}: got ${actual}, expected ${expected}`);
  }
}

function expectMatchesReference(s: Series, actual: SeriesStats, expected: SeriesStats): void {
  expect(actual.current).toEqual(expected.current);
  expect(actual.count).toBe(expected.count);
  expect(actual['1y']).toEqual(expected['1y']);
  expect(actual.allTime).toEqual(expected.allTime);
  expectClose('24h.change', actual['24h'].change, expected['24h'].change, 1e-12, 1e-9);
  expect(['24h', actual['24h'].reference]).toEqual(['24h', expected['24h'].reference]);
  for (const w of ['7d', '30d', '90d'] as const) {
    const a = actual[w];
    const e = expected[w];
    expect([w, a.min, a.max, a.changesCount, a.reference]).toEqual([
      w,
      e.min,
      e.max,
      e.changesCount,
      e.reference,
    ]);
    expectClose(`${w}.change`, a.change, e.change, 1e-12, 1e-9);
    expectClose(`${w}.avg`, a.avg, e.avg, 1e-12, 1e-6);
    expectClose(`${w}.iqr`, a.iqr, e.iqr, 1e-12, 1e-6);
    expectClose(`${w}.stddev`, a.stddev, e.stddev, 1e-9, 1e-6);
    expectClose(`${w}.cov`, a.cov, e.cov, 1e-9, 1e-12);
    // Both sides carry rounding error proportional to stddev(p) / stddev(t), not to the slope
    // itself (which may be ~0 for uncorrelated prices), so the tolerance is relative to that scale.
    const scale = e.trendSlope === null ? 0 : (e.stddev ?? 0) / timeSpreadDays(s, WINDOW_SECONDS[w]);
    expectClose(`${w}.trendSlope`, a.trendSlope, e.trendSlope, 1e-9, 1e-6 + 1e-9 * scale);
  }
  expectClose('30d.rangePosition', actual['30d'].rangePosition, expected['30d'].rangePosition, 1e-12, 1e-12);
  expectClose('90d.rangePosition', actual['90d'].rangePosition, expected['90d'].rangePosition, 1e-12, 1e-12);
}

describe('computeSeriesStats against the literal reference', () => {
  it('agrees on random series (seconds to weeks apart, 0-400 points, flat stretches and zeros)', () => {
    fc.assert(
      fc.property(seriesArb(400), (s) => {
        const before = { t: [...s.t], p: [...s.p] };
        const actual = computeSeriesStats(s.t, s.p);
        expectMatchesReference(s, actual, referenceSeriesStats(s.t, s.p));
        expect(s).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('agrees on typed-array input', () => {
    fc.assert(
      fc.property(seriesArb(100), (s) => {
        const actual = computeSeriesStats(Float64Array.from(s.t), Int32Array.from(s.p));
        expectMatchesReference(s, actual, referenceSeriesStats(s.t, s.p));
      }),
      { numRuns: 50 },
    );
  });
});

describe('computeSeriesStats invariants', () => {
  it('ignores everything before a window except the reference point of its change', () => {
    fc.assert(
      fc.property(
        seriesArb(150).filter((s) => s.t.length > 0),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 60 * D }), fc.integer({ min: 0, max: MAX_PRICE })), {
          minLength: 1,
          maxLength: 20,
        }),
        (s, older) => {
          // Prepend observations outside every window (at or before t_now - 1y) and before the first one.
          const now = s.t[s.t.length - 1];
          let time = Math.min(s.t[0], now - WINDOW_SECONDS['1y'] + 1);
          const t: number[] = [];
          const p: number[] = [];
          for (const [dt, price] of older) {
            time -= dt;
            t.unshift(time);
            p.unshift(price);
          }
          const base = computeSeriesStats(s.t, s.p);
          const longer = computeSeriesStats([...t, ...s.t], [...p, ...s.p]);
          const lastOlder = p[p.length - 1];

          expect(longer.count).toBe(base.count + older.length);
          expect(longer.current).toEqual(base.current);
          expect(longer['1y']).toEqual(base['1y']);
          for (const w of ['24h', '7d', '30d', '90d'] as const) {
            const { change, reference, ...rest } = longer[w];
            const { change: baseChange, reference: baseReference, ...baseRest } = base[w];
            expect(rest).toEqual(baseRest);
            const hadReference = s.t[0] <= now - WINDOW_SECONDS[w];
            expect(reference).toBe(hadReference ? baseReference : lastOlder);
            const expectedChange = hadReference
              ? baseChange
              : lastOlder === 0
                ? null
                : ((s.p[s.p.length - 1] - lastOlder) / lastOlder) * 100;
            expect(change).toBe(expectedChange);
          }
          expect(longer.allTime.min).toBe(Math.min(base.allTime.min ?? Infinity, ...p));
          expect(longer.allTime.max).toBe(Math.max(base.allTime.max ?? -Infinity, ...p));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("states each window's change as percentChange of the current price and its reference", () => {
    fc.assert(
      fc.property(seriesArb(200), (s) => {
        const st = computeSeriesStats(s.t, s.p);
        for (const w of ['24h', '7d', '30d', '90d'] as const) {
          expect(st[w].change).toBe(percentChange(st.current?.p ?? null, st[w].reference));
          // Only a one-point series has nothing to measure from.
          expect(st[w].reference === null).toBe(s.t.length <= 1);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('nests the windows: wider windows never have a narrower range or fewer changes', () => {
    fc.assert(
      fc.property(
        seriesArb(400).filter((s) => s.t.length > 0),
        (s) => {
          const st = computeSeriesStats(s.t, s.p);
          const order = [st['7d'], st['30d'], st['90d'], st['1y'], st.allTime];
          for (let i = 1; i < order.length; i++) {
            expect(order[i].min).toBeLessThanOrEqual(order[i - 1].min as number);
            expect(order[i].max).toBeGreaterThanOrEqual(order[i - 1].max as number);
          }
          expect(st['30d'].changesCount).toBeGreaterThanOrEqual(st['7d'].changesCount as number);
          expect(st['90d'].changesCount).toBeGreaterThanOrEqual(st['30d'].changesCount as number);
          for (const w of ['30d', '90d'] as const) {
            const r = st[w].rangePosition;
            if (r !== null) {
              expect(r).toBeGreaterThanOrEqual(0);
              expect(r).toBeLessThanOrEqual(1);
            }
          }
          const pNow = s.p[s.p.length - 1];
          expect(st['7d'].min).toBeLessThanOrEqual(pNow);
          expect(st['7d'].max).toBeGreaterThanOrEqual(pNow);
        },
      ),
      { numRuns: 100 },
    );
  });
});

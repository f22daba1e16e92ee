import fc from 'fast-check';
import {
  joinChunks,
  mergeSeries,
  monthKey,
  monthStartOf,
  normaliseSeries,
  splitIntoMonths,
} from './month-chunks';

const JAN_31 = Date.UTC(2026, 0, 31, 23, 59, 59) / 1000;
const FEB_1 = Date.UTC(2026, 1, 1) / 1000;

describe('month chunks', () => {
  it('splits at UTC month boundaries and joins back', () => {
    const t = [JAN_31 - 86_400, JAN_31, FEB_1, FEB_1 + 3600];
    const p = [1, 2, 3, 4];
    const chunks = splitIntoMonths(t, p);
    expect(chunks.map((c) => monthKey(c.monthStart))).toEqual(['2026-01-01', '2026-02-01']);
    expect(chunks[1]).toEqual({ monthStart: FEB_1, offsets: [0, 3600], prices: [3, 4] });
    expect(joinChunks([...chunks].reverse())).toEqual({ t, p });
    expect(monthStartOf(JAN_31)).toBe(Date.UTC(2026, 0, 1) / 1000);
  });

  it('round-trips any ascending series', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 2_000_000_000 }), { maxLength: 200 }), (times) => {
        const t = [...times].sort((a, b) => a - b);
        const p = t.map((x) => x % 997);
        expect(joinChunks(splitIntoMonths(t, p))).toEqual({ t, p });
      }),
    );
  });
});

describe('mergeSeries', () => {
  it('counts inserts, corrections and repeats, and marks the months to rewrite', () => {
    const existing = { t: [10, 20, FEB_1], p: [1, 2, 3] };
    const merged = mergeSeries(existing, { t: [20, 30, FEB_1], p: [5, 6, 3] });
    expect(merged).toMatchObject({
      t: [10, 20, 30, FEB_1],
      p: [1, 5, 6, 3],
      inserted: 1,
      updated: 1,
      unchanged: 1,
    });
    expect([...merged.changedMonths]).toEqual([monthStartOf(20)]);
  });

  it('agrees with a map-based reference and is idempotent', () => {
    const series = fc
      .uniqueArray(fc.integer({ min: 0, max: 10_000_000 }), { maxLength: 60 })
      .chain((ts) =>
        fc.tuple(
          fc.constant([...ts].sort((a, b) => a - b)),
          fc.array(fc.integer({ min: 0, max: 5 }), { minLength: ts.length, maxLength: ts.length }),
        ),
      );
    fc.assert(
      fc.property(series, series, ([et, ep], [it, ip]) => {
        const merged = mergeSeries({ t: et, p: ep }, { t: it, p: ip });
        const ref = new Map<number, number>(et.map((x, k) => [x, ep[k]!]));
        for (let k = 0; k < it.length; k++) ref.set(it[k]!, ip[k]!);
        const times = [...ref.keys()].sort((a, b) => a - b);
        expect(merged.t).toEqual(times);
        expect(merged.p).toEqual(times.map((x) => ref.get(x)));
        const again = mergeSeries(merged, { t: it, p: ip });
        expect(again.inserted + again.updated).toBe(0);
        expect(again.changedMonths.size).toBe(0);
      }),
    );
  });

  it('normalises unsorted rows, the later duplicate winning', () => {
    expect(
      normaliseSeries([
        [30, 1],
        [10, 2],
        [30, 3],
      ]),
    ).toEqual({ t: [10, 30], p: [2, 3] });
  });
});

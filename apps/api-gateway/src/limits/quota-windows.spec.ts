import fc from 'fast-check';
import type { QuotaWindow } from './quota';
import {
  assertConsumeArguments,
  buildQuotaDecision,
  dayWindow,
  exceededWindows,
  minuteWindow,
  monthWindow,
  mostBindingWindow,
  quotaWindows,
} from './quota-windows';

const at = (iso: string): number => Date.parse(iso);
const DAY = 86_400;

describe('quota windows', () => {
  it.each([
    // now, minute id, day id, month id, minute / day / month resetSeconds
    ['2026-11-22T12:34:56.789Z', 'm:29922514', 'd:20261122', 'M:202611', 4, 41_104, 8 * DAY + 41_104],
    ['2026-11-30T23:59:59.999Z', 'm:29934719', 'd:20261130', 'M:202611', 1, 1, 1],
    ['2026-12-01T00:00:00.000Z', 'm:29934720', 'd:20261201', 'M:202612', 60, DAY, 31 * DAY],
    ['1970-01-01T00:00:00.000Z', 'm:0', 'd:19700101', 'M:197001', 60, DAY, 31 * DAY],
  ])('%s → %s %s %s', (now, minuteId, dayId, monthId, minuteReset, dayReset, monthReset) => {
    const spans = quotaWindows(at(now));
    expect(spans.minute).toMatchObject({ id: minuteId, resetSeconds: minuteReset });
    expect(spans.day).toMatchObject({ id: dayId, resetSeconds: dayReset });
    expect(spans.month).toMatchObject({ id: monthId, resetSeconds: monthReset });
  });

  it.each([
    ['2026-11-22T12:34:00.000Z', 60],
    ['2026-11-22T12:34:00.001Z', 60],
    ['2026-11-22T12:34:58.999Z', 2],
    ['2026-11-22T12:34:59.000Z', 1],
    ['2026-11-22T12:34:59.999Z', 1],
  ])('the minute of %s resets in %i s', (now, resetSeconds) => {
    const w = minuteWindow(at(now));
    expect(w.resetSeconds).toBe(resetSeconds);
    expect(w.endMs).toBe(at('2026-11-22T12:35:00.000Z'));
  });

  it.each([
    ['2026-11-22T23:59:59.999Z', 'd:20261122', '2026-11-23T00:00:00.000Z'],
    ['2026-11-23T00:00:00.000Z', 'd:20261123', '2026-11-24T00:00:00.000Z'],
    ['2026-12-31T23:59:30.000Z', 'd:20261231', '2027-01-01T00:00:00.000Z'],
    ['2024-02-28T12:00:00.000Z', 'd:20240228', '2024-02-29T00:00:00.000Z'],
    ['2024-02-29T12:00:00.000Z', 'd:20240229', '2024-03-01T00:00:00.000Z'],
  ])('the UTC day of %s is %s, ending %s', (now, id, end) => {
    expect(dayWindow(at(now))).toMatchObject({ id, endMs: at(end) });
  });

  it.each([
    // month start, its length in days (UTC, leap years included)
    ['2026-01-01T00:00:00.000Z', 'M:202601', 31],
    ['2026-02-01T00:00:00.000Z', 'M:202602', 28],
    ['2024-02-01T00:00:00.000Z', 'M:202402', 29],
    ['2000-02-01T00:00:00.000Z', 'M:200002', 29],
    ['2100-02-01T00:00:00.000Z', 'M:210002', 28],
    ['2026-04-01T00:00:00.000Z', 'M:202604', 30],
    ['2026-12-01T00:00:00.000Z', 'M:202612', 31],
  ])('the UTC month starting %s (%s) lasts %i days', (start, id, days) => {
    const w = monthWindow(at(start));
    expect(w.id).toBe(id);
    expect(w.resetSeconds).toBe(days * DAY);
    expect(monthWindow(w.endMs - 1).id).toBe(id);
    expect(monthWindow(w.endMs).id).not.toBe(id);
  });

  it('contains now, keeps its id until its end and resets within its length', () => {
    const longest: Record<QuotaWindow, number> = { minute: 60, day: DAY, month: 31 * DAY };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: at('2200-01-01T00:00:00.000Z') }), (now) => {
        const spans = quotaWindows(now);
        for (const w of ['minute', 'day', 'month'] as const) {
          const s = spans[w];
          expect(s.endMs).toBeGreaterThan(now);
          expect(s.resetSeconds).toBeGreaterThanOrEqual(1);
          expect(s.resetSeconds).toBeLessThanOrEqual(longest[w]);
          expect(quotaWindows(s.endMs - 1)[w].id).toBe(s.id);
          expect(quotaWindows(s.endMs)[w].id).not.toBe(s.id);
        }
        expect(spans.minute.endMs).toBeLessThanOrEqual(spans.day.endMs);
        expect(spans.day.endMs).toBeLessThanOrEqual(spans.month.endMs);
      }),
    );
  });

  it('answers every instant as if computed afresh, whichever instant came before', () => {
    const instant = fc.oneof(
      fc.integer({ min: 1, max: at('2200-01-01T00:00:00.000Z') }),
      // the last and first milliseconds around window ends, where a reused answer would be wrong
      fc
        .tuple(fc.integer({ min: 1, max: 3_000_000 }), fc.constantFrom(-1, 0, 999, 1000))
        .map(([minute, offset]) => minute * 60_000 + offset),
    );
    fc.assert(
      fc.property(fc.array(instant, { minLength: 2, maxLength: 20 }), (instants) => {
        for (const now of [...instants, ...instants.map((n) => n + 1), ...instants.map((n) => n - 1)]) {
          expect(quotaWindows(now)).toEqual({
            minute: minuteWindow(now),
            day: dayWindow(now),
            month: monthWindow(now),
          });
        }
      }),
    );
  });
});

describe('mostBindingWindow', () => {
  const mid = quotaWindows(at('2026-11-22T12:34:56.789Z'));
  const lastMinuteOfMonth = quotaWindows(at('2026-11-30T23:59:30.000Z'));

  it.each<[string, QuotaWindow[], typeof mid, QuotaWindow | undefined, number | undefined]>([
    ['nothing exceeded', [], mid, undefined, undefined],
    ['the minute alone', ['minute'], mid, 'minute', 4],
    ['the day alone', ['day'], mid, 'day', 41_104],
    ['minute and day: the day resets later', ['minute', 'day'], mid, 'day', 41_104],
    ['all three: the month resets last', ['day', 'month', 'minute'], mid, 'month', 8 * DAY + 41_104],
    [
      'a tie at the month end names the widest window',
      ['minute', 'day', 'month'],
      lastMinuteOfMonth,
      'month',
      30,
    ],
    ['a tie between minute and day names the day', ['minute', 'day'], lastMinuteOfMonth, 'day', 30],
  ])('%s', (_name, exceeded, spans, window, retryAfterSeconds) => {
    const binding = mostBindingWindow(exceeded, spans);
    expect(binding?.window).toBe(window);
    expect(binding?.retryAfterSeconds).toBe(retryAfterSeconds);
  });
});

describe('decisions', () => {
  const limits = { minute: 10, day: 100, month: 1000 };
  const spans = quotaWindows(at('2026-11-22T12:34:56.789Z'));

  it.each<[number, number, number, number, QuotaWindow[]]>([
    [9, 9, 9, 1, []],
    [9, 9, 9, 2, ['minute']],
    [0, 99, 999, 2, ['day', 'month']],
    [10, 100, 1000, 0, []],
    [11, 0, 0, 0, ['minute']],
  ])('used %i/%i/%i + cost %i exceeds %j', (minute, day, month, cost, exceeded) => {
    expect(exceededWindows({ minute, day, month }, cost, limits)).toEqual(exceeded);
  });

  it('reports the usage and the most binding window of a refusal', () => {
    const decision = buildQuotaDecision({ minute: 10, day: 100, month: 5 }, ['minute', 'day'], limits, spans);
    expect(decision).toEqual({
      admitted: false,
      exceeded: 'day',
      retryAfterSeconds: 41_104,
      usage: {
        minute: { limit: 10, used: 10, resetSeconds: 4 },
        day: { limit: 100, used: 100, resetSeconds: 41_104 },
        month: { limit: 1000, used: 5, resetSeconds: 8 * DAY + 41_104 },
      },
    });
  });

  it.each<[string, number, Partial<typeof limits>]>([
    ['', 1, {}],
    ['k', -1, {}],
    ['k', 1.5, {}],
    ['k', Number.NaN, {}],
    ['k', 1, { minute: -1 }],
    ['k', 1, { day: 2.5 }],
    ['k', 1, { month: Number.POSITIVE_INFINITY }],
  ])('rejects key %j, cost %d, limits %j', (keyId, cost, override) => {
    expect(() => assertConsumeArguments(keyId, cost, { ...limits, ...override })).toThrow(RangeError);
  });
});

import { afterFailure } from './retry-policy';

const FIRED = new Date('2026-11-27T00:00:00Z');
const at = (ms: number) => new Date(FIRED.getTime() + ms);
const POLICY = { baseMs: 30_000, windowMs: 86_400_000 };

describe('afterFailure', () => {
  it.each([
    [1, 0, 15_000],
    [1, 1, 30_000],
    [2, 0, 30_000],
    [3, 1, 120_000],
    [9, 0, 3_600_000], // 30 s · 2^8 = 2.1 h, capped at 2 h
    [20, 1, 7_200_000],
  ])('attempt %i with jitter %d waits %i ms', (attempt, jitter, waitMs) => {
    expect(afterFailure(attempt, FIRED, FIRED, POLICY, () => jitter)).toEqual({ retryAt: at(waitMs) });
  });

  it('makes every gap longer than the one before, whatever the jitter', () => {
    for (let attempt = 1; attempt < 8; attempt++) {
      const longest = afterFailure(attempt, FIRED, FIRED, POLICY, () => 1);
      const shortestNext = afterFailure(attempt + 1, FIRED, FIRED, POLICY, () => 0);
      expect('retryAt' in shortestNext && 'retryAt' in longest).toBe(true);
      if ('retryAt' in shortestNext && 'retryAt' in longest)
        expect(shortestNext.retryAt.getTime()).toBeGreaterThanOrEqual(longest.retryAt.getTime());
    }
  });

  it('gives up once the next attempt would fall past the window', () => {
    const late = at(86_400_000 - 1_000);
    expect(afterFailure(12, FIRED, late, POLICY, () => 0)).toEqual({ giveUp: 'deliveries failed for 24 h' });
    expect(afterFailure(1, FIRED, at(60_000), { baseMs: 100, windowMs: 3_000 }, () => 0)).toEqual({
      giveUp: 'deliveries failed for 3 s',
    });
  });
});

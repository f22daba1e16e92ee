import type { GameSummary } from '@tcg/domain';
import { computeSeriesStats, presentStats } from '@tcg/pricing-stats';
import { toGameDto } from './game.dto';

const summary = (valueIndexCents: number, valueIndex7dAgoCents: number | null): GameSummary => ({
  game: { id: 'test-game', name: 'Test Game' },
  cardsCount: 1,
  variantsCount: 1,
  sealedCount: 0,
  setsCount: 2,
  lastUpdated: 1_700_000_000,
  valueIndexCents,
  valueIndex7dAgoCents,
  priceSources: ['imported'],
});

describe('toGameDto', () => {
  it('states the index change with the engine’s rule, rounded once to 2 decimals', () => {
    // The whole object is pinned by the e2e suite (v1-games-sets); here, the change and its inputs.
    expect(toGameDto(summary(1200, 900))).toMatchObject({
      game_value_index_cents: 1200,
      game_value_change_7d_pct: 33.33,
    });
    expect(toGameDto(summary(184_467_523, 181_973_412)).game_value_change_7d_pct).toBe(1.37);
    expect(toGameDto(summary(0, 250)).game_value_change_7d_pct).toBe(-100);
  });

  it('is the number a variant priced like the index would show as its 7-day change', () => {
    const T = 1_700_000_000;
    for (const [now, ago] of [
      [1006, 1003],
      [1, 3],
      [0, 3],
      [999_999_999, 1_000_000_000],
    ] as const) {
      const variant = presentStats(computeSeriesStats([T - 7 * 86_400, T], [ago, now]));
      expect(toGameDto(summary(now, ago)).game_value_change_7d_pct).toBe(variant['7d'].change);
    }
  });

  it('has no change without an index 7 days back, or against an index of 0', () => {
    expect(toGameDto(summary(1200, null)).game_value_change_7d_pct).toBeNull();
    expect(toGameDto(summary(1200, 0)).game_value_change_7d_pct).toBeNull();
    expect(toGameDto(summary(0, null)).game_value_change_7d_pct).toBeNull();
  });
});
